import {
  componentCount, keyStride, keyValueOffset, validateAnimationChannel, type AnimationClip, type Interpolation,
} from '../asset/animation-clip.ts';
import { compileMarkers, type MarkerTrack } from './clip-markers.ts';
import { hasHermiteForm, hermiteIntervals } from './hermite-intervals.ts';
import { HermiteStream, type HermiteStreamTrack } from './hermite-stream.ts';
import { KeyStream, type KeyStreamTrack } from './key-stream.ts';
import { WeightChannels, type WeightChannel } from './weight-channels.ts';

/** Codes of the cubic kinds in {@link RuntimeClip.cubicKind}. */
export const CUBIC_KIND = { CUBICSPLINE: 0, HERMITE: 1, BEZIER: 2, CATMULLROM: 3 } as const;

/** Codes of the interpolation of a `weights` channel in {@link RuntimeClip.morphKind}: the cubic kinds, then these. */
export const MORPH_KIND = { ...CUBIC_KIND, STEP: 4, LINEAR: 5 } as const;

/** Codes of the animated property in the `*Path` arrays of {@link RuntimeClip}. */
const PATH_CODE = { translation: 0, rotation: 1, scale: 2 } as const;

/**
 * A clip prepared once for per-frame sampling by {@link compileClip}: validated, copied (so nothing can change
 * it afterwards: the clip it was made from may be edited or dropped) and laid out so that the frame loop
 * (`sampleClip`) does no string compares, no property loads on channel objects of varying shapes and no
 * calls for the common kinds:
 *
 * - **Timelines.** Channels whose key times are equal (glTF samplers usually share one input accessor; all
 *   of Fox's channels share one) share one key search and one interval parameter
 *   s = (t − t_k)/(t_{k+1} − t_k) per frame. Equal means the same `Float32Array` or the same values.
 * - **Groups.** Channels are split by kind into monomorphic loops over typed arrays: LINEAR rotations
 *   (shortest-arc slerp), LINEAR translations and scales (lerp), STEP (copy), and the cubic kinds
 *   (CUBICSPLINE, HERMITE, BEZIER, CATMULLROM), each through its kernel in `samplers/`. Morph `weights`
 *   channels form a group of their own (any interpolation, n components each), apart from the joint loops,
 *   which they leave as they were.
 *
 * Where two channels target the same joint property (glTF forbids it), the later one wins, as in clip
 * order. Per-frame state (cursors, this frame's intervals) lives in the caller's `SamplingContext`, so one
 * runtime clip may be sampled by any number of players at once. The object is frozen; its arrays are its
 * own and read-only by contract.
 */
export class RuntimeClip {
  readonly name: string;
  /** Seconds: the source clip's duration (finite, ≥ 0). */
  readonly duration: number;
  /** Joints a pose needs for this clip: 1 + the largest joint a channel targets (0 without channels). */
  readonly requiredJointCount: number;
  /** `LocalPose.morphWeights` entries a pose needs for this clip: the largest end of a `weights` channel's range (0 without). */
  readonly requiredMorphWeightCount: number;
  /** The clip's markers (`AnimationClip.markers`), sorted by time; `ClipPlayer` reports their crossings. */
  readonly markers: MarkerTrack;
  /** The distinct key-time arrays, `Float32Array(k)` each, k ≥ 1, strictly increasing seconds. */
  readonly timelines: readonly Float32Array[];

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
   * The cubic kinds: timeline, offset, path as for STEP, kind ({@link CUBIC_KIND}), key times and values
   * (`AnimationChannel.values` layouts); per key `stride` floats with the value at `valueOffset`
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
  /**
   * `weights` channels: timeline, first morph weight written (`morphWeightOffset`), count n, kind
   * ({@link MORPH_KIND}), key times and values (`AnimationChannel.values` layouts with c = n), `stride`,
   * `valueOffset`, `leave` and `arrive` as for the cubic kinds.
   */
  readonly morphTimeline: Int32Array;
  readonly morphOffset: Int32Array;
  readonly morphCount: Int32Array;
  readonly morphKind: Uint8Array;
  readonly morphTimes: readonly Float32Array[];
  readonly morphValues: readonly Float32Array[];
  readonly morphStride: Int32Array;
  readonly morphValueOffset: Int32Array;
  readonly morphLeave: Int32Array;
  readonly morphArrive: Int32Array;
  /**
   * The LINEAR and STEP translations and scales, and the LINEAR and STEP rotations, again, laid out for a
   * forward cursor ({@link KeyStream}): what the pose room's SamplingKernel samples in place of the loops over
   * the slerp, lerp and step groups above (docs/explanation/animation-sampling.md).
   */
  readonly vec3Stream: KeyStream;
  readonly quatStream: KeyStream;
  /**
   * The cubic translations and scales and the cubic rotations, again, as Hermite intervals for a forward cursor
   * ({@link HermiteStream}), and the morph `weights` channels as {@link WeightChannels}: every cubic and
   * `weights` channel but BEZIER with handles off thirds in time (`hasHermiteForm`), which the kernel samples in
   * place of the cubic and morph loops.
   */
  readonly vec3HermiteStream: HermiteStream;
  readonly quatHermiteStream: HermiteStream;
  readonly weightChannels: WeightChannels;
  /**
   * What the streams leave to the portable loops when a kernel samples them: indices into the cubic group and
   * into the `weights` group of the BEZIER channels without a Hermite form, and the timelines those use (ascending).
   */
  readonly portableCubic: Int32Array;
  readonly portableMorph: Int32Array;
  readonly portableTimelines: Int32Array;

  /** Use {@link compileClip}, which validates `clip` first. */
  constructor(clip: AnimationClip) {
    const channels = clip.channels;
    this.name = clip.name;
    this.duration = clip.duration;
    this.markers = compileMarkers(clip.markers, clip.duration, clip.name);
    // The last channel per (joint, path) target wins, as when sampling in clip order.
    const winner = new Map<string, number>();
    channels.forEach((ch, i) => winner.set(`${ch.joint}/${ch.path}`, i));
    const sources: Float32Array[] = [];
    const timelines: Float32Array[] = [];
    const timelineOf = (times: Float32Array): number => {
      for (let u = 0; u < sources.length; u++) if (sameTimes(sources[u], times)) return u;
      sources.push(times);
      timelines.push(times.slice());
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
    const morph = {
      timeline: [] as number[], offset: [] as number[], count: [] as number[], kind: [] as number[],
      times: [] as Float32Array[], values: [] as Float32Array[],
      stride: [] as number[], valueOffset: [] as number[], leave: [] as number[], arrive: [] as number[],
    };
    let requiredJointCount = 0, requiredMorphWeightCount = 0;
    channels.forEach((ch, i) => {
      requiredJointCount = Math.max(requiredJointCount, ch.joint + 1);
      if (winner.get(`${ch.joint}/${ch.path}`) !== i) return;
      const u = timelineOf(ch.times);
      const values = ch.values.slice();
      const c = componentCount(ch);
      if (ch.path === 'weights') {
        const kind = ch.interpolation;
        requiredMorphWeightCount = Math.max(requiredMorphWeightCount, ch.morphWeightOffset! + c);
        morph.timeline.push(u); morph.offset.push(ch.morphWeightOffset!); morph.count.push(c); morph.kind.push(MORPH_KIND[kind]);
        morph.times.push(timelines[u]); morph.values.push(values);
        morph.stride.push(keyStride(kind, c)); morph.valueOffset.push(keyValueOffset(kind, c));
        morph.leave.push(c); morph.arrive.push(kind === 'CUBICSPLINE' ? -c : c);
        return;
      }
      const path = ch.path;
      const offset = c * ch.joint;
      if (ch.interpolation === 'LINEAR' && c === 4) {
        slerp.timeline.push(u); slerp.values.push(values); slerp.offset.push(offset);
      } else if (ch.interpolation === 'LINEAR') {
        lerp.timeline.push(u); lerp.values.push(values); lerp.offset.push(offset); lerp.isScale.push(ch.path === 'scale' ? 1 : 0);
      } else if (ch.interpolation === 'STEP') {
        step.timeline.push(u); step.values.push(values); step.offset.push(offset); step.path.push(PATH_CODE[path]);
      } else {
        const kind = ch.interpolation;
        cubic.timeline.push(u); cubic.offset.push(offset); cubic.path.push(PATH_CODE[path]); cubic.kind.push(CUBIC_KIND[kind]);
        cubic.times.push(timelines[u]); cubic.values.push(values);
        cubic.stride.push(keyStride(kind, c)); cubic.valueOffset.push(keyValueOffset(kind, c));
        cubic.leave.push(c); cubic.arrive.push(kind === 'CUBICSPLINE' ? -c : c);
      }
    });
    this.requiredJointCount = requiredJointCount;
    this.requiredMorphWeightCount = requiredMorphWeightCount;
    this.timelines = timelines;
    this.slerpTimeline = Int32Array.from(slerp.timeline); this.slerpValues = slerp.values; this.slerpOffset = Int32Array.from(slerp.offset);
    this.lerpTimeline = Int32Array.from(lerp.timeline); this.lerpValues = lerp.values; this.lerpOffset = Int32Array.from(lerp.offset);
    this.lerpIsScale = Uint8Array.from(lerp.isScale);
    this.stepTimeline = Int32Array.from(step.timeline); this.stepValues = step.values; this.stepOffset = Int32Array.from(step.offset);
    this.stepPath = Uint8Array.from(step.path);
    this.cubicTimeline = Int32Array.from(cubic.timeline); this.cubicOffset = Int32Array.from(cubic.offset);
    this.cubicPath = Uint8Array.from(cubic.path); this.cubicKind = Uint8Array.from(cubic.kind);
    this.cubicTimes = cubic.times; this.cubicValues = cubic.values;
    this.cubicStride = Int32Array.from(cubic.stride); this.cubicValueOffset = Int32Array.from(cubic.valueOffset);
    this.cubicLeave = Int32Array.from(cubic.leave); this.cubicArrive = Int32Array.from(cubic.arrive);
    this.morphTimeline = Int32Array.from(morph.timeline); this.morphOffset = Int32Array.from(morph.offset);
    this.morphCount = Int32Array.from(morph.count); this.morphKind = Uint8Array.from(morph.kind);
    this.morphTimes = morph.times; this.morphValues = morph.values;
    this.morphStride = Int32Array.from(morph.stride); this.morphValueOffset = Int32Array.from(morph.valueOffset);
    this.morphLeave = Int32Array.from(morph.leave); this.morphArrive = Int32Array.from(morph.arrive);
    const vec3: KeyStreamTrack[] = [], quat: KeyStreamTrack[] = [];
    slerp.timeline.forEach((u, i) => quat.push({ times: timelines[u], values: slerp.values[i], step: false, offset: slerp.offset[i], path: 1 }));
    lerp.timeline.forEach((u, i) => vec3.push({ times: timelines[u], values: lerp.values[i], step: false, offset: lerp.offset[i], path: lerp.isScale[i] ? 2 : 0 }));
    step.timeline.forEach((u, i) => {
      const track = { times: timelines[u], values: step.values[i], step: true, offset: step.offset[i], path: step.path[i] };
      (step.path[i] === 1 ? quat : vec3).push(track);
    });
    this.vec3Stream = new KeyStream(3, vec3);
    this.quatStream = new KeyStream(4, quat);
    const hermiteVec3: HermiteStreamTrack[] = [], hermiteQuat: HermiteStreamTrack[] = [], weights: WeightChannel[] = [];
    const portableCubic: number[] = [], portableMorph: number[] = [], portableTimelines = new Set<number>();
    cubic.kind.forEach((code, i) => {
      const kind = INTERPOLATION_OF[code], times = cubic.times[i], path = cubic.path[i], c = path === 1 ? 4 : 3;
      if (!hasHermiteForm(kind, times, cubic.values[i], c)) {
        portableCubic.push(i);
        portableTimelines.add(cubic.timeline[i]);
        return;
      }
      const last = lastValue(cubic.values[i], times.length, cubic.stride[i], cubic.valueOffset[i], c);
      const track = { times, intervals: hermiteIntervals(kind, times, cubic.values[i], c, path === 1), last, offset: cubic.offset[i], path };
      (path === 1 ? hermiteQuat : hermiteVec3).push(track);
    });
    morph.kind.forEach((code, i) => {
      const kind = INTERPOLATION_OF[code], times = morph.times[i], n = morph.count[i];
      if (!hasHermiteForm(kind, times, morph.values[i], n)) {
        portableMorph.push(i);
        portableTimelines.add(morph.timeline[i]);
        return;
      }
      const lastAt = (times.length - 1) * morph.stride[i] + morph.valueOffset[i];
      weights.push({ interpolation: kind, times, values: morph.values[i], lastAt, count: n, offset: morph.offset[i] });
    });
    this.vec3HermiteStream = new HermiteStream(3, hermiteVec3);
    this.quatHermiteStream = new HermiteStream(4, hermiteQuat);
    this.weightChannels = new WeightChannels(weights);
    this.portableCubic = Int32Array.from(portableCubic);
    this.portableMorph = Int32Array.from(portableMorph);
    this.portableTimelines = Int32Array.from([...portableTimelines].sort((a, b) => a - b));
    Object.freeze(this);
  }
}

/** The interpolation of each {@link MORPH_KIND} (and {@link CUBIC_KIND}) code. */
const INTERPOLATION_OF: readonly Interpolation[] = ['CUBICSPLINE', 'HERMITE', 'BEZIER', 'CATMULLROM', 'STEP', 'LINEAR'];

/** The last key's value (c floats), in a channel's values layout. */
function lastValue(values: Float32Array, keys: number, stride: number, valueOffset: number, c: number): Float32Array {
  const at = (keys - 1) * stride + valueOffset;
  return values.slice(at, at + c);
}

function sameTimes(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Validates `clip` for a skeleton of `jointCount` joints and builds its {@link RuntimeClip} (allocates: call
 * once per clip, at load, not per frame).
 * @throws Error naming the clip and channel when a channel is malformed (`validateAnimationChannel`) or the
 *   duration is not a finite number ≥ 0; RangeError for a marker outside [0, duration] (`compileMarkers`)
 */
export function compileClip(clip: AnimationClip, jointCount: number): RuntimeClip {
  if (!(clip.duration >= 0 && clip.duration < Infinity)) throw new Error(`clip "${clip.name}": duration ${clip.duration} is not a finite number ≥ 0`);
  clip.channels.forEach((channel, i) => validateAnimationChannel(channel, jointCount, `clip "${clip.name}" channel ${i}`));
  return new RuntimeClip(clip);
}
