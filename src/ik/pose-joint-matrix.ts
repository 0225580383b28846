import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { didYouMeanJoint, findJoint } from '../skeleton/skeleton.ts';

/**
 * Joint `joint`'s matrix relative to its ancestor `ancestor` (−1: model space), straight from the local pose
 * in f64: `L[ancestor→…] · … · L[parent] · L[joint]`, each `L = T·R·S` (docs/explanation/skinning-formulas.md S4; glTF 2.0
 * §3.5.3). Walks only the joint's ancestors, not the whole skeleton, so an IK job reads the few joints it needs
 * before the matrix stages have run. No model origin is subtracted: this is the pose's own model space, where
 * `PoseJob` targets live. When `ancestor` is not an ancestor of `joint` the walk ends at the root, so the result
 * is the model-space matrix. Allocates nothing.
 * @param out `Float64Array(16)`, column-major; written and returned
 * @param joint a joint index of `skeleton` (not checked: resolve and check at set-up, {@link resolveJoint})
 * @param ancestor an ancestor's index, or −1 (default) for model space
 */
export function poseJointMatrix(out: Float64Array, skeleton: Skeleton, pose: LocalPose, joint: number, ancestor = -1): Float64Array {
  composeLocal(out, pose, joint);
  const parents = skeleton.parents;
  for (let p = parents[joint]; p >= 0 && p !== ancestor; p = parents[p]) premultiplyLocal(out, pose, p);
  return out;
}

/** `out = T·R·S` of joint `j` (column-major, f64). */
function composeLocal(out: Float64Array, pose: LocalPose, j: number): void {
  const Q = pose.rotations, T = pose.translations, S = pose.scales, q = 4 * j, t = 3 * j;
  const x = Q[q], y = Q[q + 1], z = Q[q + 2], w = Q[q + 3];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2, wx = w * x2, wy = w * y2, wz = w * z2;
  const sx = S[t], sy = S[t + 1], sz = S[t + 2];
  out[0] = (1 - (yy + zz)) * sx; out[1] = (xy + wz) * sx; out[2] = (xz - wy) * sx; out[3] = 0;
  out[4] = (xy - wz) * sy; out[5] = (1 - (xx + zz)) * sy; out[6] = (yz + wx) * sy; out[7] = 0;
  out[8] = (xz + wy) * sz; out[9] = (yz - wx) * sz; out[10] = (1 - (xx + yy)) * sz; out[11] = 0;
  out[12] = T[t]; out[13] = T[t + 1]; out[14] = T[t + 2]; out[15] = 1;
}

/** `out = (T·R·S of joint j) · out`, in place, column by column. */
function premultiplyLocal(out: Float64Array, pose: LocalPose, j: number): void {
  const Q = pose.rotations, T = pose.translations, S = pose.scales, q = 4 * j, t = 3 * j;
  const x = Q[q], y = Q[q + 1], z = Q[q + 2], w = Q[q + 3];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2, wx = w * x2, wy = w * y2, wz = w * z2;
  const sx = S[t], sy = S[t + 1], sz = S[t + 2];
  const l0 = (1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
  const l4 = (xy - wz) * sy, l5 = (1 - (xx + zz)) * sy, l6 = (yz + wx) * sy;
  const l8 = (xz + wy) * sz, l9 = (yz - wx) * sz, l10 = (1 - (xx + yy)) * sz;
  const l12 = T[t], l13 = T[t + 1], l14 = T[t + 2];
  for (let c = 0; c < 16; c += 4) {
    const a = out[c], b = out[c + 1], d = out[c + 2], e = out[c + 3];
    out[c] = l0 * a + l4 * b + l8 * d + l12 * e;
    out[c + 1] = l1 * a + l5 * b + l9 * d + l13 * e;
    out[c + 2] = l2 * a + l6 * b + l10 * d + l14 * e;
  }
}

/**
 * Index of joint `joint` of `skeleton`: an index is checked, a name looked up (the first joint so named).
 * For set-up, not per frame (linear in the joint count for a name).
 * @param where the caller and role, for the message (e.g. `TwoBoneIkJob start`)
 * @throws RangeError naming `where` and the joint when there is no such joint
 */
export function resolveJoint(skeleton: Skeleton, joint: number | string, where: string): number {
  const index = typeof joint === 'number' ? joint : typeof joint === 'string' ? findJoint(skeleton, joint) : -1;
  if (!Number.isInteger(index) || index < 0 || index >= skeleton.jointCount) {
    throw new RangeError(`${where}: no joint ${typeof joint === 'string' ? JSON.stringify(joint) : String(joint)} in the skeleton (${didYouMeanJoint(skeleton, joint)}${skeleton.jointCount} joints)`);
  }
  return index;
}

/** True when `ancestor` is a strict ancestor of `joint` (walking `skeleton.parents`). */
export function isAncestor(skeleton: Skeleton, ancestor: number, joint: number): boolean {
  for (let p = skeleton.parents[joint]; p >= 0; p = skeleton.parents[p]) if (p === ancestor) return true;
  return false;
}

/** A joint's name for messages: `"name" (i)` or `joint i`. */
export function jointLabel(skeleton: Skeleton, joint: number): string {
  const name = skeleton.names[joint];
  return name ? `${JSON.stringify(name)} (${joint})` : `joint ${joint}`;
}
