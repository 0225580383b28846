/**
 * Cubic Hermite interpolation between two keys, the kernel shared by glTF CUBICSPLINE, HERMITE and
 * CATMULLROM. With s = (t − t_k)/Δ, Δ = t_{k+1} − t_k, and tangents m (units per second):
 *
 *   `p(s) = (2s³−3s²+1)·v_k + (s³−2s²+s)·Δ·m_k + (−2s³+3s²)·v_{k+1} + (s³−s²)·Δ·m_{k+1}`
 *
 * (glTF 2.0 Appendix C "Cubic Spline Interpolation"; the Hermite basis h00, h10, h01, h11). The curve
 * reproduces any cubic polynomial whose values and derivatives the keys hold. Allocates nothing.
 *
 * @param v flat key data; the value of key k at `v[a…a+c)`, its leaving tangent at `v[ma…ma+c)`, the value of
 *   key k+1 at `v[b…b+c)`, its arriving tangent at `v[mb…mb+c)`
 * @param dt Δ, seconds
 * @param s normalised time in [0, 1]
 */
export function hermiteKeys(
  v: Float32Array, a: number, ma: number, b: number, mb: number,
  dt: number, s: number, c: number, out: Float32Array, o: number,
): void {
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * dt, h01 = -2 * s3 + 3 * s2, h11 = (s3 - s2) * dt;
  for (let i = 0; i < c; i++) {
    out[o + i] = h00 * v[a + i] + h10 * v[ma + i] + h01 * v[b + i] + h11 * v[mb + i];
  }
}
