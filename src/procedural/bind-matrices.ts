import { mat4 } from 'gl-matrix';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Model-space matrices of a pose, in double precision: `M_i = M_parent(i) · T_i · R_i · S_i`
 * (docs/skinning-formulas.md S4), one forward pass since parents come before children.
 * @returns `Float64Array(16n)`, column-major, joint i at `16i`
 */
export function computeModelMatrices64(skeleton: Skeleton, pose: LocalPose): Float64Array {
  const n = skeleton.jointCount;
  const matrices = new Float64Array(16 * n);
  const local = new Float64Array(16);
  const t = new Float64Array(3), r = new Float64Array(4), s = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      t[c] = pose.translations[3 * i + c];
      s[c] = pose.scales[3 * i + c];
    }
    for (let c = 0; c < 4; c++) r[c] = pose.rotations[4 * i + c];
    mat4.fromRotationTranslationScale(local, r, t, s);
    const out = matrices.subarray(16 * i, 16 * i + 16);
    const parent = skeleton.parents[i];
    if (parent < 0) out.set(local);
    else mat4.multiply(out, matrices.subarray(16 * parent, 16 * parent + 16), local);
  }
  return matrices;
}

/**
 * Inverse bind matrices of a skin over every joint of `skeleton` (skin joint i = skeleton joint i), binding
 * the mesh in the rest pose (so here the bind pose is the rest pose): the inverse of each joint's model-space
 * matrix in `restPose` (docs/skinning-formulas.md S0), inverted in double precision and stored as float.
 * @returns `Float32Array(16n)`, column-major, joint i at `16i`
 * @throws Error if a rest-pose model-space matrix is singular (a zero scale)
 */
export function computeInverseBindMatrices(skeleton: Skeleton, restPose: LocalPose): Float32Array {
  const bind = computeModelMatrices64(skeleton, restPose);
  const inverse = new Float64Array(16);
  const out = new Float32Array(bind.length);
  for (let i = 0; i < skeleton.jointCount; i++) {
    if (!mat4.invert(inverse, bind.subarray(16 * i, 16 * i + 16))) {
      throw new Error(`computeInverseBindMatrices: rest-pose model-space matrix of joint ${i} (${skeleton.names[i]}) is singular`);
    }
    out.set(inverse, 16 * i);
  }
  return out;
}
