import { influenceCountOf, type PrimitiveAsset } from '../asset/model-asset.ts';
import { computeDualQuaternionPalette } from './dual-quaternion-palette.ts';
import type { SkinningContext } from './skinning-context.ts';
import type { WeightPolicy } from './skinning-method.ts';
import { writeTangent } from './write-tangent.ts';

/**
 * The CPU reference of dual quaternion skinning (Kavan, Collins, Žára, O'Sullivan 2008, "Geometric Skinning
 * with Approximate Dual Quaternion Blending", §4 dual quaternion linear blending, with the two-phase
 * extension for scale and shear), as `shaders/skinned.vert` (`SKINNING_DQS`) computes it. Call it through
 * `skinVertices(…, { skinning: 'dqs', weights })`, which checks the arguments.
 *
 * Per joint (`computeDualQuaternionPalette`, into `context.dualPalette`): `K = [R·S | t]`, R's unit
 * quaternion `q`, the dual part `½·(t, 0)⊗q`. Per vertex, with weights `wᵢ` read by `policy`:
 *
 * The sums run over all c = `primitive.influenceCount` slots of a vertex (4, 8, 12, …; none is dropped);
 * `implicit-last` replaces the last slot's weight by `1 − Σ` of the others (docs/explanation/skinning-formulas.md S2).
 *
 * 1. scale/shear by LBS: `S_b = Σ wᵢ·Sᵢ` (`normalize`: divided by `Σ wᵢ`; `rest-remainder`: plus `(1 − Σ wᵢ)·I`);
 * 2. sign alignment: `σᵢ = sign(qᵢ · q₀)` against influence slot 0 (so every quaternion lies in q₀'s
 *    hemisphere, the paper's shortest-path rule);
 * 3. blend `b = Σ σᵢwᵢ·(qᵢ, ½(tᵢ,0)⊗qᵢ)` (`rest-remainder`: plus `(1 − Σ wᵢ)` times the identity);
 * 4. normalise: `b / ‖b_real‖`;
 * 5. `p = R_b·(S_b·p₀) + t_b` with `t_b = 2·(w_r v_d − w_d v_r + v_r × v_d)` (real part `(v_r, w_r)`, dual
 *    part `(v_d, w_d)`); normals `R_b·(sign(det S_b)·cof(S_b)·n₀)`, normalised; tangents `R_b·S_b·t`,
 *    normalised, w kept.
 *
 * A vertex whose weights are all 0 keeps p₀ and n₀ under `normalize` and `as-stored`; one whose blended real
 * part vanishes (opposing negative weights) keeps them too. With skinning matrices relative to a model origin O
 * (`context.origin`), "at rest" is `T(−O)`: such a vertex is written at `p₀ − O`, and `rest-remainder`'s
 * identity is T(−O)'s dual quaternion (1, ½(−O, 0)). On a vertex with one influence this is that
 * joint's `K·p₀`, the same as LBS. Allocates nothing.
 *
 * @param outPositions `Float32Array(3·vertexCount)`, model space for skinning matrices from `computeSkinMatrices`
 * @param outNormals `Float32Array(3·vertexCount)` for unit normals, or null
 * @param outTangents `Float32Array(4·vertexCount)` for unit tangents (w kept), or null; the primitive then has tangents
 * @param skinMatrices `Float32Array(16·m)`, column-major skinning matrices, m ≤ `context.jointCount`
 * @param vertices the vertices to skin (indices, written at their own places), or null for all
 * @param count how many vertices: of `vertices`, or from 0 when it is null
 */
export function skinVerticesDqs(
  outPositions: Float32Array,
  outNormals: Float32Array | null,
  primitive: PrimitiveAsset,
  skinMatrices: Float32Array,
  context: SkinningContext,
  policy: WeightPolicy,
  outTangents: Float32Array | null = null,
  vertices: Uint32Array | null = null,
  count: number = primitive.vertexCount,
): void {
  const { positions, normals } = primitive;
  const tangents = primitive.tangents ?? null;
  const joints = primitive.joints!, weights = primitive.weights!;
  const D = computeDualQuaternionPalette(context.dualPalette, skinMatrices, skinMatrices.length >> 4);
  const divide = policy === 'normalize', restRemainder = policy === 'rest-remainder', implicitLast = policy === 'implicit-last';
  const keepUnweighted = policy === 'normalize' || policy === 'as-stored';
  const c = influenceCountOf(primitive), last = c - 1;
  // Skinning matrices relative to the model origin O: the rest transform is T(−O), not I (skinning-context.ts).
  const ox = context.origin[0], oy = context.origin[1], oz = context.origin[2];
  for (let n = 0; n < count; n++) {
    const v = vertices === null ? n : vertices[n] | 0; // int32: a Uint32Array element kept as a double was boxed (bench: `pick.bytes_allocated_per_pick`)
    const i4 = c * v, i3 = (3 * v) | 0;
    // Σ wᵢ over the c slots in slot order; implicit-last: the last slot's weight is 1 − the others' sum.
    let stored = 0;
    for (let k = 0; k < last; k++) stored += weights[i4 + k];
    const wLast = implicitLast ? 1 - stored : weights[i4 + last];
    const sum = stored + wLast;
    const x = positions[i3], y = positions[i3 + 1], z = positions[i3 + 2];
    const nx0 = normals[i3], ny0 = normals[i3 + 1], nz0 = normals[i3 + 2];
    let s00 = 0, s01 = 0, s02 = 0, s10 = 0, s11 = 0, s12 = 0, s20 = 0, s21 = 0, s22 = 0;
    let rx = 0, ry = 0, rz = 0, rw = 0, dx = 0, dy = 0, dz = 0, dw = 0;
    let keep = sum === 0 && keepUnweighted;
    if (!keep) {
      const f = joints[i4] << 4;
      const fx = D[f + 12], fy = D[f + 13], fz = D[f + 14], fw = D[f + 15];
      for (let k = 0; k < c; k++) {
        const w = k === last ? wLast : weights[i4 + k];
        if (w === 0) continue;
        const o = joints[i4 + k] << 4;
        s00 += w * D[o]; s01 += w * D[o + 1]; s02 += w * D[o + 2];
        s10 += w * D[o + 4]; s11 += w * D[o + 5]; s12 += w * D[o + 6];
        s20 += w * D[o + 8]; s21 += w * D[o + 9]; s22 += w * D[o + 10];
        const tx = D[o + 3], ty = D[o + 7], tz = D[o + 11];
        const qx = D[o + 12], qy = D[o + 13], qz = D[o + 14], qw = D[o + 15];
        const ws = qx * fx + qy * fy + qz * fz + qw * fw < 0 ? -w : w;
        rx += ws * qx; ry += ws * qy; rz += ws * qz; rw += ws * qw;
        // ½·(t, 0)⊗q: vector ½(qw·t + t × q_v), scalar −½ t·q_v.
        dx += ws * 0.5 * (qw * tx + ty * qz - tz * qy);
        dy += ws * 0.5 * (qw * ty + tz * qx - tx * qz);
        dz += ws * 0.5 * (qw * tz + tx * qy - ty * qx);
        dw += ws * -0.5 * (tx * qx + ty * qy + tz * qz);
      }
      if (restRemainder) {
        const rest = 1 - sum;
        s00 += rest; s11 += rest; s22 += rest;
        // T(−O) = (1, ½(−O, 0)): the identity (0, 0, 0, 1) when O = 0, aligned with q₀.
        const ws = fw < 0 ? -rest : rest;
        rw += ws;
        dx -= ws * 0.5 * ox; dy -= ws * 0.5 * oy; dz -= ws * 0.5 * oz;
      }
      if (divide) {
        const inv = 1 / sum;
        s00 *= inv; s01 *= inv; s02 *= inv; s10 *= inv; s11 *= inv; s12 *= inv; s20 *= inv; s21 *= inv; s22 *= inv;
      }
      const len = Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
      keep = !(len > 0);
      if (!keep) {
        const inv = 1 / len;
        rx *= inv; ry *= inv; rz *= inv; rw *= inv; dx *= inv; dy *= inv; dz *= inv; dw *= inv;
      }
    }
    if (keep) {
      outPositions[i3] = x - ox; outPositions[i3 + 1] = y - oy; outPositions[i3 + 2] = z - oz;
      if (outNormals) { outNormals[i3] = nx0; outNormals[i3 + 1] = ny0; outNormals[i3 + 2] = nz0; }
      if (outTangents) writeTangent(outTangents, v, tangents![4 * v], tangents![4 * v + 1], tangents![4 * v + 2], tangents![4 * v + 3]);
      continue;
    }
    // Phase 1: S_b·p₀.
    const px = s00 * x + s01 * y + s02 * z, py = s10 * x + s11 * y + s12 * z, pz = s20 * x + s21 * y + s22 * z;
    // Phase 2: rotate by the real part (p + 2 v × (v × p + w p)), then translate by t_b.
    const tx = 2 * (rw * dx - dw * rx + ry * dz - rz * dy);
    const ty = 2 * (rw * dy - dw * ry + rz * dx - rx * dz);
    const tz = 2 * (rw * dz - dw * rz + rx * dy - ry * dx);
    let cx = ry * pz - rz * py + rw * px, cy = rz * px - rx * pz + rw * py, cz = rx * py - ry * px + rw * pz;
    outPositions[i3] = px + 2 * (ry * cz - rz * cy) + tx;
    outPositions[i3 + 1] = py + 2 * (rz * cx - rx * cz) + ty;
    outPositions[i3 + 2] = pz + 2 * (rx * cy - ry * cx) + tz;
    if (outTangents) {
      const t0 = tangents![4 * v], t1 = tangents![4 * v + 1], t2 = tangents![4 * v + 2];
      const sx = s00 * t0 + s01 * t1 + s02 * t2, sy = s10 * t0 + s11 * t1 + s12 * t2, sz = s20 * t0 + s21 * t1 + s22 * t2;
      const ux = ry * sz - rz * sy + rw * sx, uy = rz * sx - rx * sz + rw * sy, uz = rx * sy - ry * sx + rw * sz;
      writeTangent(outTangents, v, sx + 2 * (ry * uz - rz * uy), sy + 2 * (rz * ux - rx * uz), sz + 2 * (rx * uy - ry * ux), tangents![4 * v + 3]);
    }
    if (outNormals) {
      // cof(S_b)·n = n.x (c1×c2) + n.y (c2×c0) + n.z (c0×c1), columns c0 = (s00 s10 s20), c1 = (s01 s11 s21), c2 = (s02 s12 s22).
      const ax = s11 * s22 - s21 * s12, ay = s21 * s02 - s01 * s22, az = s01 * s12 - s11 * s02; // c1 × c2
      const bx = s12 * s20 - s22 * s10, by = s22 * s00 - s02 * s20, bz = s02 * s10 - s12 * s00; // c2 × c0
      const ex = s10 * s21 - s20 * s11, ey = s20 * s01 - s00 * s21, ez = s00 * s11 - s10 * s01; // c0 × c1
      const det = s00 * ax + s10 * ay + s20 * az;
      const sign = det < 0 ? -1 : 1;
      const mx = sign * (nx0 * ax + ny0 * bx + nz0 * ex), my = sign * (nx0 * ay + ny0 * by + nz0 * ey), mz = sign * (nx0 * az + ny0 * bz + nz0 * ez);
      cx = ry * mz - rz * my + rw * mx; cy = rz * mx - rx * mz + rw * my; cz = rx * my - ry * mx + rw * mz;
      const nx = mx + 2 * (ry * cz - rz * cy), ny = my + 2 * (rz * cx - rx * cz), nz = mz + 2 * (rx * cy - ry * cx);
      const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
      const ns = nl > 0 ? 1 / nl : 0;
      outNormals[i3] = nx * ns; outNormals[i3 + 1] = ny * ns; outNormals[i3 + 2] = nz * ns;
    }
  }
}
