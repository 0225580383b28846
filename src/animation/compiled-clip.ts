import { keyStride, keyValueOffset, type AnimationChannel, type AnimationClip } from './animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { sampleChannelAt } from './sample-channel.ts';
import { slerpQuaternions } from './samplers/linear.ts';

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
 *   cubic kinds (CUBICSPLINE, HERMITE, BEZIER, CATMULLROM), which call {@link sampleChannelAt}.
 *
 * Results are bit-for-bit those of {@link sampleChannelAt} on each channel in clip order: the same formulas
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
   * Every other channel (the cubic kinds), sampled by `sampleChannelAt` inside the key range: timeline,
   * offset, path as for STEP; outside it the held key's value is copied (`keyStride`, `keyValueOffset`).
   */
  readonly otherChannels: readonly AnimationChannel[];
  readonly otherTimeline: Int32Array;
  readonly otherOffset: Int32Array;
  readonly otherPath: Uint8Array;
  readonly otherStride: Int32Array;
  readonly otherValueOffset: Int32Array;
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
  const other = {
    channels: [] as AnimationChannel[], timeline: [] as number[], offset: [] as number[], path: [] as number[],
    stride: [] as number[], valueOffset: [] as number[],
  };
  channels.forEach((ch, i) => {
    if (winner.get(`${ch.joint}/${ch.path}`) !== i) return;
    const u = timelineOf(i);
    const c = ch.path === 'rotation' ? 4 : 3;
    const offset = c * ch.joint;
    if (ch.interpolation === 'LINEAR' && c === 4) {
      slerp.timeline.push(u); slerp.values.push(ch.values); slerp.offset.push(offset);
    } else if (ch.interpolation === 'LINEAR') {
      lerp.timeline.push(u); lerp.values.push(ch.values); lerp.offset.push(offset); lerp.isScale.push(ch.path === 'scale' ? 1 : 0);
    } else if (ch.interpolation === 'STEP') {
      step.timeline.push(u); step.values.push(ch.values); step.offset.push(offset); step.path.push(PATH_CODE[ch.path]);
    } else {
      other.channels.push(ch); other.timeline.push(u); other.offset.push(offset); other.path.push(PATH_CODE[ch.path]);
      other.stride.push(keyStride(ch.interpolation, c)); other.valueOffset.push(keyValueOffset(ch.interpolation, c));
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
    otherChannels: other.channels, otherTimeline: Int32Array.from(other.timeline), otherOffset: Int32Array.from(other.offset),
    otherPath: Uint8Array.from(other.path),
    otherStride: Int32Array.from(other.stride), otherValueOffset: Int32Array.from(other.valueOffset),
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
    // times[0] < t < times[lastKey]: find k in [0, last] with times[k] ≤ t < times[k+1].
    const hint = cursor ? cursor[timelineCursor[u]] : 0;
    let k = hint > last ? last : hint < 0 ? 0 : hint;
    let lo = -1, hi = -1; // a binary search range, when the hint is far off
    if (times[k] <= t) {
      if (times[k + 1] <= t) {
        // Forward a few keys (playback), then binary search (a seek). times[last + 1] > t stops the walk.
        k++;
        if (times[k + 1] <= t) {
          k++;
          if (times[k + 1] <= t) { lo = k + 1; hi = last; }
        }
      }
    } else if (k > 0 && times[k - 1] <= t) {
      k--; // one key back (reverse playback)
    } else {
      lo = 0; hi = k - 1; // times[0] < t
    }
    if (lo >= 0) {
      // The largest k in [lo, hi] with times[k] ≤ t, given times[lo] ≤ t. Inline: no float argument to box.
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (times[mid] <= t) lo = mid;
        else hi = mid - 1;
      }
      k = lo;
    }
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

  // The cubic kinds: per channel through sampleChannelAt, or the held key's value (its clamp).
  const otherChannels = compiled.otherChannels, otherTimeline = compiled.otherTimeline;
  const otherOffset = compiled.otherOffset, otherPath = compiled.otherPath;
  const otherStride = compiled.otherStride, otherValueOffset = compiled.otherValueOffset;
  for (let i = 0; i < otherChannels.length; i++) {
    const path = otherPath[i], u = otherTimeline[i], o = otherOffset[i];
    const target = path === 0 ? translations : path === 1 ? rotations : scales;
    const hold = holds[u];
    if (hold >= 0) {
      const v = otherChannels[i].values, a = hold * otherStride[i] + otherValueOffset[i];
      const c = path === 1 ? 4 : 3;
      for (let j = 0; j < c; j++) target[o + j] = v[a + j];
      continue;
    }
    sampleChannelAt(otherChannels[i], clock, intervals[u], target, o);
  }
  return out;
}
