import { polarRotation } from '../math/polar-rotation.ts';

/** Numbers per joint in a dual quaternion palette: 3 rows of (S row, t component), then the rotation quaternion. */
export const DUAL_PALETTE_STRIDE = 16;

/**
 * The DQS palette: the per-joint form dual quaternion skinning blends (Kavan, Collins, Žára, O'Sullivan 2008, "Geometric
 * Skinning with Approximate Dual Quaternion Blending", with its two-phase extension for scale and shear):
 * each skinning matrix `K = [A | t]` (affine, docs/explanation/skinning-formulas.md S0) is split as `K·p = R·(S·p) + t`,
 * where `A = R·S` is the polar decomposition (`polarRotation`: R a rotation, S symmetric scale/shear; a
 * mirror goes into S). S is blended linearly (phase 1), the rigid part `(R, t)` as a unit dual quaternion
 * (phase 2), whose real part is R's quaternion `q` and whose dual part `½·(t, 0)⊗q` is rebuilt by the
 * blending code from `t` and the sign-aligned `q`, so it is not stored.
 *
 * Layout, joint i at `16i`, the same for the CPU reference (`Float64Array`, `skinVerticesDqs`) and the GPU
 * (`Float32Array`, uploaded as 4 `vec4` per joint): `S00 S01 S02 tx | S10 S11 S12 ty | S20 S21 S22 tz |
 * qx qy qz qw` (row-major S, `qw ≥ 0`). As a `mat3x4` J of the first three `vec4`s, `vec4(p, 0) * J` is
 * `S·p`, and the LBS blending code blends S unchanged. Allocates nothing.
 *
 * @param out `Float32Array` or `Float64Array` of `≥ 16·jointCount`
 * @param skinMatrices `Float32Array(≥ 16·jointCount)`, column-major 4×4 skinning matrices (`computeSkinMatrices`)
 * @param offset first number of `out` written (default 0): crowd instance blocks hold several palettes
 * @returns `out`
 */
export function computeDualQuaternionPalette<T extends Float32Array | Float64Array>(out: T, skinMatrices: Float32Array, jointCount: number, offset = 0): T {
  for (let j = 0; j < jointCount; j++) {
    const s = j << 4, d = (j << 4) + offset;
    polarRotation(skinMatrices, s, out, d + 12);
    const x = out[d + 12], y = out[d + 13], z = out[d + 14], w = out[d + 15];
    // R from q (row r, column c).
    const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
    const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
    const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
    // S = Rᵀ·A, A[k][c] = skinMatrices[s + 4c + k]; S[r][c] = Σ_k R[k][r]·A[k][c].
    for (let c = 0; c < 3; c++) {
      const a0 = skinMatrices[s + 4 * c], a1 = skinMatrices[s + 4 * c + 1], a2 = skinMatrices[s + 4 * c + 2];
      out[d + c] = r00 * a0 + r10 * a1 + r20 * a2;
      out[d + 4 + c] = r01 * a0 + r11 * a1 + r21 * a2;
      out[d + 8 + c] = r02 * a0 + r12 * a1 + r22 * a2;
    }
    out[d + 3] = skinMatrices[s + 12]; out[d + 7] = skinMatrices[s + 13]; out[d + 11] = skinMatrices[s + 14];
  }
  return out;
}
