import type { SkinAsset } from '../asset/model-asset.ts';
import { multiplyAffineStrided } from '../math/strided-mat4.ts';

/**
 * The skinning palette of one skin: `K_i = M_{joints[i]} · B_i⁻¹`, the joint's current world matrix times
 * its inverse bind matrix (SEEDS S0; glTF 2.0 §3.7.3). Shared by the GPU upload and the CPU reference.
 *
 * Both factors are taken as affine (bottom row 0 0 0 1): world matrices from `localToModel` are by
 * construction, and inverse bind matrices are inverses of such (glTF: inverses of joints' global TRS
 * transforms at bind time; MD5: built from the bind pose). The product is then `multiplyAffineStrided`'s
 * 3×4 one (36 multiplications, bottom row written 0 0 0 1), equal to the full 4×4 product for such inputs.
 * A file whose inverse bind matrices have another bottom row is not skinned correctly by this (nor by
 * linear blend skinning, which assumes affine palettes): reject or warn about it at load. Allocates nothing.
 *
 * @param out `Float32Array(16·m)` for a skin of m joints, column-major, skin joint i at `16i`
 * @param modelMatrices `Float32Array(16·jointCount)` from `localToModel`
 * @returns `out`
 */
export function computeSkinMatrices(out: Float32Array, modelMatrices: Float32Array, skin: SkinAsset): Float32Array {
  const joints = skin.joints, inverseBindMatrices = skin.inverseBindMatrices;
  for (let i = 0; i < joints.length; i++) {
    multiplyAffineStrided(out, 16 * i, modelMatrices, 16 * joints[i], inverseBindMatrices, 16 * i);
  }
  return out;
}
