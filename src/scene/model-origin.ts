import type { ModelAsset } from '../asset/model-asset.ts';

/**
 * How far from model space's origin (largest |coordinate|, in the file's units) the centre of a model's
 * joints must lie before {@link computeModelOrigin} moves the origin there. Float32 spacing at 1 024 is
 * 2⁻¹³ ≈ 1.2e-4 units; nearer models keep O = 0, so their pose buffers are bit-identical to a model-space
 * evaluation.
 */
export const FAR_FROM_ORIGIN = 1024;

/**
 * The per-model origin O (`Float64Array(3)`, model space, the file's units): the centre of the axis-aligned
 * box around the rest-pose model-space positions of the joints that place geometry (every skin joint and
 * every mesh instance's node; every joint when there are none), computed in f64 — or (0, 0, 0) when that
 * centre lies within {@link FAR_FROM_ORIGIN} of model space's origin. Pose buffers are then relative to O
 * (`localToModel`'s `origin`): a model 10 km from the origin skins with float32 numbers of its own size
 * instead of ≈ 1e4, and O is added back in f64 where a result leaves the model (renderer, bounds, `sinew eval`).
 *
 * Fixed at load: a joint that later walks far from O (root motion over kilometres) loses precision again.
 * Allocates (load time only).
 */
export function computeModelOrigin(asset: ModelAsset): Float64Array {
  const { parents, jointCount } = asset.skeleton;
  const { translations: T, rotations: Q, scales: S } = asset.restPose;
  // Upper 3×4 rows of every joint's rest model-space matrix, f64, column-major (12 per joint).
  const m = new Float64Array(12 * jointCount);
  for (let i = 0; i < jointCount; i++) {
    const x = Q[4 * i], y = Q[4 * i + 1], z = Q[4 * i + 2], w = Q[4 * i + 3];
    const sx = S[3 * i], sy = S[3 * i + 1], sz = S[3 * i + 2];
    const l = [
      (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + w * z) * sx, 2 * (x * z - w * y) * sx,
      2 * (x * y - w * z) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + w * x) * sy,
      2 * (x * z + w * y) * sz, 2 * (y * z - w * x) * sz, (1 - 2 * (x * x + y * y)) * sz,
      T[3 * i], T[3 * i + 1], T[3 * i + 2],
    ];
    const o = 12 * i, p = parents[i];
    if (p < 0) { for (let k = 0; k < 12; k++) m[o + k] = l[k]; continue; }
    const a = 12 * p;
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 3; r++) {
        m[o + 3 * c + r] = m[a + r] * l[3 * c] + m[a + 3 + r] * l[3 * c + 1] + m[a + 6 + r] * l[3 * c + 2] + (c === 3 ? m[a + 9 + r] : 0);
      }
    }
  }
  const placing = new Set<number>();
  for (const skin of asset.skins) for (const j of skin.joints) placing.add(j);
  for (const instance of asset.meshInstances) placing.add(instance.node);
  if (placing.size === 0) for (let j = 0; j < jointCount; j++) placing.add(j);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const j of placing) {
    if (j < 0 || j >= jointCount) continue;
    for (let k = 0; k < 3; k++) {
      const v = m[12 * j + 9 + k];
      if (!Number.isFinite(v)) continue;
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  }
  const origin = new Float64Array(3);
  if (!(min[0] <= max[0] && min[1] <= max[1] && min[2] <= max[2])) return origin;
  const centre = [0, 1, 2].map((k) => (min[k] + max[k]) / 2);
  if (Math.max(...centre.map(Math.abs)) < FAR_FROM_ORIGIN) return origin;
  origin.set(centre);
  return origin;
}
