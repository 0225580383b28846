/**
 * How a skinning palette reaches `shaders/skinned.vert`:
 * - `'uniform'`: `uniform mat4 u_joints[JOINT_COUNT]`, uploaded with one `uniformMatrix4fv` per draw;
 * - `'texture'`: an RGBA32F texture, 4 texels (matrix columns) per joint, read with `texelFetch`,
 *   uploaded with `texSubImage2D`.
 */
export type PalettePath = 'uniform' | 'texture';

/**
 * Vertex uniform vectors the skinned shader uses besides the palette: u_toDisplay (4), u_normalMatrix (3),
 * u_viewProjection (4), rounded up for the driver's own needs.
 */
export const OTHER_VERTEX_UNIFORM_VECTORS = 16;

/** Most joints a uniform palette can hold given `MAX_VERTEX_UNIFORM_VECTORS` (4 vectors per mat4). */
export function maxUniformJoints(maxVertexUniformVectors: number): number {
  return Math.max(0, Math.floor((maxVertexUniformVectors - OTHER_VERTEX_UNIFORM_VECTORS) / 4));
}

/**
 * Resolves a palette request for a skin of `jointCount` joints: `'auto'` picks `'uniform'` when
 * `4·jointCount + OTHER_VERTEX_UNIFORM_VECTORS ≤ maxVertexUniformVectors`, else `'texture'`.
 * @throws Error when `'uniform'` is forced for more joints than fit (`where` names the model)
 */
export function resolvePalettePath(
  requested: PalettePath | 'auto',
  jointCount: number,
  maxVertexUniformVectors: number,
  where: string,
): PalettePath {
  const fits = jointCount <= maxUniformJoints(maxVertexUniformVectors);
  if (requested === 'texture') return 'texture';
  if (requested === 'auto') return fits ? 'uniform' : 'texture';
  if (!fits) {
    throw new Error(`${where}: a uniform palette of ${jointCount} joints does not fit ` +
      `(MAX_VERTEX_UNIFORM_VECTORS ${maxVertexUniformVectors} holds ${maxUniformJoints(maxVertexUniformVectors)} joints); use the texture path`);
  }
  return 'uniform';
}

/**
 * Size of the `u_joints` array compiled for a skin of `jointCount` joints: rounded up to a multiple of 16
 * (fewer shader variants), capped at what fits.
 */
export function uniformJointCapacity(jointCount: number, maxVertexUniformVectors: number): number {
  return Math.max(1, Math.min(Math.ceil(jointCount / 16) * 16, maxUniformJoints(maxVertexUniformVectors)));
}
