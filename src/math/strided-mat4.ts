/**
 * mat4 helpers that gl-matrix lacks: they read and write 4×4 column-major matrices at an offset inside a
 * larger `Float32Array` (a joint array holding matrix i at 16i), so per-frame loops need no views or
 * temporaries. Same conventions as gl-matrix: column vectors, `out = a · b`.
 */

/**
 * `out[o…o+16) = a[ao…ao+16) · b[bo…bo+16)`. `a` is read whole before writing and each column of `b`
 * before that column is written, so the output may overwrite `a` or `b` in place (same offset).
 */
export function multiplyStrided(
  out: Float32Array, o: number,
  a: Float32Array, ao: number,
  b: Float32Array, bo: number,
): void {
  const a00 = a[ao], a01 = a[ao + 1], a02 = a[ao + 2], a03 = a[ao + 3];
  const a10 = a[ao + 4], a11 = a[ao + 5], a12 = a[ao + 6], a13 = a[ao + 7];
  const a20 = a[ao + 8], a21 = a[ao + 9], a22 = a[ao + 10], a23 = a[ao + 11];
  const a30 = a[ao + 12], a31 = a[ao + 13], a32 = a[ao + 14], a33 = a[ao + 15];
  for (let c = 0; c < 16; c += 4) {
    const b0 = b[bo + c], b1 = b[bo + c + 1], b2 = b[bo + c + 2], b3 = b[bo + c + 3];
    out[o + c] = b0 * a00 + b1 * a10 + b2 * a20 + b3 * a30;
    out[o + c + 1] = b0 * a01 + b1 * a11 + b2 * a21 + b3 * a31;
    out[o + c + 2] = b0 * a02 + b1 * a12 + b2 * a22 + b3 * a32;
    out[o + c + 3] = b0 * a03 + b1 * a13 + b2 * a23 + b3 * a33;
  }
}

/**
 * Writes `T · R · S` at `out[o…o+16)` from translation `t[to…to+3)`, unit quaternion `q[qo…qo+4)`
 * (x, y, z, w) and scale `s[so…so+3)` — the glTF 2.0 node transform (§3.5.3). Same formula as
 * gl-matrix `mat4.fromRotationTranslationScale`.
 */
export function composeStrided(
  out: Float32Array, o: number,
  t: Float32Array, to: number,
  q: Float32Array, qo: number,
  s: Float32Array, so: number,
): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2;
  const yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  const sx = s[so], sy = s[so + 1], sz = s[so + 2];
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - (xx + zz)) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - (xx + yy)) * sz;
  out[o + 11] = 0;
  out[o + 12] = t[to];
  out[o + 13] = t[to + 1];
  out[o + 14] = t[to + 2];
  out[o + 15] = 1;
}

/**
 * `out[o…o+16) = a[ao…ao+16) · b[bo…bo+16)` for affine matrices (bottom row 0 0 0 1, as every TRS
 * product is): the upper 3×4 by 36 multiplications, bottom row written 0 0 0 1 — the same sums as
 * {@link multiplyStrided} minus its terms that are exact zeros for such inputs. The bottom rows of `a` and
 * `b` are not read. `a` and `b` are read whole before writing, so `out` may overwrite either in place.
 */
export function multiplyAffineStrided(
  out: Float32Array, o: number,
  a: Float32Array, ao: number,
  b: Float32Array, bo: number,
): void {
  const a0 = a[ao], a1 = a[ao + 1], a2 = a[ao + 2];
  const a4 = a[ao + 4], a5 = a[ao + 5], a6 = a[ao + 6];
  const a8 = a[ao + 8], a9 = a[ao + 9], a10 = a[ao + 10];
  const a12 = a[ao + 12], a13 = a[ao + 13], a14 = a[ao + 14];
  const b0 = b[bo], b1 = b[bo + 1], b2 = b[bo + 2];
  const b4 = b[bo + 4], b5 = b[bo + 5], b6 = b[bo + 6];
  const b8 = b[bo + 8], b9 = b[bo + 9], b10 = b[bo + 10];
  const b12 = b[bo + 12], b13 = b[bo + 13], b14 = b[bo + 14];
  out[o] = a0 * b0 + a4 * b1 + a8 * b2;
  out[o + 1] = a1 * b0 + a5 * b1 + a9 * b2;
  out[o + 2] = a2 * b0 + a6 * b1 + a10 * b2;
  out[o + 3] = 0;
  out[o + 4] = a0 * b4 + a4 * b5 + a8 * b6;
  out[o + 5] = a1 * b4 + a5 * b5 + a9 * b6;
  out[o + 6] = a2 * b4 + a6 * b5 + a10 * b6;
  out[o + 7] = 0;
  out[o + 8] = a0 * b8 + a4 * b9 + a8 * b10;
  out[o + 9] = a1 * b8 + a5 * b9 + a9 * b10;
  out[o + 10] = a2 * b8 + a6 * b9 + a10 * b10;
  out[o + 11] = 0;
  out[o + 12] = a0 * b12 + a4 * b13 + a8 * b14 + a12;
  out[o + 13] = a1 * b12 + a5 * b13 + a9 * b14 + a13;
  out[o + 14] = a2 * b12 + a6 * b13 + a10 * b14 + a14;
  out[o + 15] = 1;
}
