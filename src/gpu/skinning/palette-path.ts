import type { SkinningMode } from '../../skinning/skinning-method.ts';

/**
 * How a skin's palette (its skinning matrices packed for the GPU) reaches `shaders/skinned.vert`. Each joint
 * takes `stride` `vec4`s ({@link paletteStride}): for LBS the upper 3 rows of its skinning matrix — those are
 * affine (bottom row 0 0 0 1), so the 4th is never sent (`palette-rows.ts`); for DQS 4 (`dual-quaternion-palette.ts`):
 * - `'uniform'`: `uniform vec4 u_joints[stride·JOINT_COUNT]`, one `uniform4fv` per draw;
 * - `'texture'`: an RGBA32F texture, `stride` texels per joint, read with `texelFetch`, uploaded with
 *   `texSubImage2D`;
 * - `'ubo'`: a uniform buffer object, std140 block `Palette { vec4 u_jointBlock[stride·JOINT_COUNT]; }`
 *   (16·stride bytes per joint), uploaded with `bufferSubData`.
 */
export type PalettePath = 'uniform' | 'texture' | 'ubo';

/** A palette request: a path, or `'auto'` ({@link resolvePalettePath}). */
export type PaletteRequest = PalettePath | 'auto';

/** Every palette path, in the order `'auto'` prefers them. */
export const PALETTE_PATHS: readonly PalettePath[] = ['uniform', 'ubo', 'texture'];

/** `vec4`s per joint of LBS: the 3 rows of the affine 3×4 skinning matrix. */
export const PALETTE_VECTORS_PER_JOINT = 3;

/** Most `vec4`s per joint of any skinning mode (DQS), what per-skin scratch is sized for. */
export const MAX_PALETTE_STRIDE = 4;

/** `vec4`s per joint for a skinning mode: 3 for `'lbs'`, 4 for `'dqs'`. */
export function paletteStride(skinning: SkinningMode): number {
  return skinning === 'dqs' ? 4 : PALETTE_VECTORS_PER_JOINT;
}

/**
 * Vertex uniform vectors the skinned shader uses besides the palette: u_toDisplay (4), u_normalMatrix (3),
 * u_viewProjection (4), rounded up for the driver's own needs.
 */
export const OTHER_VERTEX_UNIFORM_VECTORS = 16;

/** The context limits that decide which palette paths can hold a skin (read once per context). */
export interface PaletteLimits {
  /** `MAX_VERTEX_UNIFORM_VECTORS` (WebGL2: ≥ 256). */
  readonly maxVertexUniformVectors: number;
  /** `MAX_UNIFORM_BLOCK_SIZE` in bytes (WebGL2: ≥ 16 384). */
  readonly maxUniformBlockSize: number;
}

/** Reads {@link PaletteLimits} from a context. */
export function readPaletteLimits(gl: WebGL2RenderingContext): PaletteLimits {
  return {
    maxVertexUniformVectors: gl.getParameter(gl.MAX_VERTEX_UNIFORM_VECTORS) as number,
    maxUniformBlockSize: gl.getParameter(gl.MAX_UNIFORM_BLOCK_SIZE) as number,
  };
}

/** Most joints a uniform palette can hold given `MAX_VERTEX_UNIFORM_VECTORS` (`stride` vectors per joint, default 3). */
export function maxUniformJoints(maxVertexUniformVectors: number, stride = PALETTE_VECTORS_PER_JOINT): number {
  return Math.max(0, Math.floor((maxVertexUniformVectors - OTHER_VERTEX_UNIFORM_VECTORS) / stride));
}

/** Most joints a `Palette` uniform block can hold given `MAX_UNIFORM_BLOCK_SIZE` (16·`stride` bytes per joint, default 48). */
export function maxUboJoints(maxUniformBlockSize: number, stride = PALETTE_VECTORS_PER_JOINT): number {
  return Math.max(0, Math.floor(maxUniformBlockSize / (16 * stride)));
}

/**
 * Most joints `palettePath` can hold under `limits`; `Infinity` for the texture path (rows wrap: joints per row ×
 * `MAX_TEXTURE_SIZE` rows, beyond any skin an Int16 parent index can describe).
 */
export function maxPaletteJoints(palettePath: PalettePath, limits: PaletteLimits, stride = PALETTE_VECTORS_PER_JOINT): number {
  if (palettePath === 'uniform') return maxUniformJoints(limits.maxVertexUniformVectors, stride);
  if (palettePath === 'ubo') return maxUboJoints(limits.maxUniformBlockSize, stride);
  return Infinity;
}

/**
 * Resolves a palette request for a skin of `jointCount` joints: `'auto'` picks the first of
 * {@link PALETTE_PATHS} that holds it — uniform (`stride·jointCount + OTHER_VERTEX_UNIFORM_VECTORS ≤
 * MAX_VERTEX_UNIFORM_VECTORS`), then ubo (`16·stride·jointCount ≤ MAX_UNIFORM_BLOCK_SIZE`), then texture.
 * @param stride `vec4`s per joint ({@link paletteStride}; default 3, LBS)
 * @throws Error when `'uniform'` or `'ubo'` is forced for more joints than it holds (`where` names the model)
 */
export function resolvePalettePath(
  paletteRequest: PaletteRequest, jointCount: number, limits: PaletteLimits, where: string, stride = PALETTE_VECTORS_PER_JOINT,
): PalettePath {
  if (paletteRequest === 'auto') return PALETTE_PATHS.find((path) => jointCount <= maxPaletteJoints(path, limits, stride))!;
  const max = maxPaletteJoints(paletteRequest, limits, stride);
  if (jointCount > max) {
    const limit = paletteRequest === 'uniform'
      ? `MAX_VERTEX_UNIFORM_VECTORS ${limits.maxVertexUniformVectors}`
      : `MAX_UNIFORM_BLOCK_SIZE ${limits.maxUniformBlockSize}`;
    throw new Error(`${where}: a ${paletteRequest} palette of ${jointCount} joints does not fit (${limit} holds ${max} joints); use the texture path`);
  }
  return paletteRequest;
}

/**
 * Size of the `u_joints` / `u_jointBlock` array compiled for a skin of `jointCount` joints on `palettePath`:
 * rounded up to a multiple of 16 (fewer shader variants), capped at what the path holds; 0 for the texture
 * path (no compiled size).
 */
export function paletteCapacity(palettePath: PalettePath, jointCount: number, limits: PaletteLimits, stride = PALETTE_VECTORS_PER_JOINT): number {
  if (palettePath === 'texture') return 0;
  return Math.max(1, Math.min(Math.ceil(jointCount / 16) * 16, maxPaletteJoints(palettePath, limits, stride)));
}
