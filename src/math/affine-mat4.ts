/**
 * Affine 4×4 matrices in double precision (`Float64Array(16)`, column-major, bottom row 0 0 0 1, column vectors as
 * in gl-matrix), out-first as gl-matrix's `mat4`/`vec3` but f64 throughout: gl-matrix's `mat4.create` is float32,
 * which would cost the IK jobs their precision. Every argument is an array (see ./quaternion.ts on why no doubles).
 */

/** `out = M·(p, 1)`: a point. `out` may be `p`. */
export function transformPoint(out: Float64Array, m: Float64Array, p: Float64Array): Float64Array {
  const x = p[0], y = p[1], z = p[2];
  out[0] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[2] = m[2] * x + m[6] * y + m[10] * z + m[14];
  return out;
}

/** `out = M·(v, 0)`: a direction (no translation). `out` may be `v`. */
export function transformVector(out: Float64Array, m: Float64Array, v: Float64Array): Float64Array {
  const x = v[0], y = v[1], z = v[2];
  out[0] = m[0] * x + m[4] * y + m[8] * z;
  out[1] = m[1] * x + m[5] * y + m[9] * z;
  out[2] = m[2] * x + m[6] * y + m[10] * z;
  return out;
}

/** `out = inverse · (translation of m)`: where m's origin is, in the space `inverse` maps to. */
export function originIn(out: Float64Array, inverse: Float64Array, m: Float64Array): Float64Array {
  const x = m[12], y = m[13], z = m[14];
  out[0] = inverse[0] * x + inverse[4] * y + inverse[8] * z + inverse[12];
  out[1] = inverse[1] * x + inverse[5] * y + inverse[9] * z + inverse[13];
  out[2] = inverse[2] * x + inverse[6] * y + inverse[10] * z + inverse[14];
  return out;
}

/**
 * Inverse of an affine matrix (bottom row 0 0 0 1) into `out` by its 3×3 cofactors; false, leaving `out`
 * unspecified, when the determinant is 0 or not finite (a joint scaled to zero).
 */
export function invertAffine(out: Float64Array, m: Float64Array): boolean {
  const a00 = m[0], a01 = m[1], a02 = m[2], a10 = m[4], a11 = m[5], a12 = m[6], a20 = m[8], a21 = m[9], a22 = m[10];
  const b01 = a22 * a11 - a12 * a21, b11 = -a22 * a10 + a12 * a20, b21 = a21 * a10 - a11 * a20;
  const det = a00 * b01 + a01 * b11 + a02 * b21;
  if (det === 0 || !Number.isFinite(det)) return false;
  const id = 1 / det;
  const i0 = b01 * id, i1 = (-a22 * a01 + a02 * a21) * id, i2 = (a12 * a01 - a02 * a11) * id;
  const i4 = b11 * id, i5 = (a22 * a00 - a02 * a20) * id, i6 = (-a12 * a00 + a02 * a10) * id;
  const i8 = b21 * id, i9 = (-a21 * a00 + a01 * a20) * id, i10 = (a11 * a00 - a01 * a10) * id;
  const tx = m[12], ty = m[13], tz = m[14];
  out[0] = i0; out[1] = i1; out[2] = i2; out[3] = 0;
  out[4] = i4; out[5] = i5; out[6] = i6; out[7] = 0;
  out[8] = i8; out[9] = i9; out[10] = i10; out[11] = 0;
  out[12] = -(i0 * tx + i4 * ty + i8 * tz);
  out[13] = -(i1 * tx + i5 * ty + i9 * tz);
  out[14] = -(i2 * tx + i6 * ty + i10 * tz);
  out[15] = 1;
  return true;
}

/** `out = a·b` for affine matrices (column-major); `out` must not be `a` or `b`. */
export function multiplyAffine(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
  for (let c = 0; c < 16; c += 4) {
    const x = b[c], y = b[c + 1], z = b[c + 2], w = b[c + 3];
    out[c] = a[0] * x + a[4] * y + a[8] * z + a[12] * w;
    out[c + 1] = a[1] * x + a[5] * y + a[9] * z + a[13] * w;
    out[c + 2] = a[2] * x + a[6] * y + a[10] * z + a[14] * w;
    out[c + 3] = w;
  }
  return out;
}
