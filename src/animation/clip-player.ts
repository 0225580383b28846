import type { LocalPose } from '../skeleton/local-pose.ts';
import { wrapPlayhead, type LoopMode } from './loop-mode.ts';
import type { RuntimeClip } from './runtime-clip.ts';
import { sampleClipAt } from './sample-clip.ts';
import { SamplingContext } from './sampling-context.ts';

/**
 * The playhead of one clip: time in seconds, speed (negative plays backwards), loop mode, and its own
 * {@link SamplingContext}, so forward (or backward) playback finds each timeline's interval in O(1) amortised
 * and a {@link ClipPlayer.seek} costs O(log k) per timeline (`findKeyframe`).
 *
 * The playhead is kept reduced to one period ({@link wrapPlayhead}). Allocation happens only in the
 * constructor and in {@link ClipPlayer.setClip} when a clip has more timelines than any before; `advance` and
 * `sample` allocate nothing.
 */
export class ClipPlayer {
  /** Playback rate: 1 real time, 2 double speed, −1 backwards, 0 paused. */
  speed = 1;
  loop: LoopMode = 'loop';
  /**
   * `[clip time, playhead, duration]`, seconds: the time {@link sample} evaluates (first, so the array is the
   * clock the sampler reads), the playhead reduced to one period, the clip's duration ({@link wrapPlayhead}).
   */
  readonly clock = new Float64Array(3);
  private current: RuntimeClip;
  private readonly context = new SamplingContext();

  constructor(clip: RuntimeClip, loop: LoopMode = 'loop', speed = 1) {
    this.current = clip;
    this.clock[2] = clip.duration;
    this.loop = loop;
    this.speed = speed;
  }

  /** The clip played ({@link setClip} changes it). */
  get clip(): RuntimeClip {
    return this.current;
  }

  /** Binds another clip, rewinds to 0 (or to the end for negative speed with `once`), keeps speed and mode. */
  setClip(clip: RuntimeClip): void {
    this.current = clip;
    this.clock[2] = clip.duration;
    this.clock[1] = this.speed < 0 && this.loop === 'once' ? clip.duration : 0;
    wrapPlayhead(this.clock, this.loop);
  }

  /** Clip time in seconds, in [0, duration], that {@link sample} evaluates. */
  get time(): number {
    return this.clock[0];
  }

  /**
   * True when a `once` clip has reached its end in the direction of play (duration for speed ≥ 0, 0 for
   * negative speed). Looping clips never finish.
   */
  get finished(): boolean {
    if (this.loop !== 'once') return false;
    return this.speed >= 0 ? this.clock[1] >= this.clock[2] : this.clock[1] <= 0;
  }

  /**
   * Moves the playhead to `timeSeconds` (clip time; out-of-range times wrap, clamp or bounce by the loop
   * mode). The next sample re-finds each timeline's key by binary search, O(log k).
   */
  seek(timeSeconds: number): void {
    this.clock[1] = timeSeconds;
    wrapPlayhead(this.clock, this.loop);
  }

  /** Advances the playhead by `dtSeconds · speed`. */
  advance(dtSeconds: number): void {
    this.clock[1] += dtSeconds * this.speed;
    wrapPlayhead(this.clock, this.loop);
  }

  /**
   * Samples the clip at {@link time} into `out` (only animated properties are written: start from the rest
   * pose; `sampleClip`). Returns `out`.
   * @throws RangeError when `out` has fewer joints than the clip animates
   */
  sample(out: LocalPose): LocalPose {
    return sampleClipAt(out, this.current, this.clock, this.context);
  }
}
