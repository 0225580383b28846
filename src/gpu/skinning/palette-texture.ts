import { MAX_PALETTE_STRIDE } from './palette-path.ts';
import { DataTexture } from '../device/data-texture.ts';

/**
 * The texture form of a skinning palette: RGBA32F, `stride` texels per joint (3 rows of the affine 3×4 for
 * LBS, `palette-rows.ts`; 4 for DQS, `dual-quaternion-palette.ts`), joint i at texel `stride·i`, counted
 * row-major across rows `width` texels wide. `width` is a multiple of 12, so at either stride a joint never
 * straddles two rows; the texture has room for every joint at the largest stride. `shaders/skinned.vert`
 * (`PALETTE_TEXTURE`) reads it with `texelFetch`.
 */
export interface PaletteTexture {
  /** The texture in the context as it is now (restored to its size only: a palette is written before each draw). */
  readonly texture: WebGLTexture;
  /** The resource behind {@link texture}: dispose it to free the texture. */
  readonly storage: DataTexture;
  /** Joints held. */
  readonly jointCount: number;
  /** Texels per row: a multiple of 12, room for min(jointCount, jointsPerRow) joints at stride 4. */
  readonly width: number;
  /** Rows: enough for `4·jointCount` texels. */
  readonly height: number;
}

/** Joints per texture row at stride 4 (1 032 texels, a multiple of 12; WebGL2 guarantees MAX_TEXTURE_SIZE ≥ 2048). */
export const JOINTS_PER_ROW = 258;

/**
 * Allocates an RGBA32F palette texture for `jointCount` joints (NEAREST, no mipmaps), contents undefined.
 * @param jointsPerRow joints per row at stride 4, default {@link JOINTS_PER_ROW} (tests use small values to
 *   force wrapped rows and a partial last row)
 * @throws Error when the texture cannot be created (context lost)
 */
export function createPaletteTexture(gl: WebGL2RenderingContext, jointCount: number, jointsPerRow = JOINTS_PER_ROW): PaletteTexture {
  const count = Math.max(1, jointCount);
  const perRow = Math.max(1, Math.min(count, jointsPerRow));
  const width = 12 * Math.ceil((MAX_PALETTE_STRIDE * perRow) / 12);
  const height = Math.ceil((MAX_PALETTE_STRIDE * count) / width);
  const storage = new DataTexture(gl, { internalFormat: gl.RGBA32F, width, height, label: 'palette texture' });
  return { get texture() { return storage.handle; }, storage, jointCount, width, height };
}

/**
 * Uploads `target.jointCount` joints of `stride` texels each (`Float32Array(≥ 4·stride·jointCount)`) with
 * at most two `texSubImage2D` calls (the full rows, then the partial last row), using source offsets so
 * nothing is allocated. Leaves `target.texture` bound to TEXTURE_2D of the active unit.
 */
export function uploadPaletteTexture(gl: WebGL2RenderingContext, target: PaletteTexture, rows: Float32Array, stride: number): void {
  const { width, jointCount } = target;
  const texels = stride * jointCount;
  const fullRows = Math.floor(texels / width);
  const rest = texels - fullRows * width;
  gl.bindTexture(gl.TEXTURE_2D, target.texture);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
  if (fullRows > 0) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, fullRows, gl.RGBA, gl.FLOAT, rows, 0);
  if (rest > 0) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, fullRows, rest, 1, gl.RGBA, gl.FLOAT, rows, 4 * fullRows * width);
}
