import type { AnimationChannel } from './animation-clip.ts';
import { bezierInterval } from './samplers/bezier.ts';
import { catmullRomInterval } from './samplers/catmull-rom.ts';
import { hermiteInterval } from './samplers/cubic-hermite.ts';
import { lerpInterval, normalizeQuatAt, slerpInterval } from './samplers/linear.ts';

/**
 * Samples one channel at time `t` (seconds) into `out[offset … offset+c)`, where c = 3 or 4.
 * Before the first key the first value holds, after the last key the last value (glTF 2.0 §3.11); any time
 * in between is interpolated, not only key times (SEEDS S4 item 8). Interpolation per channel:
 *
 * - STEP: value of key k, the last key with `times[k] ≤ t`.
 * - LINEAR: `(1−s)·v_k + s·v_{k+1}`, s = (t − t_k)/(t_{k+1} − t_k); rotations by shortest-arc slerp
 *   (glTF 2.0 Appendix C, "Spherical Linear Interpolation"; `samplers/linear.ts`).
 * - CUBICSPLINE: cubic Hermite with Δ = t_{k+1} − t_k,
 *   `p(s) = (2s³−3s²+1)·v_k + (s³−2s²+s)·Δ·b_k + (−2s³+3s²)·v_{k+1} + (s³−s²)·Δ·a_{k+1}`, where b_k is key
 *   k's out-tangent and a_{k+1} key k+1's in-tangent (glTF 2.0 Appendix C; `samplers/cubic-hermite.ts`).
 * - HERMITE: the same cubic with b_k = m_k and a_{k+1} = m_{k+1}, each key's explicit tangent.
 * - BEZIER: solve the time curve for its parameter, evaluate the value curve (`samplers/bezier.ts`).
 * - CATMULLROM: Hermite with tangents from the neighbouring keys, one-sided at the ends
 *   (`samplers/catmull-rom.ts`).
 *
 * Rotations of every cubic kind (CUBICSPLINE, HERMITE, BEZIER, CATMULLROM) are normalised after.
 * Allocates nothing.
 *
 * @param key the interval index from {@link findKeyframe}
 */
export function sampleChannel(channel: AnimationChannel, t: number, key: number, out: Float32Array, offset: number): void {
  scratchClock[0] = t;
  sampleChannelAt(channel, scratchClock, key, out, offset);
}

const scratchClock = new Float64Array(1);

/**
 * {@link sampleChannel} with the time read from `clock[0]` (seconds, a `Float64Array(1)`): the form the hot
 * path uses, since V8 boxes a floating-point argument on the heap for every call it does not inline, while
 * a typed array and integers cross calls for free. Allocates nothing.
 */
export function sampleChannelAt(channel: AnimationChannel, clock: Float64Array, key: number, out: Float32Array, offset: number): void {
  const t = clock[0];
  const times = channel.times, values = channel.values, interpolation = channel.interpolation;
  const c = channel.path === 'rotation' ? 4 : 3;
  const last = times.length - 1;
  if (interpolation === 'LINEAR' && last > 0 && t > times[0] && t < times[last]) {
    // The common case first, no further dispatch.
    if (c === 4) slerpInterval(times, values, key, clock, out, offset);
    else lerpInterval(times, values, key, clock, 3, out, offset);
    return;
  }
  if (last === 0 || t <= times[0] || t >= times[last]) {
    // Clamp: the first or last key's value. Where the value sits inside a key depends on the layout.
    const k = last === 0 || t <= times[0] ? 0 : last;
    let base: number;
    switch (interpolation) {
      case 'CUBICSPLINE': base = k * 3 * c + c; break;
      case 'HERMITE': base = k * 2 * c; break;
      case 'BEZIER': base = k * 5 * c + 2 * c; break;
      default: base = k * c;
    }
    for (let i = 0; i < c; i++) out[offset + i] = values[base + i];
    return;
  }
  switch (interpolation) {
    case 'STEP': {
      const a = key * c;
      for (let i = 0; i < c; i++) out[offset + i] = values[a + i];
      return;
    }
    case 'CUBICSPLINE': {
      // Keys are (in-tangent, value, out-tangent): b_k follows key k's value, a_{k+1} precedes key k+1's.
      const a = key * 3 * c + c, b = a + 3 * c;
      hermiteInterval(times, values, key, clock, a, a + c, b, b - c, c, out, offset);
      break;
    }
    case 'HERMITE': {
      const a = key * 2 * c, b = a + 2 * c;
      hermiteInterval(times, values, key, clock, a, a + c, b, b + c, c, out, offset);
      break;
    }
    case 'BEZIER':
      bezierInterval(times, values, key, clock, c, out, offset);
      break;
    case 'CATMULLROM':
      catmullRomInterval(times, values, key, clock, c, out, offset);
      break;
  }
  if (c === 4) normalizeQuatAt(out, offset);
}
