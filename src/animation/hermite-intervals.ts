import { keyStride, keyValueOffset, type Interpolation } from '../asset/animation-clip.ts';

/**
 * How far a BEZIER handle's time may sit from a third of its interval, as a fraction of the interval, for the
 * channel to count as a Hermite cubic: then the time curve X(u) is within 0.9·BEZIER_THIRDS of u (its
 * deviation 3(a − ⅓)(1−u)²u − 3(b − ⅔)(1−u)u² with |a − ⅓|, |b − ⅔| ≤ ε), at or below the tolerance the
 * portable solver stops at (|X(u) − x| < 10⁻⁷, samplers/bezier.ts), which therefore takes u = s too.
 */
export const BEZIER_THIRDS = 1e-7;

/**
 * Whether a channel can be laid out as Hermite intervals ({@link hermiteIntervals}) and so sampled by the
 * sampling kernel: every kind but BEZIER, whose time curve T(u) = t must in general be solved per component
 * for its parameter (samplers/bezier.ts) — not a polynomial in s, so not a Hermite cubic; except a BEZIER
 * channel whose every handle sits a third of its interval from its key in time (within {@link BEZIER_THIRDS}
 * of the interval, as the built-in octopus's head bob and handles of "linear" time spacing): then T is linear,
 * u = s, and the curve is the Hermite cubic with Δ·m_k = 3(y₁ − y₀), Δ·m_{k+1} = 3(y₃ − y₂).
 * @param values `AnimationChannel.values` for `interpolation`, c components per element
 */
export function hasHermiteForm(interpolation: Interpolation, times: Float32Array, values: Float32Array, c: number): boolean {
  if (interpolation !== 'BEZIER') return true;
  const stride = 5 * c;
  for (let k = 0; k + 1 < times.length; k++) {
    const third = (times[k + 1] - times[k]) / 3, slack = 3 * BEZIER_THIRDS * third;
    for (let i = 0; i < c; i++) {
      const out = values[k * stride + 3 * c + i], into = -values[(k + 1) * stride + i];
      if (!(Math.abs(out - third) <= slack && Math.abs(into - third) <= slack)) return false;
    }
  }
  return true;
}

/**
 * A channel's intervals in one Hermite form, for the sampling kernel (src/animation/hermite-stream.ts,
 * weight-channels.ts): for
 * each interval k (k < n − 1) `[v_k, Δ·m_k, v_{k+1}, Δ·m_{k+1}]`, c floats each, Δ = t_{k+1} − t_k, so that
 *
 *   `p(s) = v_k + h01·(v_{k+1} − v_k) + h10·Δm_k + h11·Δm_{k+1}`,   h01 = 3s² − 2s³, h10 = s³ − 2s² + s,
 *   h11 = s³ − s²
 *
 * is the channel's curve at s = (t − t_k)/Δ (the basis of glTF 2.0 Appendix C "Cubic Spline Interpolation",
 * with h00 = 1 − h01). Computed in double, rounded to float32 once. Per kind:
 *
 * - CUBICSPLINE: m_k key k's out-tangent, m_{k+1} key k+1's in-tangent (glTF 2.0 Appendix C);
 * - HERMITE: each key's one tangent;
 * - CATMULLROM: the tangents of samplers/catmull-rom.ts (neighbour secants, one-sided at the ends). For
 *   rotations (`rotation`) it flips key k+1 and the neighbours into key k's hemisphere as that sampler does,
 *   per interval, so v_{k+1} may be −q_{k+1} in interval k (the same rotation) while interval k+1 starts at
 *   q_{k+1} itself;
 * - BEZIER with handles at thirds in time ({@link hasHermiteForm}): v_k = y₀, v_{k+1} = y₃, Δ·m_k = 3(y₁ − y₀),
 *   Δ·m_{k+1} = 3(y₃ − y₂) (the Bézier's end derivatives, samplers/bezier.ts's y₁, y₂ the handle values);
 * - LINEAR and STEP (morph weights only): the two values, tangents 0 (the kernel lerps or holds by the
 *   channel's mode).
 *
 * @param times `Float32Array(n)`, n ≥ 1, strictly increasing seconds
 * @param values the channel's values in the layout of `AnimationChannel.values` for `interpolation`, c components
 * @returns `Float32Array(4c·(n − 1))`
 * @throws Error for a BEZIER channel without a Hermite form
 */
export function hermiteIntervals(
  interpolation: Interpolation, times: Float32Array, values: Float32Array, c: number, rotation: boolean,
): Float32Array {
  if (!hasHermiteForm(interpolation, times, values, c)) throw new Error(`hermiteIntervals: this ${interpolation} channel has no Hermite form (handles off thirds in time)`);
  const n = times.length, out = new Float32Array(4 * c * Math.max(0, n - 1));
  const stride = keyStride(interpolation, c), at = keyValueOffset(interpolation, c);
  for (let k = 0; k + 1 < n; k++) {
    const dt = times[k + 1] - times[k], o = 4 * c * k;
    const a = k * stride + at, b = a + stride;
    // Hemisphere signs of key k+1 and the neighbours relative to key k (CATMULLROM rotations, as its sampler).
    let sb = 1, sp = 1, sq = 1;
    const hasPrev = k > 0, hasNext = k + 2 < n;
    if (interpolation === 'CATMULLROM' && rotation) {
      const dot = (p: number, q: number): number => values[p] * values[q] + values[p + 1] * values[q + 1] + values[p + 2] * values[q + 2] + values[p + 3] * values[q + 3];
      sb = dot(a, b) < 0 ? -1 : 1;
      if (hasPrev) sp = dot(a, a - c) < 0 ? -1 : 1;
      if (hasNext) sq = dot(b, b + c) < 0 ? -sb : sb;
    }
    for (let i = 0; i < c; i++) {
      const v0 = values[a + i], v1 = sb * values[b + i];
      let m0 = 0, m1 = 0;
      switch (interpolation) {
        case 'CUBICSPLINE': m0 = values[a + c + i]; m1 = values[b - c + i]; break;
        case 'HERMITE': m0 = values[a + c + i]; m1 = values[b + c + i]; break;
        case 'BEZIER': m0 = (3 * (values[a + 2 * c + i] - v0)) / dt; m1 = (3 * (v1 - values[b - c + i])) / dt; break;
        case 'CATMULLROM': {
          const dPrev = hasPrev ? times[k + 1] - times[k - 1] : dt, dNext = hasNext ? times[k + 2] - times[k] : dt;
          m0 = (hasPrev ? v1 - sp * values[a - c + i] : v1 - v0) / dPrev;
          m1 = (hasNext ? sq * values[b + c + i] - v0 : v1 - v0) / dNext;
          break;
        }
        default: break; // LINEAR, STEP: no tangents
      }
      out[o + i] = v0;
      out[o + c + i] = dt * m0;
      out[o + 2 * c + i] = v1;
      out[o + 3 * c + i] = dt * m1;
    }
  }
  return out;
}
