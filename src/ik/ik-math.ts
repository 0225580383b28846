/**
 * The f64 vector and quaternion arithmetic the IK jobs share: outputs into caller-owned arrays, no allocation,
 * no module state. Quaternions are (x, y, z, w), Hamilton products, rotating column vectors `v' = q·v·q*`;
 * matrices are `Float64Array(16)`, column-major. gl-matrix's own helpers (`quat.rotationTo`) keep float32
 * scratch, which would cost the jobs their f64 precision, hence these.
 *
 * Every argument is an array (or an index): a number passed to, or returned from, a call V8 does not inline is
 * boxed on the heap, and the jobs' apply methods call enough helpers to run out of V8's inlining budget, so scalar
 * arguments would allocate every frame (tests/unit/ik/ik-allocation.test.ts measures it).
 */

/** `out = a·b` (apply b, then a). `out` may be `a` or `b`. */
export function quatMultiply(out: Float64Array, a: Float64Array, b: Float64Array): Float64Array {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** `out = q·v·q*`, v a 3-vector. `out` may be `v`. */
export function quatRotate(out: Float64Array, q: Float64Array, v: Float64Array): Float64Array {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3], x = v[0], y = v[1], z = v[2];
  // v + 2w(q×v) + 2 q×(q×v)
  const cx = qy * z - qz * y, cy = qz * x - qx * z, cz = qx * y - qy * x;
  out[0] = x + 2 * (qw * cx + qy * cz - qz * cy);
  out[1] = y + 2 * (qw * cy + qz * cx - qx * cz);
  out[2] = z + 2 * (qw * cz + qx * cy - qy * cx);
  return out;
}

/**
 * The shortest rotation taking the direction of u onto the direction of v: `(u×v, |u||v| + u·v)` normalised;
 * half a turn about an axis perpendicular to u when they are opposite; identity when either is zero.
 */
export function quatBetween(out: Float64Array, u: Float64Array, v: Float64Array): Float64Array {
  const ux = u[0], uy = u[1], uz = u[2], vx = v[0], vy = v[1], vz = v[2];
  const lu = Math.sqrt(ux * ux + uy * uy + uz * uz), lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
  if (!(lu > 0) || !(lv > 0)) return setIdentity(out);
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

/** (0, 0, 0, 1). */
export function setIdentity(out: Float64Array): Float64Array {
  out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 1;
  return out;
}

/**
 * Weights a correction as ozz-animation's IK jobs do: w made non-negative (the same rotation, so the blend takes
 * the short way), then for a weight below 1 a normalised lerp from identity (nlerp). The weight is
 * `weights[at]`, in (0, 1].
 */
export function weightCorrection(q: Float64Array, weights: Float64Array, at: number): Float64Array {
  if (q[3] < 0) { q[0] = -q[0]; q[1] = -q[1]; q[2] = -q[2]; q[3] = -q[3]; }
  const weight = weights[at];
  if (weight < 1) {
    const x = q[0] * weight, y = q[1] * weight, z = q[2] * weight, w = 1 - weight + q[3] * weight;
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    q[0] = x / l; q[1] = y / l; q[2] = z / l; q[3] = w / l;
  }
  return q;
}

/**
 * Multiplies joint `joint`'s local rotation by `correction` on the right (`r' = r·c`: a rotation in the joint's
 * own space, as ozz-animation's corrections are applied), stored as float32. Leaves the pose as it is when the
 * product is not finite.
 */
export function correctLocalRotation(rotations: Float32Array, joint: number, c: Float64Array): void {
  const o = 4 * joint;
  const ax = rotations[o], ay = rotations[o + 1], az = rotations[o + 2], aw = rotations[o + 3];
  const bx = c[0], by = c[1], bz = c[2], bw = c[3];
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  if (!Number.isFinite(x + y + z + w)) return;
  rotations[o] = x; rotations[o + 1] = y; rotations[o + 2] = z; rotations[o + 3] = w;
}

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

/** True when the first three entries are finite. */
export function finite3(v: ArrayLike<number>): boolean {
  return Number.isFinite(v[0]) && Number.isFinite(v[1]) && Number.isFinite(v[2]);
}

/**
 * Copies a 3-vector option into `out` after checking it: three finite numbers, and not zero when `nonZero`.
 * For set-up. @throws RangeError naming `where` otherwise
 */
export function setVector3(out: Float64Array, value: ArrayLike<number>, where: string, nonZero: boolean): void {
  if (!value || value.length < 3 || !finite3(value)) throw new RangeError(`${where} must be three finite numbers, got ${formatVector(value)}`);
  if (nonZero && value[0] === 0 && value[1] === 0 && value[2] === 0) throw new RangeError(`${where} must not be the zero vector`);
  out[0] = value[0]; out[1] = value[1]; out[2] = value[2];
}

function formatVector(value: ArrayLike<number> | undefined): string {
  if (!value || typeof value !== 'object' || typeof value.length !== 'number') return String(value);
  return `[${Array.from(value as ArrayLike<number>, (n) => String(n)).join(', ')}]`;
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
