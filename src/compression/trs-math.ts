/**
 * Float64 transform helpers for the compression room: node matrices from translation, rotation (x, y, z, w) and
 * scale, composed as glTF 2.0 §3.5.3 "Transformations" says (M = T · R · S, column-major 4×4), and the glTF
 * rotation interpolation (§3.11 "Animations", Appendix C "Spline Interpolation": LINEAR rotations are slerped
 * along the shorter arc). Double precision so the error metric measures the keys, not float32 round-off.
 */

/**
 * Writes the column-major 4×4 matrix T · R · S into `out` at `at`.
 * @param trs 10 numbers from `offset`: translation x y z, rotation x y z w (unit), scale x y z
 */
export function composeMatrix(out: Float64Array, at: number, trs: Float64Array, offset: number): void {
  const tx = trs[offset], ty = trs[offset + 1], tz = trs[offset + 2];
  const x = trs[offset + 3], y = trs[offset + 4], z = trs[offset + 5], w = trs[offset + 6];
  const sx = trs[offset + 7], sy = trs[offset + 8], sz = trs[offset + 9];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2, wx = w * x2, wy = w * y2, wz = w * z2;
  out[at] = (1 - (yy + zz)) * sx; out[at + 1] = (xy + wz) * sx; out[at + 2] = (xz - wy) * sx; out[at + 3] = 0;
  out[at + 4] = (xy - wz) * sy; out[at + 5] = (1 - (xx + zz)) * sy; out[at + 6] = (yz + wx) * sy; out[at + 7] = 0;
  out[at + 8] = (xz + wy) * sz; out[at + 9] = (yz - wx) * sz; out[at + 10] = (1 - (xx + yy)) * sz; out[at + 11] = 0;
  out[at + 12] = tx; out[at + 13] = ty; out[at + 14] = tz; out[at + 15] = 1;
}

/** `out[o..o+16) = a[ao..) · b[bo..)` for affine column-major 4×4 matrices (bottom row 0 0 0 1); `out` may not alias. */
export function multiplyAffine(out: Float64Array, o: number, a: Float64Array, ao: number, b: Float64Array, bo: number): void {
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + 4 * c], b1 = b[bo + 4 * c + 1], b2 = b[bo + 4 * c + 2], b3 = c === 3 ? 1 : 0;
    out[o + 4 * c] = a[ao] * b0 + a[ao + 4] * b1 + a[ao + 8] * b2 + a[ao + 12] * b3;
    out[o + 4 * c + 1] = a[ao + 1] * b0 + a[ao + 5] * b1 + a[ao + 9] * b2 + a[ao + 13] * b3;
    out[o + 4 * c + 2] = a[ao + 2] * b0 + a[ao + 6] * b1 + a[ao + 10] * b2 + a[ao + 14] * b3;
    out[o + 4 * c + 3] = c === 3 ? 1 : 0;
  }
}

/**
 * Interpolates one key pair of a LINEAR sampler into `out[o..)`: component-wise lerp for translation and scale
 * (`stride` 3), shortest-arc slerp for rotations (`stride` 4, glTF 2.0 Appendix C), renormalised.
 * @param u the fraction between key a (0) and key b (1)
 */
export function interpolateKey(out: Float64Array, o: number, values: Float64Array, a: number, b: number, u: number, stride: number): void {
  const ia = a * stride, ib = b * stride;
  if (stride !== 4) {
    for (let k = 0; k < stride; k++) out[o + k] = values[ia + k] + (values[ib + k] - values[ia + k]) * u;
    return;
  }
  let dot = values[ia] * values[ib] + values[ia + 1] * values[ib + 1] + values[ia + 2] * values[ib + 2] + values[ia + 3] * values[ib + 3];
  const sign = dot < 0 ? -1 : 1;
  dot *= sign;
  let wa = 1 - u, wb = u * sign;
  if (dot < 0.9999995) {
    const theta = Math.acos(Math.min(1, dot)), sin = Math.sin(theta);
    wa = Math.sin((1 - u) * theta) / sin;
    wb = (Math.sin(u * theta) / sin) * sign;
  }
  let len = 0;
  for (let k = 0; k < 4; k++) {
    const v = values[ia + k] * wa + values[ib + k] * wb;
    out[o + k] = v;
    len += v * v;
  }
  len = 1 / Math.sqrt(len);
  for (let k = 0; k < 4; k++) out[o + k] *= len;
}
