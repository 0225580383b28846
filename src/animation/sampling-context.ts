import type { LocalPose } from '../skeleton/local-pose.ts';
import type { RuntimeClip } from './runtime-clip.ts';

/**
 * A back end for the channels of a clip in its streams — LINEAR and STEP (`RuntimeClip.vec3Stream`,
 * `quatStream`), the cubic kinds (BEZIER only with handles at thirds in time; `vec3HermiteStream`, `quatHermiteStream`) and morph weights
 * (`weightChannels`) — in place of `sampleClip`'s portable loops over the same channels, which then run only for
 * what the streams leave (`RuntimeClip.portableCubic`, `portableMorph`): the pose room's `SamplingKernel`
 * (WebAssembly SIMD). It holds its own cursors, so one back end serves one context.
 */
export interface SamplingBackend {
  /**
   * Writes `clip`'s channels in its streams at the time `clock[0]` (seconds) into `out` (only those
   * properties; `out` holds at least `clip.requiredJointCount` joints and `clip.requiredMorphWeightCount` morph
   * weights, checked by the caller). Returns false
   * when it cannot, and the portable loops run instead. Allocates nothing once it has sampled `clip` into a
   * pose of this size.
   */
  sampleStreams(out: LocalPose, clip: RuntimeClip, clock: Float64Array): boolean;
}

/**
 * The caller-owned, mutable half of sampling (ozz-animation's `SamplingJob::Context`): per timeline of the
 * clip last sampled, the keyframe cursor that makes playback's key search O(1) (`findKeyframe`'s hint) and
 * this frame's scratch; and the clock `sampleClip` passes the time in. A {@link RuntimeClip} holds no state,
 * so each player of a clip owns one context.
 *
 * Sampling another clip than last time rewinds the cursors (and grows the arrays when that clip has more
 * timelines than any before: the only allocation). Allocate contexts at set-up, not per frame.
 */
export class SamplingContext {
  /** `Float64Array(1)`: the time `sampleClip` samples at, seconds (a typed array, so V8 boxes no double). */
  readonly clock = new Float64Array(1);
  /** The clip the cursors belong to, or null before the first sample. */
  clip: RuntimeClip | null = null;
  /** `Int32Array(≥ timelineCount)`: per timeline u, the interval found last (the next search's hint). */
  cursors: Int32Array;
  /**
   * `Int32Array(≥ timelineCount)`: per timeline, −1 when this frame's t lies strictly inside its keys
   * (interpolate in interval `cursors[u]`), else the key whose value holds (0 before the first key or for a
   * single key, k−1 after the last).
   */
  holds: Int32Array;
  /** `Float64Array(≥ timelineCount)`: per timeline, this frame's s = (t − t_k)/(t_{k+1} − t_k) when interpolating. */
  factors: Float64Array;
  /** The back end of the channels in the clip's streams, or null for the portable loops. */
  readonly kernel: SamplingBackend | null;

  /**
   * @param timelineCapacity timelines to allocate for up front (the arrays grow on demand)
   * @param kernel a back end for the channels in the clip's streams, owned by this context alone; null (default): portable
   */
  constructor(timelineCapacity = 0, kernel: SamplingBackend | null = null) {
    this.kernel = kernel;
    this.cursors = new Int32Array(timelineCapacity);
    this.holds = new Int32Array(timelineCapacity);
    this.factors = new Float64Array(timelineCapacity);
  }

  /** Makes the context `clip`'s: rewinds the cursors, growing the arrays if `clip` needs more. */
  bind(clip: RuntimeClip): void {
    const n = clip.timelines.length;
    if (this.cursors.length < n) {
      this.cursors = new Int32Array(n);
      this.holds = new Int32Array(n);
      this.factors = new Float64Array(n);
    } else {
      this.cursors.fill(0);
    }
    this.clip = clip;
  }
}
