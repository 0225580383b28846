import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Weighted blend of N local poses (same joint count), ozz-animation's `BlendingJob` normal pass:
 *
 * - translations, scales and morph weights: `Σᵢ wᵢ·xᵢ / W`, W = Σᵢ wᵢ;
 * - rotations: normalised `Σᵢ ±wᵢ·qᵢ` (nlerp), each qᵢ negated when its dot product with the sum so far is
 *   negative (hemisphere correction, so q and −q, the same rotation, do not cancel).
 *
 * Nlerp is not constant-speed like slerp, but for two poses it follows the same arc, it is commutative
 * over N poses and it is what game runtimes use (ozz `BlendingJob`; J. Blow, "Understanding slerp, then not
 * using it", 2004). Weights ≥ 0; they need not sum to 1. When W ≤ 0, `out` is left as it is.
 * `out` may be `poses[0]` (blending in place), no other input. Allocates nothing.
 *
 * @param poses the source poses; the first `count` are blended
 * @param weights `ArrayLike<number>(≥ count)`, weight of pose i
 * @param count number of poses to blend, default `poses.length`
 * @returns `out`
 */
export function blendPoses(
  out: LocalPose,
  poses: readonly LocalPose[],
  weights: ArrayLike<number>,
  count: number = poses.length,
): LocalPose {
  let total = 0;
  for (let p = 0; p < count; p++) total += weights[p];
  if (!(total > 0)) return out;
  const ot = out.translations, or = out.rotations, os = out.scales;
  const om = out.morphWeights;
  const morphCount = om ? om.length : 0;
  let first = true;
  for (let p = 0; p < count; p++) {
    const w = weights[p] / total;
    if (!(w > 0)) continue;
    const pt = poses[p].translations, pr = poses[p].rotations, ps = poses[p].scales;
    const pm = poses[p].morphWeights;
    if (morphCount > 0 && pm && pm.length >= morphCount) {
      if (first) for (let i = 0; i < morphCount; i++) om![i] = w * pm![i];
      else for (let i = 0; i < morphCount; i++) om![i] += w * pm![i];
    }
    if (first) {
      for (let i = 0; i < ot.length; i++) ot[i] = w * pt[i];
      for (let i = 0; i < os.length; i++) os[i] = w * ps[i];
      for (let i = 0; i < or.length; i++) or[i] = w * pr[i];
      first = false;
    } else {
      for (let i = 0; i < ot.length; i++) ot[i] += w * pt[i];
      for (let i = 0; i < os.length; i++) os[i] += w * ps[i];
      for (let i = 0; i < or.length; i += 4) {
        const x = pr[i], y = pr[i + 1], z = pr[i + 2], qw = pr[i + 3];
        const ws = or[i] * x + or[i + 1] * y + or[i + 2] * z + or[i + 3] * qw < 0 ? -w : w;
        or[i] += ws * x; or[i + 1] += ws * y; or[i + 2] += ws * z; or[i + 3] += ws * qw;
      }
    }
  }
  for (let i = 0; i < or.length; i += 4) {
    const x = or[i], y = or[i + 1], z = or[i + 2], w = or[i + 3];
    const len2 = x * x + y * y + z * z + w * w;
    if (len2 > 0) {
      const inv = 1 / Math.sqrt(len2);
      or[i] = x * inv; or[i + 1] = y * inv; or[i + 2] = z * inv; or[i + 3] = w * inv;
    }
  }
  return out;
}
