/**
 * Cubic Hermite interval kernel, shared by glTF CUBICSPLINE and HERMITE. With s = (t − t_k)/Δ,
 * Δ = t_{k+1} − t_k, and tangents m (units per second):
 *
 *   `p(s) = (2s³−3s²+1)·v_k + (s³−2s²+s)·Δ·m_k + (−2s³+3s²)·v_{k+1} + (s³−s²)·Δ·m_{k+1}`
 *
 * (glTF 2.0 Appendix C "Cubic Spline Interpolation"; the Hermite basis h00, h10, h01, h11). The curve
 * reproduces any cubic polynomial whose values and derivatives the keys hold. Same calling convention as
 * the other kernels (`samplers/linear.ts`). Allocates nothing.
 *
 * @param values flat key data; the value of key k at `values[a…a+c)`, its leaving tangent at
 *   `values[ma…ma+c)`, the value of key k+1 at `values[b…b+c)`, its arriving tangent at `values[mb…mb+c)`
 */
export function hermiteInterval(
  times: Float32Array, values: Float32Array, key: number, clock: Float64Array,
  a: number, ma: number, b: number, mb: number, c: number, out: Float32Array, o: number,
): void {
  const t = clock[0], t0 = times[key];
  const dt = times[key + 1] - t0;
  const s = (t - t0) / dt;
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * dt, h01 = -2 * s3 + 3 * s2, h11 = (s3 - s2) * dt;
  for (let i = 0; i < c; i++) {
    out[o + i] = h00 * values[a + i] + h10 * values[ma + i] + h01 * values[b + i] + h11 * values[mb + i];
  }
}
