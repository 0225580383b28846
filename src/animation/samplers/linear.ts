/**
 * The rotation half of LINEAR interpolation — shortest-arc slerp of unit quaternions (glTF 2.0 Appendix C,
 * "Spherical Linear Interpolation"; Shoemake, "Animating rotation with quaternion curves", SIGGRAPH 1985) —
 * and quaternion normalisation, which the cubic kinds apply to rotations.
 *
 * The interval kernels of `samplers/` share one signature, `(times, values, key, clock, …, out, o)`: each
 * reads the interval [key, key+1] (t_key ≤ t < t_{key+1}) at the time t = `clock[0]` (seconds, a
 * `Float64Array`) and computes s = (t − t_k)/(t_{k+1} − t_k) itself. The time travels in a typed array and
 * everything else is an integer because V8 boxes a floating-point argument on the heap for every call it
 * does not inline: this way sampling allocates nothing at all.
 */

/**
 * Shortest-arc slerp of the unit quaternions (x, y, z, w) at `q[a…a+4)` and `q[b…b+4)` by the factor
 * s = `factors[f]` (a typed array, so that a call V8 does not inline allocates nothing), normalised into
 * `out[o…o+4)`: `sin((1−s)θ)/sin θ · q_a + sin(sθ)/sin θ · q_b`, cos θ = |q_a·q_b|, with q_b negated when
 * q_a·q_b < 0 (so θ ≤ π/2).
 *
 * No library trigonometry on this hot path: θ = arccos by Abramowitz & Stegun 4.4.46
 * (`√(1−x)·Σ₀⁷ aᵢxⁱ`, |error| ≤ 2.2·10⁻⁸ rad on [0, 1]) and the sines by their Taylor series to x¹³
 * (|error| < 7·10⁻¹⁰ on [0, π/2]), both evaluated in Estrin's form (short dependency chains); near keys
 * (θ ≤ 0.25 rad, the usual case between dense keys) shorter series of the same functions: arccos by its
 * expansion in x = 1 − cos θ to x⁴ (|error| < 10⁻¹¹) and the sines to x⁷ (relative error < 10⁻¹⁰). Since the
 * result is normalised, the common factor 1/sin θ is left out: `normalize(sin((1−s)θ)·q_a + sin(sθ)·q_b)`
 * is the same quaternion. The coefficients are then exactly slerp's for an angle within 2.2·10⁻⁸ of θ, so
 * the result lies on the same great arc within ~10⁻⁸ — below float32 resolution (6·10⁻⁸ at 1); the unit
 * tests hold it to gl-matrix's and three.js's trigonometric slerp. Below θ = 10⁻⁵ rad it lerps then
 * normalises (nlerp's deviation from slerp is O(θ³)). Allocates nothing.
 *
 * @param q `Float32Array` of quaternions, 4 floats each
 * @param factors `Float64Array`; the factor s ∈ [0, 1] at index `f`
 */
export function slerpQuaternions(q: Float32Array, a: number, b: number, factors: Float64Array, f: number, out: Float32Array, o: number): void {
  const s = factors[f];
  const ax = q[a], ay = q[(a + 1) | 0], az = q[(a + 2) | 0], aw = q[(a + 3) | 0];
  let bx = q[b], by = q[(b + 1) | 0], bz = q[(b + 2) | 0], bw = q[(b + 3) | 0];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  if (cos > 1) cos = 1;
  // θ = arccos(cos), then sin((1−s)θ) and sin(sθ); 1/sin θ is left out (the sum is normalised, which
  // divides it out). Near keys (θ ≤ 0.25 rad, cos θ ≥ 0.9689, the usual case between dense keys) shorter
  // series suffice: arccos c = √(2x)·(1 + x/12 + 3x²/160 + 5x³/896 + 35x⁴/18432 + …), x = 1 − c (|error|
  // < 10⁻¹¹), and sin to x⁷ (relative error < 10⁻¹⁰). Otherwise A&S 4.4.46 and sin to x¹³, in Estrin's
  // form (short dependency chains). Constant reciprocals: no division.
  let k0: number, k1: number;
  if (cos >= 0.9689124217106447) {
    const x = 1 - cos;
    const theta = Math.sqrt(2 * x) * (1 + x * ((1 / 12) + x * ((3 / 160) + x * ((5 / 896) + x * (35 / 18432)))));
    if (theta < 1e-5) {
      k0 = 1 - s;
      k1 = s;
    } else {
      const x1 = (1 - s) * theta, y1 = x1 * x1;
      k0 = x1 * ((1 - y1 * (1 / 6)) + y1 * y1 * ((1 / 120) - y1 * (1 / 5040)));
      const x2 = s * theta, y2 = x2 * x2;
      k1 = x2 * ((1 - y2 * (1 / 6)) + y2 * y2 * ((1 / 120) - y2 * (1 / 5040)));
    }
  } else {
    const c = cos, c2 = c * c;
    const theta = Math.sqrt(1 - c) * ((1.570796305 - 0.2145988016 * c) + c2 * (0.0889789874 - 0.0501743046 * c)
      + c2 * c2 * ((0.030891881 - 0.0170881256 * c) + c2 * (0.0066700901 - 0.0012624911 * c)));
    const x1 = (1 - s) * theta, y1 = x1 * x1, z1 = y1 * y1;
    k0 = x1 * ((1 - y1 * (1 / 6)) + z1 * (1 / 120 - y1 * (1 / 5040)) + z1 * z1 * ((1 / 362880 - y1 * (1 / 39916800)) + z1 * (1 / 6227020800)));
    const x2 = s * theta, y2 = x2 * x2, z2 = y2 * y2;
    k1 = x2 * ((1 - y2 * (1 / 6)) + z2 * (1 / 120 - y2 * (1 / 5040)) + z2 * z2 * ((1 / 362880 - y2 * (1 / 39916800)) + z2 * (1 / 6227020800)));
  }
  const x = k0 * ax + k1 * bx, y = k0 * ay + k1 * by, z = k0 * az + k1 * bz, w = k0 * aw + k1 * bw;
  const len2 = x * x + y * y + z * z + w * w;
  const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
  out[o] = x * inv; out[(o + 1) | 0] = y * inv; out[(o + 2) | 0] = z * inv; out[(o + 3) | 0] = w * inv;
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
