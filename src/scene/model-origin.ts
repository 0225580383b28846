import type { ModelAsset } from '../asset/model-asset.ts';
import { localToModel } from '../skeleton/local-to-model.ts';

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
 * every mesh instance's node; every joint when there are none), composed by `localToModel` relative to the
 * first root's translation and taken back to model space in f64 — or (0, 0, 0) when that centre lies within
 * {@link FAR_FROM_ORIGIN} of model space's origin. Pose buffers are then relative to O
 * (`localToModel`'s `origin`): a model 10 km from the origin skins with float32 numbers of its own size
 * instead of ≈ 1e4, and O is added back in f64 where a result leaves the model (renderer, bounds, `sinew eval`).
 *
 * Fixed at load: a joint that later walks far from O (root motion over kilometres) loses precision again.
 * Allocates (load time only).
 */
export function computeModelOrigin(asset: ModelAsset): Float64Array {
  const { skeleton, restPose } = asset;
  const jointCount = skeleton.jointCount;
  // Rest model-space matrices relative to the first root's translation R (localToModel's origin, subtracted in
  // f64), so the float32 matrices hold the model's own extent; R is added back in f64 below.
  const R = jointCount > 0 ? Float64Array.from(restPose.translations.subarray(0, 3)) : new Float64Array(3);
  const m = localToModel(new Float32Array(16 * jointCount), skeleton, restPose, R);
  const placing = new Set<number>();
  for (const skin of asset.skins) for (const j of skin.joints) placing.add(j);
  for (const instance of asset.meshInstances) placing.add(instance.node);
  if (placing.size === 0) for (let j = 0; j < jointCount; j++) placing.add(j);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const j of placing) {
    if (j < 0 || j >= jointCount) continue;
    for (let k = 0; k < 3; k++) {
      const v = m[16 * j + 12 + k] + R[k];
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
