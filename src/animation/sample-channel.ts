import type { AnimationChannel } from './animation-clip.ts';
import { bezierKeys } from './samplers/bezier.ts';
import { catmullRomKeys } from './samplers/catmull-rom.ts';
import { hermiteKeys } from './samplers/cubic-hermite.ts';
import { lerpKeys, normalizeQuatAt, slerpKeys } from './samplers/linear.ts';

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
  const { times, values, interpolation } = channel;
  const c = channel.path === 'rotation' ? 4 : 3;
  const count = times.length;
  if (count === 1 || t <= times[0] || t >= times[count - 1]) {
    // Clamp: the first or last key's value. Where the value sits inside a key depends on the layout.
    const k = count === 1 || t <= times[0] ? 0 : count - 1;
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
  const t0 = times[key];
  const dt = times[key + 1] - t0;
  const s = (t - t0) / dt;
  switch (interpolation) {
    case 'LINEAR': {
      const a = key * c;
      if (c === 4) slerpKeys(values, a, a + 4, s, out, offset);
      else lerpKeys(values, a, a + c, s, c, out, offset);
      return;
    }
    case 'STEP': {
      const a = key * c;
      for (let i = 0; i < c; i++) out[offset + i] = values[a + i];
      return;
    }
    case 'CUBICSPLINE': {
      // Keys are (in-tangent, value, out-tangent): b_k follows key k's value, a_{k+1} precedes key k+1's.
      const a = key * 3 * c + c, b = a + 3 * c;
      hermiteKeys(values, a, a + c, b, b - c, dt, s, c, out, offset);
      break;
    }
    case 'HERMITE': {
      const a = key * 2 * c, b = a + 2 * c;
      hermiteKeys(values, a, a + c, b, b + c, dt, s, c, out, offset);
      break;
    }
    case 'BEZIER':
      bezierKeys(values, key, c, dt, t - t0, out, offset);
      break;
    case 'CATMULLROM':
      catmullRomKeys(times, values, key, s, c, out, offset);
      break;
  }
  if (c === 4) normalizeQuatAt(out, offset);
}
