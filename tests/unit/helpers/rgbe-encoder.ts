/**
 * Builds Radiance `.hdr` files for tests: `texel(x, y)` gives RGBE bytes (r, g, b, e) directly, so the
 * expected decode is known exactly; `rle` writes "new" run-length scanlines (runs of repeated bytes as
 * 128 + n, the rest as literals), else flat ones.
 */
export function encodeHdr(width: number, height: number, texel: (x: number, y: number) => readonly number[], rle: boolean): Uint8Array {
  const header = `#?RADIANCE\n# test image\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n-Y ${height} +X ${width}\n`;
  const out: number[] = [...header].map((c) => c.charCodeAt(0));
  for (let y = 0; y < height; y++) {
    const row = Array.from({ length: width }, (_, x) => texel(x, y));
    if (!rle) {
      for (const t of row) out.push(...t);
      continue;
    }
    out.push(2, 2, width >> 8, width & 0xff);
    for (let c = 0; c < 4; c++) {
      const plane = row.map((t) => t[c]);
      let x = 0;
      while (x < width) {
        let run = 1;
        while (x + run < width && run < 127 && plane[x + run] === plane[x]) run++;
        if (run >= 3) {
          out.push(128 + run, plane[x]);
          x += run;
        } else {
          let n = 0;
          const start = x;
          while (x < width && n < 128 && !(x + 2 < width && plane[x] === plane[x + 1] && plane[x] === plane[x + 2])) { x++; n++; }
          out.push(n, ...plane.slice(start, start + n));
        }
      }
    }
  }
  return new Uint8Array(out);
}
