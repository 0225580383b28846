import { mat4 } from 'gl-matrix';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * World (model-space) matrices of a pose, in double precision: `world_i = world_parent(i) · T_i · R_i · S_i`
 * (docs/skinning-formulas.md S4), one forward pass since parents come before children.
 * @returns `Float64Array(16n)`, column-major, joint i at `16i`
 */
export function computeWorldMatrices64(skeleton: Skeleton, pose: LocalPose): Float64Array {
  const n = skeleton.jointCount;
  const world = new Float64Array(16 * n);
  const local = new Float64Array(16);
  const t = new Float64Array(3), r = new Float64Array(4), s = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      t[c] = pose.translations[3 * i + c];
      s[c] = pose.scales[3 * i + c];
    }
    for (let c = 0; c < 4; c++) r[c] = pose.rotations[4 * i + c];
    mat4.fromRotationTranslationScale(local, r, t, s);
    const out = world.subarray(16 * i, 16 * i + 16);
    const parent = skeleton.parents[i];
    if (parent < 0) out.set(local);
    else mat4.multiply(out, world.subarray(16 * parent, 16 * parent + 16), local);
  }
  return world;
}

/**
 * Inverse bind matrices of a skin over every joint of `skeleton` (skin joint i = skeleton joint i): the
 * inverse of each joint's world matrix in the rest pose (docs/skinning-formulas.md S0: the inverse bind matrix), inverted in double
 * precision and stored as float.
 * @returns `Float32Array(16n)`, column-major, joint i at `16i`
 * @throws Error if a rest world matrix is singular (a zero scale)
 */
export function computeInverseBindMatrices(skeleton: Skeleton, restPose: LocalPose): Float32Array {
  const world = computeWorldMatrices64(skeleton, restPose);
  const inverse = new Float64Array(16);
  const out = new Float32Array(world.length);
  for (let i = 0; i < skeleton.jointCount; i++) {
    if (!mat4.invert(inverse, world.subarray(16 * i, 16 * i + 16))) {
      throw new Error(`computeInverseBindMatrices: rest world matrix of joint ${i} (${skeleton.names[i]}) is singular`);
    }
    out.set(inverse, 16 * i);
  }
  return out;
}
