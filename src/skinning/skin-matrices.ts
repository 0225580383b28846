import type { SkinAsset } from '../asset/model-asset.ts';
import { multiplyStrided } from '../math/strided-mat4.ts';

/**
 * The skinning palette of one skin: `K_i = M_{joints[i]} · B_i⁻¹`, the joint's current world matrix times
 * its inverse bind matrix (SEEDS S0; glTF 2.0 §3.7.3). Shared by the GPU upload and the CPU reference.
 * Allocates nothing.
 *
 * @param out `Float32Array(16·m)` for a skin of m joints, column-major, skin joint i at `16i`
 * @param modelMatrices `Float32Array(16·jointCount)` from `localToModel`
 * @returns `out`
 */
export function computeSkinMatrices(out: Float32Array, modelMatrices: Float32Array, skin: SkinAsset): Float32Array {
  const { joints, inverseBindMatrices } = skin;
  for (let i = 0; i < joints.length; i++) {
    multiplyStrided(out, 16 * i, modelMatrices, 16 * joints[i], inverseBindMatrices, 16 * i);
  }
  return out;
}
