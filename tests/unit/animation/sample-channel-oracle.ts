/**
 * Test oracle: one channel sampled on its own, every interpolation kind through one dispatch, with the time as
 * a plain number. Production samples whole clips (src/animation/sample-clip.ts: key search shared per
 * timeline, kinds grouped); tests hold each channel of `sampleClip`'s result to this, and the kernels in
 * `src/animation/samplers/` to three.js and gl-matrix through it. Allocates per call (test code).
 */
import { componentCount, keyStride, keyValueOffset, type AnimationChannel } from '../../../src/asset/animation-clip.ts';
import { findKeyframe as findKeyframeIn } from '../../../src/animation/keyframe-search.ts';
import { bezierInterval } from '../../../src/animation/samplers/bezier.ts';
import { catmullRomInterval } from '../../../src/animation/samplers/catmull-rom.ts';
import { hermiteInterval } from '../../../src/animation/samplers/cubic-hermite.ts';
import { normalizeQuatAt, slerpQuaternions } from '../../../src/animation/samplers/linear.ts';

/** `findKeyframe` (src/animation/keyframe-search.ts) at a time given as a number. */
export function findKeyframe(times: Float32Array, t: number, hint: number): number {
  return findKeyframeIn(times, Float64Array.of(t), hint);
}

/**
 * Samples one channel at time `t` (seconds) into `out[offset … offset+c)`, c = 3 or 4, by the rules of
 * docs/explanation/skinning-formulas.md S4 and glTF 2.0 Appendix C: the first key's value before the first key, the last
 * key's after the last, interpolated in between (per kind, `src/animation/sample-clip.ts`).
 *
 * @param key the interval index from `findKeyframe`
 */
export function sampleChannel(channel: AnimationChannel, t: number, key: number, out: Float32Array, offset: number): void {
  const { times, values, interpolation } = channel;
  const clock = Float64Array.of(t);
  const c = componentCount(channel);
  const stride = keyStride(interpolation, c), valueOffset = keyValueOffset(interpolation, c);
  const last = times.length - 1;
  if (last === 0 || t <= times[0] || t >= times[last]) {
    const base = (last === 0 || t <= times[0] ? 0 : last) * stride + valueOffset;
    for (let i = 0; i < c; i++) out[offset + i] = values[base + i];
    return;
  }
  const s = (t - times[key]) / (times[key + 1] - times[key]);
  switch (interpolation) {
    case 'STEP':
      for (let i = 0; i < c; i++) out[offset + i] = values[key * c + i];
      return;
    case 'LINEAR':
      if (channel.path === 'rotation') slerpQuaternions(values, 4 * key, 4 * key + 4, Float64Array.of(s), 0, out, offset);
      else for (let i = 0; i < c; i++) out[offset + i] = values[key * c + i] + s * (values[(key + 1) * c + i] - values[key * c + i]);
      return;
    case 'CUBICSPLINE': {
      // Keys are (in-tangent, value, out-tangent): b_k follows key k's value, a_{k+1} precedes key k+1's.
      const a = key * stride + valueOffset, b = a + stride;
      hermiteInterval(times, values, key, clock, a, a + c, b, b - c, c, out, offset);
      break;
    }
    case 'HERMITE': {
      const a = key * stride, b = a + stride;
      hermiteInterval(times, values, key, clock, a, a + c, b, b + c, c, out, offset);
      break;
    }
    case 'BEZIER':
      bezierInterval(times, values, key, clock, c, out, offset);
      break;
    case 'CATMULLROM':
      catmullRomInterval(times, values, key, clock, c, channel.path === 'rotation', out, offset);
      break;
  }
  if (channel.path === 'rotation') normalizeQuatAt(out, offset);
}
