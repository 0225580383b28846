/**
 * Packs skinning matrices into the LBS palette the GPU reads: the upper 3 rows of each affine matrix, row-major
 * 3×4 — joint i's rows `(m0 m4 m8 m12)`, `(m1 m5 m9 m13)`, `(m2 m6 m10 m14)` of its column-major 4×4 at `out[12i…12i+12)`.
 * That is at once 3 GLSL `vec4`s (the columns of a `mat3x4` J, so `vec4(p, 1) * J` is the transformed point),
 * 3 RGBA32F texels, and 48 std140 bytes. The bottom row (0 0 0 1 for affine skinning matrices,
 * docs/explanation/skinning-formulas.md S0) is dropped. Allocates nothing.
 *
 * @param out `Float32Array(≥ 12·jointCount)`
 * @param skinMatrices `Float32Array(≥ 16·jointCount)`, column-major 4×4 skinning matrices (`computeSkinMatrices`)
 * @param offset first float of `out` written (default 0): instance blocks pack several palettes into one array
 * @param sourceOffset first float of `skinMatrices` read (default 0): a crowd packs single model-space matrices
 * @returns `out`
 */
export function packPaletteRows(out: Float32Array, skinMatrices: Float32Array, jointCount: number, offset = 0, sourceOffset = 0): Float32Array {
  for (let j = 0; j < jointCount; j++) {
    const s = ((j << 4) + sourceOffset) | 0, d = (12 * j + offset) | 0;
    out[d] = skinMatrices[s]; out[d + 1] = skinMatrices[s + 4]; out[d + 2] = skinMatrices[s + 8]; out[d + 3] = skinMatrices[s + 12];
    out[d + 4] = skinMatrices[s + 1]; out[d + 5] = skinMatrices[s + 5]; out[d + 6] = skinMatrices[s + 9]; out[d + 7] = skinMatrices[s + 13];
    out[d + 8] = skinMatrices[s + 2]; out[d + 9] = skinMatrices[s + 6]; out[d + 10] = skinMatrices[s + 10]; out[d + 11] = skinMatrices[s + 14];
  }
  return out;
}
