/**
 * How a skinning palette reaches `shaders/skinned.vert`. Palettes are affine (bottom row 0 0 0 1), so every
 * path carries only each joint's upper 3 rows — 3 `vec4` per joint, row-major 3×4 (`palette-rows.ts`):
 * - `'uniform'`: `uniform vec4 u_joints[3·JOINT_COUNT]` (3 vectors per joint), one `uniform4fv` per draw;
 * - `'texture'`: an RGBA32F texture, 3 texels (rows) per joint, read with `texelFetch`, uploaded with
 *   `texSubImage2D`;
 * - `'ubo'`: a uniform buffer object, std140 block `Palette { vec4 u_jointBlock[3·JOINT_COUNT]; }` (48 bytes
 *   per joint), uploaded with `bufferSubData`.
 */
export type PalettePath = 'uniform' | 'texture' | 'ubo';

/** A palette request: a path, or `'auto'` ({@link resolvePalettePath}). */
export type PaletteRequest = PalettePath | 'auto';

/** Every palette path, in the order `'auto'` prefers them. */
export const PALETTE_PATHS: readonly PalettePath[] = ['uniform', 'ubo', 'texture'];

/** `vec4`s per joint on every path: the 3 rows of the affine 3×4 skinning matrix. */
export const PALETTE_VECTORS_PER_JOINT = 3;

/** Bytes per joint in the std140 `Palette` block: 3 `vec4` of 16 bytes, no padding. */
export const UBO_BYTES_PER_JOINT = 16 * PALETTE_VECTORS_PER_JOINT;

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

/** Most joints a uniform palette can hold given `MAX_VERTEX_UNIFORM_VECTORS` (3 vectors per joint). */
export function maxUniformJoints(maxVertexUniformVectors: number): number {
  return Math.max(0, Math.floor((maxVertexUniformVectors - OTHER_VERTEX_UNIFORM_VECTORS) / PALETTE_VECTORS_PER_JOINT));
}

/** Most joints a `Palette` uniform block can hold given `MAX_UNIFORM_BLOCK_SIZE` (48 bytes per joint). */
export function maxUboJoints(maxUniformBlockSize: number): number {
  return Math.max(0, Math.floor(maxUniformBlockSize / UBO_BYTES_PER_JOINT));
}

/**
 * Most joints `path` can hold under `limits`; `Infinity` for the texture path (rows wrap: joints per row ×
 * `MAX_TEXTURE_SIZE` rows, beyond any skin an Int16 parent index can describe).
 */
export function maxPaletteJoints(path: PalettePath, limits: PaletteLimits): number {
  if (path === 'uniform') return maxUniformJoints(limits.maxVertexUniformVectors);
  if (path === 'ubo') return maxUboJoints(limits.maxUniformBlockSize);
  return Infinity;
}

/**
 * Resolves a palette request for a skin of `jointCount` joints: `'auto'` picks the first of
 * {@link PALETTE_PATHS} that holds it — uniform (`3·jointCount + OTHER_VERTEX_UNIFORM_VECTORS ≤
 * MAX_VERTEX_UNIFORM_VECTORS`), then ubo (`48·jointCount ≤ MAX_UNIFORM_BLOCK_SIZE`), then texture.
 * @throws Error when `'uniform'` or `'ubo'` is forced for more joints than it holds (`where` names the model)
 */
export function resolvePalettePath(requested: PaletteRequest, jointCount: number, limits: PaletteLimits, where: string): PalettePath {
  if (requested === 'auto') return PALETTE_PATHS.find((path) => jointCount <= maxPaletteJoints(path, limits))!;
  const max = maxPaletteJoints(requested, limits);
  if (jointCount > max) {
    const limit = requested === 'uniform'
      ? `MAX_VERTEX_UNIFORM_VECTORS ${limits.maxVertexUniformVectors}`
      : `MAX_UNIFORM_BLOCK_SIZE ${limits.maxUniformBlockSize}`;
    throw new Error(`${where}: a ${requested} palette of ${jointCount} joints does not fit (${limit} holds ${max} joints); use the texture path`);
  }
  return requested;
}

/**
 * Size of the `u_joints` / `u_jointBlock` array compiled for a skin of `jointCount` joints on `path`:
 * rounded up to a multiple of 16 (fewer shader variants), capped at what the path holds; 0 for the texture
 * path (no compiled size).
 */
export function paletteCapacity(path: PalettePath, jointCount: number, limits: PaletteLimits): number {
  if (path === 'texture') return 0;
  return Math.max(1, Math.min(Math.ceil(jointCount / 16) * 16, maxPaletteJoints(path, limits)));
}
