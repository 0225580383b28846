/** What {@link readFrame} measures of the drawn frame. */
export interface FrameStats {
  /** Fraction of pixels that differ from the background by more than 3/255 in any of R, G, B. */
  readonly coverage: number;
  /**
   * Mean luminance (0–255) of each cell of a cols × rows grid over the frame, row-major from the top-left:
   * a small fingerprint for telling whether two frames show the same picture.
   */
  readonly grid: number[];
}

/**
 * Reads the default framebuffer back and measures it. Must run in the same task as the draw (the drawing
 * buffer is not preserved after compositing). Allocates: for tests and tools, not the render loop.
 * @param background RGBA in [0, 1], the clear colour
 */
export function readFrame(
  gl: WebGL2RenderingContext,
  width: number,
  height: number,
  background: readonly number[],
  cols = 16,
  rows = 12,
): FrameStats {
  const pixels = new Uint8Array(4 * width * height);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const bg = background.map((c) => Math.round(c * 255));
  const sums = new Float64Array(cols * rows);
  const counts = new Uint32Array(cols * rows);
  let differing = 0;
  for (let y = 0; y < height; y++) {
    // readPixels rows start at the bottom.
    const row = Math.min(rows - 1, Math.floor(((height - 1 - y) * rows) / height));
    for (let x = 0; x < width; x++) {
      const i = 4 * (y * width + x);
      const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
      if (Math.abs(r - bg[0]) > 3 || Math.abs(g - bg[1]) > 3 || Math.abs(b - bg[2]) > 3) differing++;
      const cell = row * cols + Math.min(cols - 1, Math.floor((x * cols) / width));
      sums[cell] += 0.2126 * r + 0.7152 * g + 0.0722 * b;
      counts[cell]++;
    }
  }
  const grid: number[] = [];
  for (let c = 0; c < sums.length; c++) grid.push(counts[c] ? sums[c] / counts[c] : 0);
  return { coverage: differing / Math.max(1, width * height), grid };
}
