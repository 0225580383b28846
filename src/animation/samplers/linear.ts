/**
 * Linear samplers over key values stored in a flat `Float32Array`: component-wise lerp for vectors and
 * shortest-arc slerp for unit quaternions (x, y, z, w). glTF 2.0 Appendix C ("Interpolation": LINEAR,
 * "Spherical Linear Interpolation"); slerp after Shoemake, "Animating rotation with quaternion curves",
 * SIGGRAPH 1985. Allocate nothing.
 */

/** `out[o+i] = (1−s)·v[a+i] + s·v[b+i]` for i < c; s ∈ [0, 1] is the normalised time in the interval. */
export function lerpKeys(v: Float32Array, a: number, b: number, s: number, c: number, out: Float32Array, o: number): void {
  for (let i = 0; i < c; i++) out[o + i] = v[a + i] + s * (v[b + i] - v[a + i]);
}

/**
 * Shortest-arc slerp of the unit quaternions at `q[a…a+4)` and `q[b…b+4)` into `out[o…o+4)`:
 * `sin((1−s)θ)/sin θ · q_a + sin(sθ)/sin θ · q_b`, cos θ = |q_a·q_b|, with q_b negated when q_a·q_b < 0.
 * Below θ ≈ 1.8° (cos θ > 0.9995) it lerps, since sin θ → 0. The result is normalised.
 */
export function slerpKeys(q: Float32Array, a: number, b: number, s: number, out: Float32Array, o: number): void {
  const ax = q[a], ay = q[a + 1], az = q[a + 2], aw = q[a + 3];
  let bx = q[b], by = q[b + 1], bz = q[b + 2], bw = q[b + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let k0: number, k1: number;
  if (cos > 0.9995) {
    // Nearly parallel: lerp (then normalise) avoids dividing by sin θ ≈ 0.
    k0 = 1 - s;
    k1 = s;
  } else {
    const theta = Math.acos(cos);
    const sin = Math.sin(theta);
    k0 = Math.sin((1 - s) * theta) / sin;
    k1 = Math.sin(s * theta) / sin;
  }
  out[o] = k0 * ax + k1 * bx;
  out[o + 1] = k0 * ay + k1 * by;
  out[o + 2] = k0 * az + k1 * bz;
  out[o + 3] = k0 * aw + k1 * bw;
  normalizeQuatAt(out, o);
}

/** Scales the quaternion at `out[o…o+4)` to unit length (left as is when it is zero). */
export function normalizeQuatAt(out: Float32Array, o: number): void {
  const x = out[o], y = out[o + 1], z = out[o + 2], w = out[o + 3];
  const len2 = x * x + y * y + z * z + w * w;
  if (len2 > 0) {
    const inv = 1 / Math.sqrt(len2);
    out[o] = x * inv; out[o + 1] = y * inv; out[o + 2] = z * inv; out[o + 3] = w * inv;
  }
}
