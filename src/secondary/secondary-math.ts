/**
 * The f64 arithmetic the spring and node-constraint jobs share, where it must follow three.js bit for bit in its
 * branches (three-vrm 3.5.5, the reference, computes with three.js's `Quaternion.setFromUnitVectors` and `slerp`):
 * math/quaternion.ts's `quatBetween` picks another axis for opposite vectors and another threshold. Every argument
 * is an array or a small integer (math/quaternion.ts says why: a double passed to a call V8 does not inline is
 * boxed). Quaternions are (x, y, z, w), matrices column-major `Float64Array(16)` at an offset.
 */

/**
 * `out[o…o+4)` = the rotation taking the unit vector `from[fo…fo+3)` onto the unit vector `to[to…to+3)`, as
 * three.js's `Quaternion.setFromUnitVectors` computes it: `(from × to, 1 + from·to)` normalised; when they are
 * opposite (1 + from·to below `Number.EPSILON`) half a turn about `(−y, x, 0)` or `(0, −z, y)` of `from`, whichever
 * three.js picks. Zero vectors give the identity (1 + 0 = 1).
 */
export function quatFromUnitVectorsAt(out: Float64Array, o: number, from: ArrayLike<number>, fo: number, to: ArrayLike<number>, too: number): Float64Array {
  const fx = from[fo], fy = from[fo + 1], fz = from[fo + 2], tx = to[too], ty = to[too + 1], tz = to[too + 2];
  let r = fx * tx + fy * ty + fz * tz + 1;
  let x: number, y: number, z: number;
  if (r < Number.EPSILON) {
    r = 0;
    if (Math.abs(fx) > Math.abs(fz)) { x = -fy; y = fx; z = 0; } else { x = 0; y = -fz; z = fy; }
  } else {
    x = fy * tz - fz * ty; y = fz * tx - fx * tz; z = fx * ty - fy * tx;
  }
  const l = Math.sqrt(x * x + y * y + z * z + r * r);
  if (l === 0) { out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1; return out; }
  out[o] = x / l; out[o + 1] = y / l; out[o + 2] = z / l; out[o + 3] = r / l;
  return out;
}

/**
 * `out[o…o+4)` = slerp from `a[ao…ao+4)` to `b[bo…bo+4)` by the fraction `t[ti]`, as three.js's `Quaternion.slerp`:
 * t = 0 gives a, t = 1 gives b as is; otherwise along the shorter arc (b negated when a·b < 0), a when they are
 * equal, a normalised lerp when sin²(θ/2) ≤ `Number.EPSILON`. `out` may alias `a` or `b`.
 */
export function quatSlerpAt(out: Float64Array, o: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, t: ArrayLike<number>, ti: number): Float64Array {
  const f = t[ti];
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  if (f === 0) { out[o] = ax; out[o + 1] = ay; out[o + 2] = az; out[o + 3] = aw; return out; }
  if (f === 1) { out[o] = bx; out[o + 1] = by; out[o + 2] = bz; out[o + 3] = bw; return out; }
  let cos = aw * bw + ax * bx + ay * by + az * bz;
  if (cos < 0) { bx = -bx; by = -by; bz = -bz; bw = -bw; cos = -cos; }
  if (cos >= 1) { out[o] = ax; out[o + 1] = ay; out[o + 2] = az; out[o + 3] = aw; return out; }
  const sqrSin = 1 - cos * cos;
  if (sqrSin <= Number.EPSILON) {
    const s = 1 - f;
    const x = s * ax + f * bx, y = s * ay + f * by, z = s * az + f * bz, w = s * aw + f * bw;
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    out[o] = x / l; out[o + 1] = y / l; out[o + 2] = z / l; out[o + 3] = w / l;
    return out;
  }
  const sin = Math.sqrt(sqrSin), half = Math.atan2(sin, cos);
  const ra = Math.sin((1 - f) * half) / sin, rb = Math.sin(f * half) / sin;
  out[o] = ax * ra + bx * rb; out[o + 1] = ay * ra + by * rb; out[o + 2] = az * ra + bz * rb; out[o + 3] = aw * ra + bw * rb;
  return out;
}

/**
 * `out[o…o+16)` = `base[bo…bo+16)` · T·R·S, the local matrix of translation `t[ti…ti+3)`, rotation `q[qi…qi+4)` and
 * scale `s[si…si+3)` (glTF 2.0 §3.5.3); `base` null means the identity (a root). `out` must not overlap `base`.
 */
export function multiplyTrsAt(
  out: Float64Array, o: number, base: Float64Array | null, bo: number,
  t: ArrayLike<number>, ti: number, q: ArrayLike<number>, qi: number, s: ArrayLike<number>, si: number,
): Float64Array {
  const x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2, wx = w * x2, wy = w * y2, wz = w * z2;
  const sx = s[si], sy = s[si + 1], sz = s[si + 2];
  const l0 = (1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
  const l4 = (xy - wz) * sy, l5 = (1 - (xx + zz)) * sy, l6 = (yz + wx) * sy;
  const l8 = (xz + wy) * sz, l9 = (yz - wx) * sz, l10 = (1 - (xx + yy)) * sz;
  const l12 = t[ti], l13 = t[ti + 1], l14 = t[ti + 2];
  if (base === null) {
    out[o] = l0; out[o + 1] = l1; out[o + 2] = l2; out[o + 3] = 0;
    out[o + 4] = l4; out[o + 5] = l5; out[o + 6] = l6; out[o + 7] = 0;
    out[o + 8] = l8; out[o + 9] = l9; out[o + 10] = l10; out[o + 11] = 0;
    out[o + 12] = l12; out[o + 13] = l13; out[o + 14] = l14; out[o + 15] = 1;
    return out;
  }
  const b0 = base[bo], b1 = base[bo + 1], b2 = base[bo + 2], b4 = base[bo + 4], b5 = base[bo + 5], b6 = base[bo + 6];
  const b8 = base[bo + 8], b9 = base[bo + 9], b10 = base[bo + 10], b12 = base[bo + 12], b13 = base[bo + 13], b14 = base[bo + 14];
  out[o] = b0 * l0 + b4 * l1 + b8 * l2; out[o + 1] = b1 * l0 + b5 * l1 + b9 * l2; out[o + 2] = b2 * l0 + b6 * l1 + b10 * l2; out[o + 3] = 0;
  out[o + 4] = b0 * l4 + b4 * l5 + b8 * l6; out[o + 5] = b1 * l4 + b5 * l5 + b9 * l6; out[o + 6] = b2 * l4 + b6 * l5 + b10 * l6; out[o + 7] = 0;
  out[o + 8] = b0 * l8 + b4 * l9 + b8 * l10; out[o + 9] = b1 * l8 + b5 * l9 + b9 * l10; out[o + 10] = b2 * l8 + b6 * l9 + b10 * l10; out[o + 11] = 0;
  out[o + 12] = b0 * l12 + b4 * l13 + b8 * l14 + b12;
  out[o + 13] = b1 * l12 + b5 * l13 + b9 * l14 + b13;
  out[o + 14] = b2 * l12 + b6 * l13 + b10 * l14 + b14;
  out[o + 15] = 1;
  return out;
}
