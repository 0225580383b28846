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

/** Determinant of the upper 3×3 of the column-major 4×4 matrix at `m[o…o+16)`: negative for a mirroring one. Allocates nothing. */
export function determinant3x3(m: ArrayLike<number>, o: number): number {
  return m[o] * (m[o + 5] * m[o + 10] - m[o + 6] * m[o + 9])
    - m[o + 4] * (m[o + 1] * m[o + 10] - m[o + 2] * m[o + 9])
    + m[o + 8] * (m[o + 1] * m[o + 6] - m[o + 2] * m[o + 5]);
}
