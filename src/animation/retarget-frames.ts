import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Model-space frames of a skeleton's joints in f64, without shear: rotation `q` (`Float64Array(4n)`, x, y, z,
 * w at `4j`), position `p` (`Float64Array(3n)` at `3j`, the file's units) and accumulated scale `s`
 * (`Float64Array(3n)`, the component-wise product of the scales above and at the joint, exact for uniform
 * scales). Composition (docs/explanation/skinning-formulas.md S4 with TRS): `Q_j = Q_parent·q_j`,
 * `P_j = P_parent + Q_parent·(S_parent ⊙ t_j)`, `S_j = S_parent ⊙ s_j`; roots start from `root` (a rotation
 * applied above every root, e.g. an up-axis change) and the origin.
 */
export interface ModelFrames {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly s: Float64Array;
}

/** Allocates frames for `jointCount` joints. */
export function createModelFrames(jointCount: number): ModelFrames {
  return { q: new Float64Array(4 * jointCount), p: new Float64Array(3 * jointCount), s: new Float64Array(3 * jointCount) };
}

/** Fills `out` with the model-space frames of `pose` ({@link ModelFrames}); `root` (x, y, z, w) goes above every root. */
export function computeModelFrames(out: ModelFrames, skeleton: Skeleton, pose: LocalPose, root: ArrayLike<number>): ModelFrames {
  const { q, p, s } = out;
  const t = pose.translations, r = pose.rotations, sc = pose.scales;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const parent = skeleton.parents[j];
    const j3 = 3 * j, j4 = 4 * j;
    if (parent < 0) {
      quatMultiply(q, j4, root, 0, r, j4);
      quatRotate(p, j3, root, 0, t[j3], t[j3 + 1], t[j3 + 2]);
      s[j3] = sc[j3]; s[j3 + 1] = sc[j3 + 1]; s[j3 + 2] = sc[j3 + 2];
    } else {
      const p3 = 3 * parent, p4 = 4 * parent;
      quatMultiply(q, j4, q, p4, r, j4);
      quatRotate(p, j3, q, p4, s[p3] * t[j3], s[p3 + 1] * t[j3 + 1], s[p3 + 2] * t[j3 + 2]);
      p[j3] += p[p3]; p[j3 + 1] += p[p3 + 1]; p[j3 + 2] += p[p3 + 2];
      s[j3] = s[p3] * sc[j3]; s[j3 + 1] = s[p3 + 1] * sc[j3 + 1]; s[j3 + 2] = s[p3 + 2] * sc[j3 + 2];
    }
    normalizeQuat(q, j4);
  }
  return out;
}

/** `out[o…o+3] = a·b` (Hamilton product, x, y, z, w); `out` may alias `a` or `b`. */
export function quatMultiply(out: Float64Array, o: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** `out[o…o+3] = conj(a)·b` for a unit quaternion `a` (its inverse times b); `out` may alias either. */
export function quatConjugateMultiply(out: Float64Array, o: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): void {
  const ax = -a[ao], ay = -a[ao + 1], az = -a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** `out[o…o+2] = q·v·q⁻¹` for the unit quaternion at `q[qo]` and the vector (x, y, z). */
export function quatRotate(out: Float64Array, o: number, q: ArrayLike<number>, qo: number, x: number, y: number, z: number): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  // v + 2w(u×v) + 2u×(u×v), u = (qx, qy, qz)
  const cx = qy * z - qz * y, cy = qz * x - qx * z, cz = qx * y - qy * x;
  out[o] = x + 2 * (qw * cx + qy * cz - qz * cy);
  out[o + 1] = y + 2 * (qw * cy + qz * cx - qx * cz);
  out[o + 2] = z + 2 * (qw * cz + qx * cy - qy * cx);
}

/** Scales the quaternion at `o` to unit length (left alone when its length is 0). */
export function normalizeQuat(q: Float64Array, o: number): void {
  const l = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
  if (l > 0) { q[o] /= l; q[o + 1] /= l; q[o + 2] /= l; q[o + 3] /= l; }
}
