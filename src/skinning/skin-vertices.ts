import { influenceCountOf, type PrimitiveAsset } from '../asset/model-asset.ts';
import { copyUpper3x4, type SkinningContext } from './skinning-context.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from './skinning-method.ts';
import { skinVerticesDqs } from './skin-vertices-dqs.ts';
import { writeTangent } from './write-tangent.ts';

/**
 * The CPU reference path: skins one primitive's positions and normals as `shaders/skinned.vert` does, by
 * `method` (default linear blend skinning with normalised weights). With `method.skinning === 'dqs'` it is
 * {@link skinVerticesDqs}; otherwise linear blend skinning (LBS) exactly as docs/explanation/skinning-formulas.md S0
 * states it — the weighted skinning matrices are summed into one accumulator A, applied once to the rest
 * position, and (weight policy `normalize`) divided by the weight sum:
 *
 *   `p = (Σᵢ wᵢ·K_{jᵢ}) · p₀ / Σᵢ wᵢ`, and `p = p₀` when `Σᵢ wᵢ = 0` (no influences).
 *
 * The sums run over all c = `primitive.influenceCount` slots of a vertex (4, 8, 12, …; none is dropped).
 * The other weight policies (`WeightPolicy`, S2): `as-stored` skips the division; `rest-remainder` adds
 * `(1 − Σ wᵢ)·I` to A; `implicit-last` replaces the last slot's weight by `1 − (w₀ + … + w_{c−2})` (the 4th
 * weight for c = 4) and skips the division.
 * Normals use the inverse-transpose of A's 3×3 part, computed as `sign(det A)·cof(A)` (the cofactor matrix
 * is `det A · A⁻ᵀ`, so no division), then normalised; a vertex left at rest keeps n₀.
 * With weights that sum to 1 every policy gives the same vertices.
 * `shaders/skinned.vert` computes the same, and the transform-feedback parity test holds the two together.
 * Skinning matrices are assumed affine (bottom row 0 0 0 1).
 *
 * Skinning matrices relative to a model origin O (`context.origin`, `AnimatedModel.origin`: `K = T(−O)·M·B⁻¹`): the
 * output is then relative to O too (model space − O, float32), and what stays at rest is moved by T(−O) — a
 * vertex without weights is written at `p₀ − O`, and under the undivided policies the share `1 − Σ wᵢ`
 * contributes `−(1 − Σ wᵢ)·O` — so every policy gives the file's vertex minus O. Add O back in f64 for the
 * file's space (`sinew eval`). With O = (0, 0, 0) (the default) nothing changes.
 *
 * Speed (same arithmetic in the same order as the plain loop over k < c; bench: `skin.ratio_to_flat_loop`):
 * the skinning matrices' 3×4 rows are copied to the context's doubles once per call, the first four influences are unrolled
 * (zero weights skipped, as the sum skips them), and index arithmetic is int32 without overflow checks
 * (`(i + k) | 0`). Allocates nothing. For skinning a whole primitive every frame, `SkinningKernel`
 * (skinning-kernel.ts) computes the same LBS in WebAssembly SIMD; this function is its fallback and reference.
 *
 * @param outPositions `Float32Array(3·vertexCount)`: skinned positions, in the skinning matrices' space: model space
 *   (docs/explanation/skinning-formulas.md "Spaces and poses") for skinning matrices from `computeSkinMatrices`, relative to
 *   `context.origin`
 * @param outNormals `Float32Array(3·vertexCount)` for unit skinned normals, or null to skip them
 * @param primitive a skinned primitive (`joints` and `weights` present, `influenceCount·vertexCount` each,
 *   vertex-major)
 * @param skinMatrices `Float32Array(16·m)`, column-major skinning matrices from `computeSkinMatrices`
 * @param context a `SkinningContext` of at least m joints (the skin's, or `new SkinningContext(m)`)
 * @param method skinning mode and weight policy (default {@link DEFAULT_SKINNING_METHOD})
 * @param outTangents `Float32Array(4·vertexCount)` for the skinned tangents, or null (default) to skip them:
 *   `A·t` (the blended matrix itself, tangents being directions in the surface; divided by the weight sum
 *   under `normalize`), normalised, w copied (glTF 2.0 §3.7.2.1); a vertex left at rest keeps t normalised
 * @param vertices the vertices to skin, or null (default) for all of them: indices into the primitive's vertices
 *   (each < `vertexCount`), read up to `vertexListLength`; each is written at its own place in the outputs (3v,
 *   4v) with the same arithmetic as a whole-mesh call, and the other places are left as they were — so picking
 *   (`pickModel`) and hotspots skin a few triangles exactly as the whole mesh would be
 * @param vertexListLength how many of `vertices` to skin (default its length)
 * @throws Error when the primitive has no joints/weights, or `outTangents` is given for a primitive without
 *   tangents
 * @throws RangeError when `skinMatrices` has more joints than `context`, `influenceCount` is not a positive
 *   multiple of 4, `joints`/`weights` are shorter than `influenceCount·vertexCount`, or `vertexListLength`
 *   exceeds `vertices.length`
 */
export function skinVertices(
  outPositions: Float32Array,
  outNormals: Float32Array | null,
  primitive: PrimitiveAsset,
  skinMatrices: Float32Array,
  context: SkinningContext,
  method: SkinningMethod = DEFAULT_SKINNING_METHOD,
  outTangents: Float32Array | null = null,
  vertices: Uint32Array | null = null,
  vertexListLength: number = vertices ? vertices.length : 0,
): void {
  const { joints, weights, positions, normals, vertexCount } = primitive;
  if (vertices && !(vertexListLength >= 0 && vertexListLength <= vertices.length)) {
    throw new RangeError(`skinVertices: ${vertexListLength} listed vertices asked of a list of ${vertices.length}`);
  }
  const count = vertices ? vertexListLength : vertexCount;
  if (!joints || !weights) throw new Error('skinVertices: primitive has no joints/weights (it is rigid)');
  const tangents = primitive.tangents ?? null;
  if (outTangents && !tangents) throw new Error('skinVertices: outTangents given for a primitive without tangents');
  const jointCount = skinMatrices.length >> 4;
  if (jointCount > context.jointCount) {
    throw new RangeError(`skinVertices: the skinning matrices have ${jointCount} joints, the skinning context ${context.jointCount}`);
  }
  const slots = influenceCountOf(primitive);
  if (joints.length < slots * vertexCount || weights.length < slots * vertexCount) {
    throw new RangeError(`skinVertices: ${vertexCount} vertices of ${slots} influences need ${slots * vertexCount} joints and weights, got ${joints.length} and ${weights.length}`);
  }
  if (method.skinning === 'dqs') {
    skinVerticesDqs(outPositions, outNormals, primitive, skinMatrices, context, method.weights, outTangents, vertices, count);
    return;
  }
  const policy = method.weights;
  const divide = policy === 'normalize', restRemainder = policy === 'rest-remainder', implicitLast = policy === 'implicit-last';
  const keepUnweighted = policy === 'normalize' || policy === 'as-stored';
  // The skinning matrices' upper 3×4 rows as doubles: the inner loop then reads no float32, and no bottom row.
  const K = context.skinMatrices;
  copyUpper3x4(K, skinMatrices, jointCount);
  // Skinning matrices relative to the model origin O: the rest transform is T(−O), not I (skinning-context.ts).
  const ox = context.origin[0], oy = context.origin[1], oz = context.origin[2];
  const c = influenceCountOf(primitive);
  for (let n = 0; n < count; n++) {
    const v = vertices === null ? n : vertices[n] | 0; // int32: a Uint32Array element kept as a double was boxed (bench: `pick.bytes_allocated_per_pick`)
    const i4 = (c * v) | 0, i3 = (3 * v) | 0;
    // Accumulator A = Σ wᵢ·K_{jᵢ}, the 3×4 affine part, column-major.
    let m0 = 0, m1 = 0, m2 = 0, m4 = 0, m5 = 0, m6 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0;
    let sum = 0;
    const w0 = weights[i4];
    if (w0 !== 0) {
      const o = (12 * joints[i4]) | 0;
      sum += w0;
      m0 += w0 * K[o]; m1 += w0 * K[(o + 1) | 0]; m2 += w0 * K[(o + 2) | 0];
      m4 += w0 * K[(o + 3) | 0]; m5 += w0 * K[(o + 4) | 0]; m6 += w0 * K[(o + 5) | 0];
      m8 += w0 * K[(o + 6) | 0]; m9 += w0 * K[(o + 7) | 0]; m10 += w0 * K[(o + 8) | 0];
      m12 += w0 * K[(o + 9) | 0]; m13 += w0 * K[(o + 10) | 0]; m14 += w0 * K[(o + 11) | 0];
    }
    const w1 = weights[(i4 + 1) | 0];
    if (w1 !== 0) {
      const o = (12 * joints[(i4 + 1) | 0]) | 0;
      sum += w1;
      m0 += w1 * K[o]; m1 += w1 * K[(o + 1) | 0]; m2 += w1 * K[(o + 2) | 0];
      m4 += w1 * K[(o + 3) | 0]; m5 += w1 * K[(o + 4) | 0]; m6 += w1 * K[(o + 5) | 0];
      m8 += w1 * K[(o + 6) | 0]; m9 += w1 * K[(o + 7) | 0]; m10 += w1 * K[(o + 8) | 0];
      m12 += w1 * K[(o + 9) | 0]; m13 += w1 * K[(o + 10) | 0]; m14 += w1 * K[(o + 11) | 0];
    }
    const w2 = weights[(i4 + 2) | 0];
    if (w2 !== 0) {
      const o = (12 * joints[(i4 + 2) | 0]) | 0;
      sum += w2;
      m0 += w2 * K[o]; m1 += w2 * K[(o + 1) | 0]; m2 += w2 * K[(o + 2) | 0];
      m4 += w2 * K[(o + 3) | 0]; m5 += w2 * K[(o + 4) | 0]; m6 += w2 * K[(o + 5) | 0];
      m8 += w2 * K[(o + 6) | 0]; m9 += w2 * K[(o + 7) | 0]; m10 += w2 * K[(o + 8) | 0];
      m12 += w2 * K[(o + 9) | 0]; m13 += w2 * K[(o + 10) | 0]; m14 += w2 * K[(o + 11) | 0];
    }
    const w3 = implicitLast && c === 4 ? 1 - (w0 + w1 + w2) : weights[(i4 + 3) | 0];
    if (w3 !== 0) {
      const o = (12 * joints[(i4 + 3) | 0]) | 0;
      sum += w3;
      m0 += w3 * K[o]; m1 += w3 * K[(o + 1) | 0]; m2 += w3 * K[(o + 2) | 0];
      m4 += w3 * K[(o + 3) | 0]; m5 += w3 * K[(o + 4) | 0]; m6 += w3 * K[(o + 5) | 0];
      m8 += w3 * K[(o + 6) | 0]; m9 += w3 * K[(o + 7) | 0]; m10 += w3 * K[(o + 8) | 0];
      m12 += w3 * K[(o + 9) | 0]; m13 += w3 * K[(o + 10) | 0]; m14 += w3 * K[(o + 11) | 0];
    }
    // Slots 4…c−1 (8 or more influences), in slot order; implicit-last replaces slot c−1's weight.
    for (let k = 4; k < c; k++) {
      const w = implicitLast && k === c - 1 ? 1 - sum : weights[(i4 + k) | 0];
      if (w === 0) continue;
      const o = (12 * joints[(i4 + k) | 0]) | 0;
      sum += w;
      m0 += w * K[o]; m1 += w * K[(o + 1) | 0]; m2 += w * K[(o + 2) | 0];
      m4 += w * K[(o + 3) | 0]; m5 += w * K[(o + 4) | 0]; m6 += w * K[(o + 5) | 0];
      m8 += w * K[(o + 6) | 0]; m9 += w * K[(o + 7) | 0]; m10 += w * K[(o + 8) | 0];
      m12 += w * K[(o + 9) | 0]; m13 += w * K[(o + 10) | 0]; m14 += w * K[(o + 11) | 0];
    }
    const x = positions[i3], y = positions[(i3 + 1) | 0], z = positions[(i3 + 2) | 0];
    if (sum === 0 && keepUnweighted) {
      outPositions[i3] = x - ox; outPositions[(i3 + 1) | 0] = y - oy; outPositions[(i3 + 2) | 0] = z - oz;
      if (outNormals) {
        outNormals[i3] = normals[i3]; outNormals[(i3 + 1) | 0] = normals[(i3 + 1) | 0]; outNormals[(i3 + 2) | 0] = normals[(i3 + 2) | 0];
      }
      if (outTangents) writeTangent(outTangents, v, tangents![4 * v], tangents![4 * v + 1], tangents![4 * v + 2], tangents![4 * v + 3]);
      continue;
    }
    if (restRemainder) {
      const rest = 1 - sum;
      m0 += rest; m5 += rest; m10 += rest;
    }
    if (!divide) {
      // Undivided weights: the share 1 − Σ wᵢ missing from the skinning matrices' T(−O) (rest-remainder: at rest,
      // T(−O) not I; as-stored: pulled toward the file's origin, −O here). Zero when O is.
      const rest = 1 - sum;
      m12 -= rest * ox; m13 -= rest * oy; m14 -= rest * oz;
    }
    const inv = divide ? 1 / sum : 1;
    outPositions[i3] = (m0 * x + m4 * y + m8 * z + m12) * inv;
    outPositions[(i3 + 1) | 0] = (m1 * x + m5 * y + m9 * z + m13) * inv;
    outPositions[(i3 + 2) | 0] = (m2 * x + m6 * y + m10 * z + m14) * inv;
    if (outTangents) {
      const tx = tangents![4 * v], ty = tangents![4 * v + 1], tz = tangents![4 * v + 2];
      writeTangent(outTangents, v, (m0 * tx + m4 * ty + m8 * tz) * inv, (m1 * tx + m5 * ty + m9 * tz) * inv, (m2 * tx + m6 * ty + m10 * tz) * inv, tangents![4 * v + 3]);
    }
    if (outNormals) {
      // cof(A) columns; A = [c0 c1 c2] with c0 = (m0,m1,m2) etc. cof(A)·n = n.x·(c1×c2) + n.y·(c2×c0) + n.z·(c0×c1).
      const ax = m5 * m10 - m6 * m9, ay = m6 * m8 - m4 * m10, az = m4 * m9 - m5 * m8; // c1 × c2
      const bx = m9 * m2 - m10 * m1, by = m10 * m0 - m8 * m2, bz = m8 * m1 - m9 * m0; // c2 × c0
      const cx = m1 * m6 - m2 * m5, cy = m2 * m4 - m0 * m6, cz = m0 * m5 - m1 * m4; // c0 × c1
      const det = m0 * ax + m1 * ay + m2 * az;
      const nx0 = normals[i3], ny0 = normals[(i3 + 1) | 0], nz0 = normals[(i3 + 2) | 0];
      let nx = nx0 * ax + ny0 * bx + nz0 * cx;
      let ny = nx0 * ay + ny0 * by + nz0 * cy;
      let nz = nx0 * az + ny0 * bz + nz0 * cz;
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz); // not Math.hypot, much slower in V8 (bench: `skin.ratio_to_flat_loop`)
      const scale = len > 0 ? (det < 0 ? -1 : 1) / len : 0;
      nx *= scale; ny *= scale; nz *= scale;
      outNormals[i3] = nx; outNormals[(i3 + 1) | 0] = ny; outNormals[(i3 + 2) | 0] = nz;
    }
  }
}
