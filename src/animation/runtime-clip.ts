import { componentCount, keyStride, keyValueOffset, type AnimationClip } from './animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { findKeyframe } from './keyframe-search.ts';
import { bezierInterval } from './samplers/bezier.ts';
import { catmullRomInterval } from './samplers/catmull-rom.ts';
import { hermiteInterval } from './samplers/cubic-hermite.ts';
import { normalizeQuatAt, slerpQuaternions } from './samplers/linear.ts';

/**
 * A clip prepared once for per-frame sampling (`compileClip`, cached per clip by {@link getCompiledClip}),
 * so that the frame loop does no string compares, no property loads on channel objects of varying shapes
 * and no calls for the common kinds:
 *
 * - **Timelines.** Channels whose key times are equal (glTF samplers usually share one input accessor;
 *   Fox's 21 channels have one timeline) share one key search and one interval parameter
 *   s = (t − t_k)/(t_{k+1} − t_k) per frame. Equal means the same `Float32Array` or the same values.
 * - **Groups.** Channels are split by kind into monomorphic loops over typed arrays: LINEAR rotations
 *   (shortest-arc slerp, inlined), LINEAR translations and scales (lerp, inlined), STEP (copy), and the
 *   cubic kinds (CUBICSPLINE, HERMITE, BEZIER, CATMULLROM), which call their kernels in `samplers/`.
 *
 * Results are bit-for-bit those of each channel sampled alone in clip order (the unit tests' oracle): the same formulas
 * in the same floating-point order. Where two channels target the same joint property (glTF forbids it),
 * the later one wins, as in clip order.
 *
 * A clip's `channels` and their `times` must not change after its first sample (the values may: they are
 * read in place). Per-frame scratch (each timeline's interval and s) lives on the compiled clip, so
 * sampling allocates nothing.
 */
export interface CompiledClip {
  readonly clip: AnimationClip;
  /** The distinct key-time arrays, `Float32Array(k)` each. */
  readonly timelines: readonly Float32Array[];
  /** `Int32Array(timelineCount)`: the channel whose {@link ClipCursor} entry keeps this timeline's hint. */
  readonly timelineCursor: Int32Array;
  /** Scratch `Int32Array(timelineCount)`: this frame's interval index (`findKeyframe`'s answer). */
  readonly timelineInterval: Int32Array;
  /**
   * Scratch `Int32Array(timelineCount)`: −1 when t lies strictly inside the key range (interpolate), else
   * the key whose value holds (0 before the first key or for a single key, k−1 after the last).
   */
  readonly timelineHold: Int32Array;
  /** Scratch `Float64Array(timelineCount)`: s of the interval, when interpolating. */
  readonly timelineS: Float64Array;

  /** LINEAR rotations: timeline index, key values `Float32Array(4k)`, output offset 4·joint. */
  readonly slerpTimeline: Int32Array;
  readonly slerpValues: readonly Float32Array[];
  readonly slerpOffset: Int32Array;
  /** LINEAR translations and scales: timeline, values `Float32Array(3k)`, offset 3·joint, 1 for scale. */
  readonly lerpTimeline: Int32Array;
  readonly lerpValues: readonly Float32Array[];
  readonly lerpOffset: Int32Array;
  readonly lerpIsScale: Uint8Array;
  /** STEP channels: timeline, values `Float32Array(k·c)`, offset c·joint, path 0 translation 1 rotation 2 scale. */
  readonly stepTimeline: Int32Array;
  readonly stepValues: readonly Float32Array[];
  readonly stepOffset: Int32Array;
  readonly stepPath: Uint8Array;
  /**
   * The cubic kinds (CUBICSPLINE, HERMITE, BEZIER, CATMULLROM): timeline, offset, path as for STEP, kind
   * (`CUBIC_KIND`), key times and values; per key `stride` floats with the value at `valueOffset`
   * (`keyStride`, `keyValueOffset`), and for the Hermite kinds the tangent leaving a key at value + `leave`
   * and the one arriving at value + `arrive` (CUBICSPLINE +c and −c, HERMITE +c and +c).
   */
  readonly cubicTimeline: Int32Array;
  readonly cubicOffset: Int32Array;
  readonly cubicPath: Uint8Array;
  readonly cubicKind: Uint8Array;
  readonly cubicTimes: readonly Float32Array[];
  readonly cubicValues: readonly Float32Array[];
  readonly cubicStride: Int32Array;
  readonly cubicValueOffset: Int32Array;
  readonly cubicLeave: Int32Array;
  readonly cubicArrive: Int32Array;
}

const cache = new WeakMap<AnimationClip, CompiledClip>();

/** The compiled form of `clip`, built on first use and cached (weakly) per clip object. */
export function getCompiledClip(clip: AnimationClip): CompiledClip {
  let compiled = cache.get(clip);
  if (!compiled) {
    compiled = compileClip(clip);
    cache.set(clip, compiled);
  }
  return compiled;
}

function sameTimes(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const PATH_CODE = { translation: 0, rotation: 1, scale: 2 } as const;
/** Codes of the cubic kinds in `CompiledClip.cubicKind`. */
const CUBIC_KIND = { CUBICSPLINE: 0, HERMITE: 1, BEZIER: 2, CATMULLROM: 3 } as const;

/** Builds the {@link CompiledClip} of `clip` (allocates; once per clip). */
export function compileClip(clip: AnimationClip): CompiledClip {
  const channels = clip.channels;
  // The last channel per (joint, path) target wins, as when sampling in clip order.
  const winner = new Map<string, number>();
  channels.forEach((ch, i) => winner.set(`${ch.joint}/${ch.path}`, i));
  const timelines: Float32Array[] = [];
  const timelineCursor: number[] = [];
  const timelineOf = (i: number): number => {
    const times = channels[i].times;
    for (let u = 0; u < timelines.length; u++) if (sameTimes(timelines[u], times)) return u;
    timelines.push(times);
    timelineCursor.push(i);
    return timelines.length - 1;
  };
  const slerp = { timeline: [] as number[], values: [] as Float32Array[], offset: [] as number[] };
  const lerp = { timeline: [] as number[], values: [] as Float32Array[], offset: [] as number[], isScale: [] as number[] };
  const step = { timeline: [] as number[], values: [] as Float32Array[], offset: [] as number[], path: [] as number[] };
  const cubic = {
    timeline: [] as number[], offset: [] as number[], path: [] as number[], kind: [] as number[],
    times: [] as Float32Array[], values: [] as Float32Array[],
    stride: [] as number[], valueOffset: [] as number[], leave: [] as number[], arrive: [] as number[],
  };
  channels.forEach((ch, i) => {
    if (winner.get(`${ch.joint}/${ch.path}`) !== i) return;
    const u = timelineOf(i);
    const c = componentCount(ch.path);
    const offset = c * ch.joint;
    if (ch.interpolation === 'LINEAR' && c === 4) {
      slerp.timeline.push(u); slerp.values.push(ch.values); slerp.offset.push(offset);
    } else if (ch.interpolation === 'LINEAR') {
      lerp.timeline.push(u); lerp.values.push(ch.values); lerp.offset.push(offset); lerp.isScale.push(ch.path === 'scale' ? 1 : 0);
    } else if (ch.interpolation === 'STEP') {
      step.timeline.push(u); step.values.push(ch.values); step.offset.push(offset); step.path.push(PATH_CODE[ch.path]);
    } else {
      const kind = ch.interpolation as keyof typeof CUBIC_KIND;
      cubic.timeline.push(u); cubic.offset.push(offset); cubic.path.push(PATH_CODE[ch.path]); cubic.kind.push(CUBIC_KIND[kind]);
      cubic.times.push(ch.times); cubic.values.push(ch.values);
      cubic.stride.push(keyStride(kind, c)); cubic.valueOffset.push(keyValueOffset(kind, c));
      cubic.leave.push(c); cubic.arrive.push(kind === 'CUBICSPLINE' ? -c : c);
    }
  });
  const n = timelines.length;
  return {
    clip,
    timelines,
    timelineCursor: Int32Array.from(timelineCursor),
    timelineInterval: new Int32Array(n),
    timelineHold: new Int32Array(n),
    timelineS: new Float64Array(n),
    slerpTimeline: Int32Array.from(slerp.timeline), slerpValues: slerp.values, slerpOffset: Int32Array.from(slerp.offset),
    lerpTimeline: Int32Array.from(lerp.timeline), lerpValues: lerp.values, lerpOffset: Int32Array.from(lerp.offset),
    lerpIsScale: Uint8Array.from(lerp.isScale),
    stepTimeline: Int32Array.from(step.timeline), stepValues: step.values, stepOffset: Int32Array.from(step.offset),
    stepPath: Uint8Array.from(step.path),
    cubicTimeline: Int32Array.from(cubic.timeline), cubicOffset: Int32Array.from(cubic.offset),
    cubicPath: Uint8Array.from(cubic.path), cubicKind: Uint8Array.from(cubic.kind),
    cubicTimes: cubic.times, cubicValues: cubic.values,
    cubicStride: Int32Array.from(cubic.stride), cubicValueOffset: Int32Array.from(cubic.valueOffset),
    cubicLeave: Int32Array.from(cubic.leave), cubicArrive: Int32Array.from(cubic.arrive),
  };
}

/**
 * Samples a compiled clip at t = `clock[0]` seconds into `out` (only the animated properties), as
 * `sampleClipAt` does: per timeline the interval [k, k+1] with t_k ≤ t < t_{k+1} is found from the hint in
 * `cursor` (O(1) for playback, binary search after a jump; the same answer as `findKeyframe`), then each
 * group's kernel runs inline. Allocates nothing.
 *
 * @param cursor `Int32Array(channelCount)` from `createClipCursor`, or null: entry `timelineCursor[u]`
 *   keeps timeline u's interval (the entries of channels that share an earlier channel's timeline are
 *   not used)
 */
export function sampleCompiledClip(out: LocalPose, compiled: CompiledClip, clock: Float64Array, cursor: Int32Array | null): LocalPose {
  const t = clock[0];
  const timelines = compiled.timelines, timelineCursor = compiled.timelineCursor;
  const intervals = compiled.timelineInterval, holds = compiled.timelineHold, ss = compiled.timelineS;
  for (let u = 0; u < timelines.length; u++) {
    const times = timelines[u];
    const lastKey = times.length - 1, last = lastKey - 1;
    if (last < 0 || !(t > times[0])) {
      // Single key, before the first key (or t is NaN): the first key's value holds.
      intervals[u] = 0;
      holds[u] = 0;
      if (cursor) cursor[timelineCursor[u]] = 0;
      continue;
    }
    if (t >= times[lastKey]) {
      intervals[u] = last;
      holds[u] = lastKey;
      if (cursor) cursor[timelineCursor[u]] = last;
      continue;
    }
    const k = findKeyframe(times, clock, cursor ? cursor[timelineCursor[u]] : 0);
    intervals[u] = k;
    holds[u] = -1;
    if (cursor) cursor[timelineCursor[u]] = k;
    const t0 = times[k];
    ss[u] = (t - t0) / (times[k + 1] - t0);
  }

  // LINEAR rotations: shortest-arc slerp by samplers/linear.ts's kernel (s from the shared timeline). Indices
  // are written `(a + k) | 0`: int32 adds without overflow checks, fewer instructions per element in V8.
  const rotations = out.rotations;
  const slerpTimeline = compiled.slerpTimeline, slerpValues = compiled.slerpValues, slerpOffset = compiled.slerpOffset;
  for (let i = 0; i < slerpTimeline.length; i++) {
    const u = slerpTimeline[i], q = slerpValues[i], o = slerpOffset[i];
    const hold = holds[u];
    if (hold >= 0) {
      const h = hold << 2;
      rotations[o] = q[h]; rotations[(o + 1) | 0] = q[(h + 1) | 0]; rotations[(o + 2) | 0] = q[(h + 2) | 0]; rotations[(o + 3) | 0] = q[(h + 3) | 0];
      continue;
    }
    const a = intervals[u] << 2;
    slerpQuaternions(q, a, (a + 4) | 0, ss, u, rotations, o);
  }

  // LINEAR translations and scales: `(1−s)·v_k + s·v_{k+1}` as `v_k + s·(v_{k+1} − v_k)` (lerpInterval).
  const translations = out.translations, scales = out.scales;
  const lerpTimeline = compiled.lerpTimeline, lerpValues = compiled.lerpValues, lerpOffset = compiled.lerpOffset;
  const lerpIsScale = compiled.lerpIsScale;
  for (let i = 0; i < lerpTimeline.length; i++) {
    const u = lerpTimeline[i], v = lerpValues[i], o = lerpOffset[i];
    const target = lerpIsScale[i] === 1 ? scales : translations;
    const hold = holds[u];
    if (hold >= 0) {
      const h = (3 * hold) | 0;
      target[o] = v[h]; target[(o + 1) | 0] = v[(h + 1) | 0]; target[(o + 2) | 0] = v[(h + 2) | 0];
      continue;
    }
    const s = ss[u];
    const a = (3 * intervals[u]) | 0, b = (a + 3) | 0;
    target[o] = v[a] + s * (v[b] - v[a]);
    target[(o + 1) | 0] = v[(a + 1) | 0] + s * (v[(b + 1) | 0] - v[(a + 1) | 0]);
    target[(o + 2) | 0] = v[(a + 2) | 0] + s * (v[(b + 2) | 0] - v[(a + 2) | 0]);
  }

  // STEP: the value of key k (or the held end key).
  const stepTimeline = compiled.stepTimeline, stepValues = compiled.stepValues, stepOffset = compiled.stepOffset;
  const stepPath = compiled.stepPath;
  for (let i = 0; i < stepTimeline.length; i++) {
    const u = stepTimeline[i], v = stepValues[i], o = stepOffset[i], path = stepPath[i];
    const target = path === 0 ? translations : path === 1 ? rotations : scales;
    const c = path === 1 ? 4 : 3;
    const hold = holds[u];
    const a = c * (hold >= 0 ? hold : intervals[u]);
    for (let j = 0; j < c; j++) target[o + j] = v[a + j];
  }

  // The cubic kinds: each channel's kernel (samplers/), rotations normalised after; or the held key's value.
  const cubicTimeline = compiled.cubicTimeline, cubicOffset = compiled.cubicOffset, cubicPath = compiled.cubicPath;
  const cubicKind = compiled.cubicKind, cubicTimes = compiled.cubicTimes, cubicValues = compiled.cubicValues;
  const cubicStride = compiled.cubicStride, cubicValueOffset = compiled.cubicValueOffset;
  const cubicLeave = compiled.cubicLeave, cubicArrive = compiled.cubicArrive;
  for (let i = 0; i < cubicTimeline.length; i++) {
    const path = cubicPath[i], u = cubicTimeline[i], o = cubicOffset[i], v = cubicValues[i];
    const target = path === 0 ? translations : path === 1 ? rotations : scales;
    const c = path === 1 ? 4 : 3;
    const hold = holds[u];
    if (hold >= 0) {
      const a = hold * cubicStride[i] + cubicValueOffset[i];
      for (let j = 0; j < c; j++) target[o + j] = v[a + j];
      continue;
    }
    const key = intervals[u], times = cubicTimes[i], kind = cubicKind[i];
    if (kind === CUBIC_KIND.BEZIER) {
      bezierInterval(times, v, key, clock, c, target, o);
    } else if (kind === CUBIC_KIND.CATMULLROM) {
      catmullRomInterval(times, v, key, clock, c, target, o);
    } else {
      const stride = cubicStride[i], a = key * stride + cubicValueOffset[i], b = a + stride;
      hermiteInterval(times, v, key, clock, a, a + cubicLeave[i], b, b + cubicArrive[i], c, target, o);
    }
    if (c === 4) normalizeQuatAt(target, o);
  }
  return out;
}
