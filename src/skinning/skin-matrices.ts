import type { SkinAsset } from '../asset/model-asset.ts';
import type { SkinningContext } from './skinning-context.ts';

/**
 * The skinning matrices of one skin: `K_i = M_{joints[i]} · B_i⁻¹`, the joint's current model-space matrix
 * times its inverse bind matrix (docs/explanation/skinning-formulas.md S0; glTF 2.0 §3.7.3). Shared by the GPU upload and the CPU reference.
 *
 * Both factors are taken as affine (bottom row 0 0 0 1): model-space matrices from `localToModel` are by
 * construction, and inverse bind matrices are inverses of such (glTF: inverses of the joints' global
 * transforms at bind time; MD5: built from the bind pose). The product is then the 3×4 affine one
 * (36 multiplications, bottom row written 0 0 0 1), equal to the full 4×4 product for such inputs. An
 * inverse bind matrix with another bottom row would be skinned wrongly (by linear blend skinning too, which
 * assumes affine skinning matrices): the glTF loader rejects one (gltf-skins.ts).
 *
 * The inverse bind matrices come as doubles from `context` (skinning-context.ts), so the frame loop reads
 * float32 only from `modelMatrices`. Index arithmetic is written `(o + k) | 0` and `i << 4`: int32 adds
 * without overflow checks, fewer instructions per element in V8 (bench: `pose.stage_ns_per_joint.*.skinMatrices`).
 * Allocates nothing.
 *
 * @param out `Float32Array(16·m)` for a skin of m joints, column-major, skin joint i at `16i`
 * Given model-space matrices relative to a model origin O (`localToModel`'s `origin`), the skinning matrices are
 * relative to it too: `T(−O)·M·B⁻¹`, carrying a bind-pose vertex to `p − O`.
 *
 * @param modelMatrices `Float32Array(16·jointCount)` from `localToModel`
 * @param context `new SkinningContext(skin)`, made for this very skin
 * @returns `out`
 * @throws RangeError when `context` was made for another skin
 */
export function computeSkinMatrices(out: Float32Array, modelMatrices: Float32Array, skin: SkinAsset, context: SkinningContext): Float32Array {
  if (context.skin !== skin) throw new RangeError('computeSkinMatrices: the skinning context was made for another skin');
  const joints = skin.joints, m = modelMatrices;
  const b = context.inverseBinds;
  for (let i = 0; i < joints.length; i++) {
    const po = joints[i] << 4, bo = (12 * i) | 0, o = i << 4;
    const a0 = m[po], a1 = m[(po + 1) | 0], a2 = m[(po + 2) | 0];
    const a4 = m[(po + 4) | 0], a5 = m[(po + 5) | 0], a6 = m[(po + 6) | 0];
    const a8 = m[(po + 8) | 0], a9 = m[(po + 9) | 0], a10 = m[(po + 10) | 0];
    const a12 = m[(po + 12) | 0], a13 = m[(po + 13) | 0], a14 = m[(po + 14) | 0];
    const b0 = b[bo], b1 = b[(bo + 1) | 0], b2 = b[(bo + 2) | 0];
    const b4 = b[(bo + 3) | 0], b5 = b[(bo + 4) | 0], b6 = b[(bo + 5) | 0];
    const b8 = b[(bo + 6) | 0], b9 = b[(bo + 7) | 0], b10 = b[(bo + 8) | 0];
    const b12 = b[(bo + 9) | 0], b13 = b[(bo + 10) | 0], b14 = b[(bo + 11) | 0];
    out[o] = a0 * b0 + a4 * b1 + a8 * b2;
    out[(o + 1) | 0] = a1 * b0 + a5 * b1 + a9 * b2;
    out[(o + 2) | 0] = a2 * b0 + a6 * b1 + a10 * b2;
    out[(o + 3) | 0] = 0;
    out[(o + 4) | 0] = a0 * b4 + a4 * b5 + a8 * b6;
    out[(o + 5) | 0] = a1 * b4 + a5 * b5 + a9 * b6;
    out[(o + 6) | 0] = a2 * b4 + a6 * b5 + a10 * b6;
    out[(o + 7) | 0] = 0;
    out[(o + 8) | 0] = a0 * b8 + a4 * b9 + a8 * b10;
    out[(o + 9) | 0] = a1 * b8 + a5 * b9 + a9 * b10;
    out[(o + 10) | 0] = a2 * b8 + a6 * b9 + a10 * b10;
    out[(o + 11) | 0] = 0;
    out[(o + 12) | 0] = a0 * b12 + a4 * b13 + a8 * b14 + a12;
    out[(o + 13) | 0] = a1 * b12 + a5 * b13 + a9 * b14 + a13;
    out[(o + 14) | 0] = a2 * b12 + a6 * b13 + a10 * b14 + a14;
    out[(o + 15) | 0] = 1;
  }
  return out;
}
