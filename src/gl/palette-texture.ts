/**
 * The texture form of a skinning palette: RGBA32F, one texel per row of the affine 3×4 matrix
 * (`palette-rows.ts`), so joint i occupies the 3 texels starting at texel 3i, counted row-major across rows
 * `width` texels wide (`width` a multiple of 3, so a joint never straddles two rows; at most
 * 3·{@link JOINTS_PER_ROW}). `shaders/skinned.vert` (`PALETTE_TEXTURE`) reads it with `texelFetch`.
 */
export interface PaletteTexture {
  readonly texture: WebGLTexture;
  /** Joints held. */
  readonly jointCount: number;
  /** Texels per row: 3·min(jointCount, jointsPerRow). */
  readonly width: number;
  /** Rows: ⌈jointCount / jointsPerRow⌉. */
  readonly height: number;
}

/** Texels per joint: the 3 rows of its affine matrix. */
export const TEXELS_PER_JOINT = 3;

/** Joints per texture row (768 texels; WebGL2 guarantees MAX_TEXTURE_SIZE ≥ 2048). */
export const JOINTS_PER_ROW = 256;

/**
 * Allocates an RGBA32F palette texture for `jointCount` joints (NEAREST, no mipmaps), contents undefined.
 * @param jointsPerRow joints per row, default {@link JOINTS_PER_ROW} (tests use small values to force
 *   wrapped rows and a partial last row)
 * @throws Error when the texture cannot be created (context lost)
 */
export function createPaletteTexture(gl: WebGL2RenderingContext, jointCount: number, jointsPerRow = JOINTS_PER_ROW): PaletteTexture {
  const count = Math.max(1, jointCount);
  const perRow = Math.max(1, Math.min(count, jointsPerRow));
  const width = TEXELS_PER_JOINT * perRow, height = Math.ceil(count / perRow);
  const texture = gl.createTexture();
  if (!texture) throw new Error('createPaletteTexture: gl.createTexture failed (context lost?)');
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return { texture, jointCount, width, height };
}

/**
 * Uploads packed palette rows (`Float32Array(12·m)` from `packPaletteRows`, m = `target.jointCount`) with
 * at most two `texSubImage2D` calls (the full rows, then the partial last row), using source offsets so
 * nothing is allocated. Leaves `target.texture` bound to TEXTURE_2D of the active unit.
 */
export function uploadPaletteTexture(gl: WebGL2RenderingContext, target: PaletteTexture, rows: Float32Array): void {
  const { width, jointCount } = target;
  const perRow = width / TEXELS_PER_JOINT;
  const fullRows = Math.floor(jointCount / perRow);
  const rest = jointCount - fullRows * perRow;
  gl.bindTexture(gl.TEXTURE_2D, target.texture);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
  if (fullRows > 0) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, fullRows, gl.RGBA, gl.FLOAT, rows, 0);
  if (rest > 0) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, fullRows, TEXELS_PER_JOINT * rest, 1, gl.RGBA, gl.FLOAT, rows, 12 * fullRows * perRow);
}
