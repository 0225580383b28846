import type { Skeleton } from './skeleton.ts';
import type { LocalPose } from './local-pose.ts';
import { quatMultiplyAt, quatNormalizeAt, quatRotateAt } from '../math/quaternion.ts';

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
      quatMultiplyAt(q, j4, root, 0, r, j4);
      quatRotateAt(p, j3, root, 0, t, j3);
      s[j3] = sc[j3]; s[j3 + 1] = sc[j3 + 1]; s[j3 + 2] = sc[j3 + 2];
    } else {
      const p3 = 3 * parent, p4 = 4 * parent;
      quatMultiplyAt(q, j4, q, p4, r, j4);
      // The parent's scale applied to t, then rotated in place.
      p[j3] = s[p3] * t[j3]; p[j3 + 1] = s[p3 + 1] * t[j3 + 1]; p[j3 + 2] = s[p3 + 2] * t[j3 + 2];
      quatRotateAt(p, j3, q, p4, p, j3);
      p[j3] += p[p3]; p[j3 + 1] += p[p3 + 1]; p[j3 + 2] += p[p3 + 2];
      s[j3] = s[p3] * sc[j3]; s[j3 + 1] = s[p3 + 1] * sc[j3 + 1]; s[j3 + 2] = s[p3 + 2] * sc[j3 + 2];
    }
    quatNormalizeAt(q, j4);
  }
  return out;
}
