/**
 * Radiance RGBE (`.hdr`) images: Greg Ward's format (Graphics Gems II, "Real Pixels"; the Radiance file
 * format, radsite.lbl.gov/radiance/refer/filefmts.pdf): a text header (`#?RADIANCE` or `#?RGBE`,
 * `FORMAT=32-bit_rle_rgbe`, a blank line), the resolution line `-Y height +X width` (rows from the top, left
 * to right; the orientation every equirect environment uses, and the only one three.js's RGBELoader reads),
 * then scanlines, flat or in the "new" run-length encoding (per scanline: 2, 2, width, then the R, G, B and E
 * planes as runs). A pixel (r, g, b, e) is (r, g, b) · 2^(e − 128) / 255, as three.js's RGBELoader decodes it
 * (model-viewer's loader), so Sinew lights a model with the same numbers.
 */

/** What the header of a `.hdr` says. */
export interface RgbeHeader {
  readonly width: number;
  readonly height: number;
  /** Byte offset of the first scanline. */
  readonly dataOffset: number;
}

/** Bytes one decoded texel takes (RGB float32). */
export const RGBE_DECODED_TEXEL_BYTES = 12;

/** Whether `bytes` starts like a Radiance file (`#?`). */
export function looksLikeRgbe(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x23 && bytes[1] === 0x3f;
}

/**
 * Reads the header of the `.hdr` `name`.
 * @throws Error naming `name` for a header that is not Radiance's, an unsupported FORMAT or orientation
 */
export function readRgbeHeader(name: string, bytes: Uint8Array): RgbeHeader {
  if (!looksLikeRgbe(bytes)) throw new Error(`${name}: not a Radiance .hdr image (no "#?" signature)`);
  let offset = 0;
  const line = (): string | null => {
    const end = bytes.indexOf(0x0a, offset);
    if (end < 0 || end - offset > 4096) return null;
    const text = String.fromCharCode(...bytes.subarray(offset, end));
    offset = end + 1;
    return text;
  };
  for (;;) {
    const text = line();
    if (text === null) throw new Error(`${name}: the .hdr header does not end (no blank line)`);
    if (text.trim() === '') break;
    const format = /^FORMAT=(.*)$/.exec(text);
    if (format && format[1].trim() !== '32-bit_rle_rgbe') throw new Error(`${name}: .hdr FORMAT=${format[1].trim()} is not supported (only 32-bit_rle_rgbe)`);
  }
  const resolution = line();
  const match = resolution === null ? null : /^-Y (\d+) \+X (\d+)\s*$/.exec(resolution);
  if (!match) throw new Error(`${name}: .hdr resolution line "${resolution ?? ''}" is not supported (expected "-Y height +X width")`);
  const height = Number(match[1]), width = Number(match[2]);
  if (width < 1 || height < 1) throw new Error(`${name}: .hdr size ${width} × ${height} is empty`);
  return { width, height, dataOffset: offset };
}

/**
 * Decodes the `.hdr` `name` to linear RGB float32 (3·width·height, row 0 the image's top), refusing before
 * decoding any pixel when width · height · {@link RGBE_DECODED_TEXEL_BYTES} exceeds `memoryBudgetBytes`.
 * @throws Error naming `name` for a bad header, a size over the budget, or truncated or malformed scanlines
 */
export function decodeRgbe(name: string, bytes: Uint8Array, memoryBudgetBytes: number): { width: number; height: number; rgb: Float32Array } {
  const { width, height, dataOffset } = readRgbeHeader(name, bytes);
  const decodedBytes = width * height * RGBE_DECODED_TEXEL_BYTES;
  if (decodedBytes > memoryBudgetBytes) {
    throw new Error(`${name}: ${width} × ${height} .hdr would decode to ${mib(decodedBytes)} MiB, over the memory budget of ${mib(memoryBudgetBytes)} MiB`);
  }
  const rgb = new Float32Array(width * height * 3);
  const scanline = new Uint8Array(width * 4);
  let offset = dataOffset;
  const truncated = () => new Error(`${name}: .hdr pixel data ends early`);
  for (let y = 0; y < height; y++) {
    const rle = width >= 8 && width < 0x8000 && offset + 4 <= bytes.length && bytes[offset] === 2 && bytes[offset + 1] === 2 && (bytes[offset + 2] & 0x80) === 0;
    if (!rle) {
      // Flat scanline: width RGBE quadruples.
      if (offset + width * 4 > bytes.length) throw truncated();
      scanline.set(bytes.subarray(offset, offset + width * 4));
      offset += width * 4;
    } else {
      if (((bytes[offset + 2] << 8) | bytes[offset + 3]) !== width) throw new Error(`${name}: .hdr scanline ${y} has the wrong width`);
      offset += 4;
      // Four planes (R, G, B, E), each a sequence of runs: n > 128 repeats the next byte n − 128 times, else n literal bytes.
      for (let channel = 0; channel < 4; channel++) {
        let x = 0;
        while (x < width) {
          if (offset >= bytes.length) throw truncated();
          let count = bytes[offset++];
          if (count > 128) {
            count -= 128;
            if (count > width - x || offset >= bytes.length) throw new Error(`${name}: .hdr scanline ${y} has a bad run`);
            const value = bytes[offset++];
            for (let k = 0; k < count; k++) scanline[(x++) * 4 + channel] = value;
          } else {
            if (count === 0 || count > width - x) throw new Error(`${name}: .hdr scanline ${y} has a bad run`);
            if (offset + count > bytes.length) throw truncated();
            for (let k = 0; k < count; k++) scanline[(x++) * 4 + channel] = bytes[offset++];
          }
        }
      }
    }
    const row = y * width * 3;
    for (let x = 0; x < width; x++) {
      const e = scanline[x * 4 + 3];
      const scale = Math.pow(2, e - 128) / 255;
      rgb[row + x * 3] = scanline[x * 4] * scale;
      rgb[row + x * 3 + 1] = scanline[x * 4 + 1] * scale;
      rgb[row + x * 3 + 2] = scanline[x * 4 + 2] * scale;
    }
  }
  return { width, height, rgb };
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(0);
}
