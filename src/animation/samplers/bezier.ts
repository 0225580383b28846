/**
 * Cubic Bézier f-curves with 2-D (time, value) handles, as Blender (`fcurve_eval_keyframes`), FBX and
 * COLLADA (`BEZIER`) store them. Between key k at (t₀, y₀) and key k+1 at (t₃, y₃), with key k's out-handle
 * (t₀ + h₁, y₁) and key k+1's in-handle (t₃ − h₂, y₂), the curve is
 *
 *   `T(u) = (1−u)³·t₀ + 3(1−u)²u·(t₀+h₁) + 3(1−u)u²·(t₃−h₂) + u³·t₃`,
 *   `Y(u) = (1−u)³·y₀ + 3(1−u)²u·y₁ + 3(1−u)u²·y₂ + u³·y₃`,   u ∈ [0, 1].
 *
 * Sampling at time t solves `T(u) = t` for u, then evaluates Y(u). So that T is monotonic (one u per t),
 * handles pointing backwards in time are clamped to zero length in time, and when h₁ + h₂ exceeds the
 * interval both handles are shortened by the same factor `Δ/(h₁+h₂)` along their direction — Blender's
 * `BKE_fcurve_correct_bezpart`. Then T′(u) ≥ 0 (its Bernstein coefficients h₁, Δ−h₁−h₂, h₂ are ≥ 0).
 * Handles at one third of the interval on the line between keys give linear interpolation.
 * Allocates nothing.
 */

/**
 * Solves `X(u) = x` on [0, 1] for the normalised time curve with control abscissae 0, a, b, 1
 * (a = h₁/Δ, b = 1 − h₂/Δ, 0 ≤ a ≤ b ≤ 1, so X is non-decreasing): safeguarded Newton iteration
 * (bisection whenever a Newton step leaves the bracket), to |X(u) − x| < 1e-7.
 *
 * Takes and returns plain numbers although `bezierInterval` calls it per component: it is small enough for
 * V8 to inline, so no number is boxed on the heap.
 *
 * @param x normalised time in [0, 1]
 * @returns the parameter u ∈ [0, 1]
 */
export function solveBezierParameter(a: number, b: number, x: number): number {
  // X(u) = c3·u³ + c2·u² + c1·u in power form.
  const c3 = 1 + 3 * a - 3 * b, c2 = 3 * b - 6 * a, c1 = 3 * a;
  let lo = 0, hi = 1, u = x;
  for (let iteration = 0; iteration < 40; iteration++) {
    const f = ((c3 * u + c2) * u + c1) * u - x;
    if (f < 1e-7 && f > -1e-7) break;
    if (f > 0) hi = u;
    else lo = u;
    const d = (3 * c3 * u + 2 * c2) * u + c1;
    let next = d > 1e-12 ? u - f / d : lo - 1;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    u = next;
  }
  return u;
}

/**
 * Samples the BEZIER interval [key, key+1] at time t = `clock[0]` (seconds) into `out[o…o+c)`. Same calling
 * convention as the other kernels (`samplers/linear.ts`).
 *
 * @param values BEZIER layout (`AnimationChannel.values`): per key, c in-handle Δtimes, c in-handle
 *   values, c values, c out-handle Δtimes, c out-handle values
 */
export function bezierInterval(
  times: Float32Array, values: Float32Array, key: number, clock: Float64Array, c: number, out: Float32Array, o: number,
): void {
  const stride = 5 * c;
  const k0 = key * stride, k1 = k0 + stride;
  const t = clock[0], t0 = times[key];
  const dt = times[key + 1] - t0;
  const s = (t - t0) / dt;
  for (let i = 0; i < c; i++) {
    const y0 = values[k0 + 2 * c + i];
    const y3 = values[k1 + 2 * c + i];
    let h1 = values[k0 + 3 * c + i]; // out-handle Δtime of key k, ≥ 0
    let h2 = -values[k1 + i]; // −(in-handle Δtime of key k+1), ≥ 0
    let y1 = values[k0 + 4 * c + i];
    let y2 = values[k1 + c + i];
    if (!(h1 > 0)) h1 = 0;
    if (!(h2 > 0)) h2 = 0;
    const span = h1 + h2;
    if (span > dt) {
      const fac = dt / span;
      h1 *= fac; h2 *= fac;
      y1 = y0 + fac * (y1 - y0);
      y2 = y3 + fac * (y2 - y3);
    }
    const u = solveBezierParameter(h1 / dt, 1 - h2 / dt, s);
    const v = 1 - u;
    out[o + i] = v * v * v * y0 + 3 * v * v * u * y1 + 3 * v * u * u * y2 + u * u * u * y3;
  }
}
