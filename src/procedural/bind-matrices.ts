import { mat4 } from 'gl-matrix';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { localToModel } from '../skeleton/local-to-model.ts';

/**
 * Inverse bind matrices of a skin over every joint of `skeleton` (skin joint i = skeleton joint i), binding
 * the mesh in the rest pose (so here the bind pose is the rest pose): the inverse of each joint's model-space
 * matrix in `restPose` (docs/explanation/skinning-formulas.md S0). The matrices are the float32 ones every frame composes
 * (`localToModel`), so the rest-pose palette M·B⁻¹ is the identity up to the f64 inversion's rounding and
 * the final float32 store.
 * @returns `Float32Array(16n)`, column-major, joint i at `16i`
 * @throws Error if a rest-pose model-space matrix is singular (a zero scale)
 */
export function computeInverseBindMatrices(skeleton: Skeleton, restPose: LocalPose): Float32Array {
  const bind = localToModel(new Float32Array(16 * skeleton.jointCount), skeleton, restPose);
  const inverse = new Float64Array(16); // gl-matrix reads the float32 matrix into f64 numbers
  const out = new Float32Array(bind.length);
  for (let i = 0; i < skeleton.jointCount; i++) {
    if (!mat4.invert(inverse, bind.subarray(16 * i, 16 * i + 16))) {
      throw new Error(`computeInverseBindMatrices: rest-pose model-space matrix of joint ${i} (${skeleton.names[i]}) is singular`);
    }
    out.set(inverse, 16 * i);
  }
  return out;
}
