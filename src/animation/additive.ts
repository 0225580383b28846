import { copyJoint, type LocalPose } from '../skeleton/local-pose.ts';

/**
 * Adds an additive layer — a pose minus its reference pose — to `base`, per joint with α = weight·mask[j]
 * (ozz-animation `AdditiveAnimationBuilder` deltas applied as in `BlendingJob`'s additive pass):
 *
 * - translation: `base + α·(additive − reference)`; morph weights alike (α from the mask entry of the
 *   joint carrying them, `morphJoints`, or `weight` without);
 * - rotation: `base · nlerp(1, Δ, α)`, Δ = `reference⁻¹ · additive` (taken in the hemisphere w ≥ 0), so the
 *   delta is expressed in the joint's own frame and applied after the base rotation;
 * - scale: `base ⊙ (1 + α·(additive ⊘ reference − 1))` component-wise (a zero reference scale counts as
 *   ratio 1).
 *
 * Identities: `additive = reference` leaves `base` unchanged for any α; `base = reference`, α = 1 gives
 * `additive`. `out` may alias `base`. Allocates nothing.
 *
 * @param mask `Float32Array(jointCount)` of per-joint factors, or null/undefined for all 1
 * @param morphJoints `Int32Array(morphWeightCount)`: the joint carrying each morph weight, for the mask
 * @returns `out`
 */
export function addAdditive(
  out: LocalPose, base: LocalPose, additive: LocalPose, reference: LocalPose, weight: number, mask?: Float32Array | null,
  morphJoints?: Int32Array | null,
): LocalPose {
  const om = out.morphWeights, bm = base.morphWeights, am = additive.morphWeights, rm = reference.morphWeights;
  if (om && bm && am && rm) {
    // Poses without morph weights (a caller's reference pose) leave them as they are.
    const n = Math.min(om.length, bm.length, am.length, rm.length);
    for (let i = 0; i < n; i++) {
      const a = weight * (mask && morphJoints ? mask[morphJoints[i]] : 1);
      om[i] = bm[i] + a * (am[i] - rm[i]);
    }
  }
  const bt = base.translations, br = base.rotations, bs = base.scales;
  const at = additive.translations, ar = additive.rotations, as = additive.scales;
  const rt = reference.translations, rr = reference.rotations, rs = reference.scales;
  const ot = out.translations, or = out.rotations, os = out.scales;
  const n = (bt.length / 3) | 0;
  for (let j = 0; j < n; j++) {
    const a = weight * (mask ? mask[j] : 1); // not `mask ? w·m : w`: V8 would box that phi per joint
    const i3 = 3 * j, i4 = 4 * j;
    if (a === 0) {
      if (out !== base) copyJoint(out, base, j);
      continue;
    }
    for (let k = 0; k < 3; k++) {
      const i = i3 + k;
      ot[i] = bt[i] + a * (at[i] - rt[i]);
      const r = rs[i];
      const ratio = r !== 0 ? as[i] / r : 1;
      os[i] = bs[i] * (1 + a * (ratio - 1));
    }
    // Δ = conj(r) · q for unit r = (rx, ry, rz, rw): Hamilton product with (−rx, −ry, −rz, rw).
    const rx = -rr[i4], ry = -rr[i4 + 1], rz = -rr[i4 + 2], rw = rr[i4 + 3];
    const qx = ar[i4], qy = ar[i4 + 1], qz = ar[i4 + 2], qw = ar[i4 + 3];
    let dx = rw * qx + rx * qw + ry * qz - rz * qy;
    let dy = rw * qy - rx * qz + ry * qw + rz * qx;
    let dz = rw * qz + rx * qy - ry * qx + rz * qw;
    let dw = rw * qw - rx * qx - ry * qy - rz * qz;
    if (dw < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    // nlerp(identity, Δ, α).
    dx *= a; dy *= a; dz *= a; dw = 1 - a + a * dw;
    const len2 = dx * dx + dy * dy + dz * dz + dw * dw;
    const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
    dx *= inv; dy *= inv; dz *= inv; dw *= inv;
    // out = base · Δ_α.
    const bx = br[i4], by = br[i4 + 1], bz = br[i4 + 2], bw = br[i4 + 3];
    or[i4] = bw * dx + bx * dw + by * dz - bz * dy;
    or[i4 + 1] = bw * dy - bx * dz + by * dw + bz * dx;
    or[i4 + 2] = bw * dz + bx * dy - by * dx + bz * dw;
    or[i4 + 3] = bw * dw - bx * dx - by * dy - bz * dz;
  }
  return out;
}
