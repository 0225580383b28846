import { copyJoint, type LocalPose } from '../../../src/skeleton/local-pose.ts';

/**
 * Test oracle for the Animator's crossfades and override layers, written apart from `blendLayers`
 * (src/animation/blending-job.ts, which replaced it in src/): a two-pose blend with an optional per-joint
 * mask. For joint j, α = weight·mask[j] (weight alone without a mask), then
 *
 * - translation, scale: `(1−α)·from + α·to`; morph weights alike, α from the mask entry of the joint that
 *   carries them (`morphJoints`), or `weight` without a mask or `morphJoints`;
 * - rotation: nlerp, `normalize((1−α)·q_from + α·(±q_to))`, q_to negated when `q_from·q_to < 0`
 *   (hemisphere correction).
 *
 * α = 0 gives `from` exactly, α = 1 gives `to` (up to renormalisation of the rotation). This is a crossfade
 * at `weight = elapsed / duration` (`crossfadeWeight`) and the layering operator of the `Animator`.
 * `out` may alias `from` or `to`. Allocates nothing.
 *
 * @param weight blend factor, normally in [0, 1]
 * @param mask `Float32Array(jointCount)` of per-joint factors in [0, 1], or null/undefined for all 1
 * @param morphJoints `Int32Array(morphWeightCount)`: the joint carrying each morph weight (its mesh instance's
 *   node), so the mask applies to it; absent: morph weights blend at `weight`
 * @returns `out`
 */
export function crossfade(
  out: LocalPose, from: LocalPose, to: LocalPose, weight: number, mask?: Float32Array | null, morphJoints?: Int32Array | null,
): LocalPose {
  const om = out.morphWeights, fm = from.morphWeights, tm = to.morphWeights;
  if (om && fm && tm) {
    const n = Math.min(om.length, fm.length, tm.length);
    for (let i = 0; i < n; i++) {
      const a = weight * (mask && morphJoints ? mask[morphJoints[i]] : 1);
      om[i] = fm[i] + a * (tm[i] - fm[i]);
    }
  }
  const ft = from.translations, fr = from.rotations, fs = from.scales;
  const tt = to.translations, tr = to.rotations, ts = to.scales;
  const ot = out.translations, or = out.rotations, os = out.scales;
  const n = (ft.length / 3) | 0;
  for (let j = 0; j < n; j++) {
    const a = weight * (mask ? mask[j] : 1); // not `mask ? w·m : w`: V8 would box that phi per joint
    const i3 = (3 * j) | 0, i4 = j << 2;
    if (a === 0) {
      if (out !== from) copyJoint(out, from, j);
      continue;
    }
    const b = 1 - a;
    ot[i3] = b * ft[i3] + a * tt[i3];
    ot[(i3 + 1) | 0] = b * ft[(i3 + 1) | 0] + a * tt[(i3 + 1) | 0];
    ot[(i3 + 2) | 0] = b * ft[(i3 + 2) | 0] + a * tt[(i3 + 2) | 0];
    os[i3] = b * fs[i3] + a * ts[i3];
    os[(i3 + 1) | 0] = b * fs[(i3 + 1) | 0] + a * ts[(i3 + 1) | 0];
    os[(i3 + 2) | 0] = b * fs[(i3 + 2) | 0] + a * ts[(i3 + 2) | 0];
    const fx = fr[i4], fy = fr[(i4 + 1) | 0], fz = fr[(i4 + 2) | 0], fw = fr[(i4 + 3) | 0];
    const tx = tr[i4], ty = tr[(i4 + 1) | 0], tz = tr[(i4 + 2) | 0], tw = tr[(i4 + 3) | 0];
    const as = fx * tx + fy * ty + fz * tz + fw * tw < 0 ? -a : a;
    const x = b * fx + as * tx, y = b * fy + as * ty, z = b * fz + as * tz, w = b * fw + as * tw;
    const len2 = x * x + y * y + z * z + w * w;
    const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
    or[i4] = x * inv; or[(i4 + 1) | 0] = y * inv; or[(i4 + 2) | 0] = z * inv; or[(i4 + 3) | 0] = w * inv;
  }
  return out;
}
