/**
 * Quaternion arithmetic in double precision, in gl-matrix's style (`fn(out, …)` writing `out` and returning it)
 * but on `Float64Array`s: gl-matrix's `quat` keeps float32 scratch (`quat.rotationTo`), which would cost the IK
 * jobs and the retargeter their f64 precision. Quaternions are (x, y, z, w), products are Hamilton's, and a unit
 * quaternion rotates a column vector as `v' = q·v·q*` (docs/explanation/skinning-formulas.md, the same convention
 * as glTF 2.0 §5.25 `node.rotation` and gl-matrix).
 *
 * Each operation has one implementation, the strided form (`…At`), which reads and writes 4-tuples (3 for vectors)
 * at offsets inside packed arrays (joint j's rotation at 4j); the plain form is the strided one at offset 0.
 * Every argument is an array or a small integer: a double passed to a call V8 does not inline is boxed on the
 * heap, so the IK jobs' per-frame calls would allocate (tests/unit/ik/ik-allocation.test.ts measures it).
 * Outputs may alias inputs: every input is read before the first write.
 */

/** `out = (0, 0, 0, 1)`, the identity rotation. */
export function quatIdentity(out: Float64Array): Float64Array {
  out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 1;
  return out;
}

/** `out[o…o+4) = a[ao…ao+4)·b[bo…bo+4)`: apply b, then a. */
export function quatMultiplyAt(out: Float64Array, o: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): Float64Array {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** `out = a·b` (gl-matrix `quat.multiply`): apply b, then a. */
export function quatMultiply(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return quatMultiplyAt(out, 0, a, 0, b, 0);
}

/**
 * `out[o…o+4) = conj(a)·b` with a = `a[ao…ao+4)`: for a unit `a`, its inverse times b (b expressed in a's frame).
 * The conjugate is exact (a sign flip), so this equals {@link quatMultiplyAt} on a negated copy, bit for bit.
 */
export function quatConjugateMultiplyAt(out: Float64Array, o: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): Float64Array {
  const ax = -a[ao], ay = -a[ao + 1], az = -a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** `out = conj(a)·b`: {@link quatConjugateMultiplyAt} at offset 0. */
export function quatConjugateMultiply(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return quatConjugateMultiplyAt(out, 0, a, 0, b, 0);
}

/**
 * `out[o…o+3) = q·v·q*` for the unit quaternion `q[qo…qo+4)` and the 3-vector `v[vo…vo+3)` (gl-matrix
 * `vec3.transformQuat`), as `v + 2w(q⃗×v) + 2q⃗×(q⃗×v)`.
 */
export function quatRotateAt(out: Float64Array, o: number, q: ArrayLike<number>, qo: number, v: ArrayLike<number>, vo: number): Float64Array {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3], x = v[vo], y = v[vo + 1], z = v[vo + 2];
  const cx = qy * z - qz * y, cy = qz * x - qx * z, cz = qx * y - qy * x;
  out[o] = x + 2 * (qw * cx + qy * cz - qz * cy);
  out[o + 1] = y + 2 * (qw * cy + qz * cx - qx * cz);
  out[o + 2] = z + 2 * (qw * cz + qx * cy - qy * cx);
  return out;
}

/** `out = q·v·q*`: {@link quatRotateAt} at offset 0. */
export function quatRotate(out: Float64Array, q: ArrayLike<number>, v: ArrayLike<number>): Float64Array {
  return quatRotateAt(out, 0, q, 0, v, 0);
}

/**
 * `out[o…o+3) = q*·v·q` for the unit quaternion `q[qo…qo+4)`: v into q's frame (the inverse rotation). Equals
 * {@link quatRotateAt} with a conjugated copy of q, bit for bit.
 */
export function quatConjugateRotateAt(out: Float64Array, o: number, q: ArrayLike<number>, qo: number, v: ArrayLike<number>, vo: number): Float64Array {
  const qx = -q[qo], qy = -q[qo + 1], qz = -q[qo + 2], qw = q[qo + 3], x = v[vo], y = v[vo + 1], z = v[vo + 2];
  const cx = qy * z - qz * y, cy = qz * x - qx * z, cz = qx * y - qy * x;
  out[o] = x + 2 * (qw * cx + qy * cz - qz * cy);
  out[o + 1] = y + 2 * (qw * cy + qz * cx - qx * cz);
  out[o + 2] = z + 2 * (qw * cz + qx * cy - qy * cx);
  return out;
}

/** Scales the quaternion at `q[o…o+4)` to unit length in place; a zero quaternion is left as it is (as gl-matrix's `quat.normalize`). */
export function quatNormalizeAt(q: Float64Array, o: number): Float64Array {
  const l = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
  if (l > 0) { q[o] /= l; q[o + 1] /= l; q[o + 2] /= l; q[o + 3] /= l; }
  return q;
}

/**
 * The shortest rotation taking the direction of u onto the direction of v (gl-matrix `quat.rotationTo`, which
 * wants unit vectors; these need not be): `(u×v, |u||v| + u·v)` normalised; half a turn about an axis
 * perpendicular to u when they are opposite; the identity when either is zero or not finite.
 */
export function quatBetween(out: Float64Array, u: ArrayLike<number>, v: ArrayLike<number>): Float64Array {
  const ux = u[0], uy = u[1], uz = u[2], vx = v[0], vy = v[1], vz = v[2];
  const lu = Math.sqrt(ux * ux + uy * uy + uz * uz), lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
  if (!(lu > 0) || !(lv > 0)) return quatIdentity(out);
  const d = ux * vx + uy * vy + uz * vz, w = lu * lv + d;
  if (w <= 1e-12 * lu * lv) {
    // Opposite: any axis perpendicular to u; u × the world axis u is least aligned with.
    const ax = Math.abs(ux), ay = Math.abs(uy), az = Math.abs(uz);
    let px: number, py: number, pz: number;
    if (ax <= ay && ax <= az) { px = 0; py = uz; pz = -uy; } else if (ay <= az) { px = -uz; py = 0; pz = ux; } else { px = uy; py = -ux; pz = 0; }
    const lp = Math.sqrt(px * px + py * py + pz * pz);
    out[0] = px / lp; out[1] = py / lp; out[2] = pz / lp; out[3] = 0;
    return out;
  }
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const l = Math.sqrt(cx * cx + cy * cy + cz * cz + w * w);
  out[0] = cx / l; out[1] = cy / l; out[2] = cz / l; out[3] = w / l;
  return out;
}

/**
 * `out` (`Float64Array(9)`, column-major 3×3) = the rotation matrix of the unit quaternion `q[qo…qo+4)`
 * (gl-matrix `mat3.fromQuat`), as `I + 2w[q⃗]× + 2[q⃗]×²` written out.
 */
export function mat3FromQuatAt(out: Float64Array, q: ArrayLike<number>, qo: number): Float64Array {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  out[0] = 1 - 2 * (y * y + z * z); out[1] = 2 * (x * y + w * z); out[2] = 2 * (x * z - w * y);
  out[3] = 2 * (x * y - w * z); out[4] = 1 - 2 * (x * x + z * z); out[5] = 2 * (y * z + w * x);
  out[6] = 2 * (x * z + w * y); out[7] = 2 * (y * z - w * x); out[8] = 1 - 2 * (x * x + y * y);
  return out;
}
