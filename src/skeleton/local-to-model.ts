import type { Skeleton } from './skeleton.ts';
import type { LocalPose } from './local-pose.ts';

/**
 * Local-to-model: the model-space matrix of every joint, `M[i] = M[parent[i]] · T·R·S(i)`
 * (docs/explanation/skinning-formulas.md S4; glTF 2.0 §3.5.3). One forward pass, relying on parents before children.
 *
 * Affine throughout: a TRS matrix has bottom row 0 0 0 1, and so has a product of such matrices, so
 * each joint is composed straight from its T, R, S into twelve locals (the formula of gl-matrix
 * `mat4.fromRotationTranslationScale`) and multiplied by the parent's upper 3×4 — 36
 * multiplications instead of compose-to-memory plus a 64-multiplication 4×4 product; the bottom row is
 * written as 0 0 0 1. Same products as `multiplyStrided` with that row (the dropped terms are exact zeros),
 * except that the local matrix is not rounded to float32 before the product. The previous joint's model-space
 * matrix stays in locals (rounded with `Math.fround`, exactly as stored), so a joint whose parent is the
 * previous one — most joints of a parent-first chain — reads nothing back from `out` (a skeleton whose
 * parents are rarely the previous joint pays a little for the rounding). Index arithmetic is written
 * `(o + k) | 0` and `i << 4`: int32 adds without overflow checks, fewer instructions per element in V8.
 * Bench: `pose.stage_ns_per_joint.*.localToModel`. Allocates nothing.
 *
 * With `origin` O (the model's origin, `computeModelOrigin`), the matrices are relative to it:
 * `out[i] = T(−O) · M[i]`, O subtracted from each root's translation in f64 before the first rounding to
 * float32, so a model 10 km from model space's origin is composed with numbers of its own size (float32
 * spacing of its joints' translations ≈ 1e-7 m for a 2 m character instead of ≈ 1 mm at 1e4 m).
 *
 * With `joints` (a subset, parents before children) only those joints are computed, each from its parent's
 * matrix as `out` holds it: the other joints' matrices must be up to date already (`PoseKernel`'s moving joints,
 * docs/guide/large-scenes.md).
 *
 * @param out `Float32Array(16·jointCount)`, column-major, joint i at `16i`
 * @param origin `Float64Array(3)` O in model space, in the file's units; default (0, 0, 0)
 * @param joints `Int32Array` of joint indices in increasing order (so parents come first), or all joints when absent
 * @param jointsCount how many entries of `joints` to compute (default its length)
 * @returns `out`
 */
export function localToModel(out: Float32Array, skeleton: Skeleton, pose: LocalPose, origin?: Float64Array, joints?: Int32Array, jointsCount?: number): Float32Array {
  const parents = skeleton.parents, n = joints ? jointsCount ?? joints.length : skeleton.jointCount;
  const T = pose.translations, Q = pose.rotations, S = pose.scales;
  const ox = origin ? origin[0] : 0, oy = origin ? origin[1] : 0, oz = origin ? origin[2] : 0;
  // The previous joint's model-space matrix (upper 3×4) as stored, i.e. rounded to float32: in chains the parent
  // is most often the previous joint, whose matrix then needs no re-reading from `out`.
  let b0 = 0, b1 = 0, b2 = 0, b4 = 0, b5 = 0, b6 = 0, b8 = 0, b9 = 0, b10 = 0, b12 = 0, b13 = 0, b14 = 0;
  let previous = -1;
  for (let k = 0; k < n; k++) {
    const i = joints ? joints[k] : k;
    const q = i << 2, t = (3 * i) | 0, o = i << 4;
    const x = Q[q], y = Q[(q + 1) | 0], z = Q[(q + 2) | 0], w = Q[(q + 3) | 0];
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const sx = S[t], sy = S[(t + 1) | 0], sz = S[(t + 2) | 0];
    // Local T·R·S, column-major: columns (l0 l1 l2), (l4 l5 l6), (l8 l9 l10), translation (l12 l13 l14).
    const l0 = (1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
    const l4 = (xy - wz) * sy, l5 = (1 - (xx + zz)) * sy, l6 = (yz + wx) * sy;
    const l8 = (xz + wy) * sz, l9 = (yz - wx) * sz, l10 = (1 - (xx + yy)) * sz;
    const l12 = T[t], l13 = T[(t + 1) | 0], l14 = T[(t + 2) | 0];
    const p = parents[i];
    if (p < 0) {
      b0 = l0; b1 = l1; b2 = l2; b4 = l4; b5 = l5; b6 = l6; b8 = l8; b9 = l9; b10 = l10;
      b12 = l12 - ox; b13 = l13 - oy; b14 = l14 - oz;
    } else {
      let a0 = b0, a1 = b1, a2 = b2, a4 = b4, a5 = b5, a6 = b6, a8 = b8, a9 = b9, a10 = b10, a12 = b12, a13 = b13, a14 = b14;
      if (p !== previous) {
        const po = p << 4;
        a0 = out[po]; a1 = out[(po + 1) | 0]; a2 = out[(po + 2) | 0];
        a4 = out[(po + 4) | 0]; a5 = out[(po + 5) | 0]; a6 = out[(po + 6) | 0];
        a8 = out[(po + 8) | 0]; a9 = out[(po + 9) | 0]; a10 = out[(po + 10) | 0];
        a12 = out[(po + 12) | 0]; a13 = out[(po + 13) | 0]; a14 = out[(po + 14) | 0];
      }
      b0 = a0 * l0 + a4 * l1 + a8 * l2;
      b1 = a1 * l0 + a5 * l1 + a9 * l2;
      b2 = a2 * l0 + a6 * l1 + a10 * l2;
      b4 = a0 * l4 + a4 * l5 + a8 * l6;
      b5 = a1 * l4 + a5 * l5 + a9 * l6;
      b6 = a2 * l4 + a6 * l5 + a10 * l6;
      b8 = a0 * l8 + a4 * l9 + a8 * l10;
      b9 = a1 * l8 + a5 * l9 + a9 * l10;
      b10 = a2 * l8 + a6 * l9 + a10 * l10;
      b12 = a0 * l12 + a4 * l13 + a8 * l14 + a12;
      b13 = a1 * l12 + a5 * l13 + a9 * l14 + a13;
      b14 = a2 * l12 + a6 * l13 + a10 * l14 + a14;
    }
    b0 = Math.fround(b0); b1 = Math.fround(b1); b2 = Math.fround(b2);
    b4 = Math.fround(b4); b5 = Math.fround(b5); b6 = Math.fround(b6);
    b8 = Math.fround(b8); b9 = Math.fround(b9); b10 = Math.fround(b10);
    b12 = Math.fround(b12); b13 = Math.fround(b13); b14 = Math.fround(b14);
    out[o] = b0; out[(o + 1) | 0] = b1; out[(o + 2) | 0] = b2; out[(o + 3) | 0] = 0;
    out[(o + 4) | 0] = b4; out[(o + 5) | 0] = b5; out[(o + 6) | 0] = b6; out[(o + 7) | 0] = 0;
    out[(o + 8) | 0] = b8; out[(o + 9) | 0] = b9; out[(o + 10) | 0] = b10; out[(o + 11) | 0] = 0;
    out[(o + 12) | 0] = b12; out[(o + 13) | 0] = b13; out[(o + 14) | 0] = b14; out[(o + 15) | 0] = 1;
    previous = i;
  }
  return out;
}
