import type { AnimationClip } from './animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { wrapPlayhead, type LoopMode } from './loop-mode.ts';
import type { ClipCursor } from './sample-clip.ts';
import { getCompiledClip, sampleCompiledClip, type CompiledClip } from './compiled-clip.ts';

/**
 * The playhead of one clip: time in seconds, speed (negative plays backwards), loop mode, and the clip's
 * per-channel keyframe cursors, so forward (or backward) playback finds each channel's interval in O(1)
 * amortised and a {@link ClipPlayer.seek} costs O(log k) per channel (`findKeyframe`).
 *
 * The playhead is kept reduced to one period (duration for `loop`, 2·duration for `pingpong`), so it
 * never loses float precision however long the clip plays. Allocation happens only in the constructor and
 * in {@link ClipPlayer.setClip} when a clip has more channels than any before; `advance` and `sample`
 * allocate nothing (the times live in a `Float64Array`, so no floating-point value crosses a call, which V8
 * would box on the heap).
 */
export class ClipPlayer {
  clip: AnimationClip;
  /** Playback rate: 1 real time, 2 double speed, −1 backwards, 0 paused. */
  speed = 1;
  loop: LoopMode = 'loop';
  /**
   * `[clip time, playhead, duration]`, seconds: the time {@link sample} evaluates (first, so the array is the
   * clock the sampler reads), the playhead reduced to one period, the clip's duration ({@link wrapPlayhead}).
   */
  readonly clock = new Float64Array(3);
  private cursor: ClipCursor;
  /** `clip`'s compiled form (re-fetched when `clip` is reassigned). */
  private compiled: CompiledClip;

  constructor(clip: AnimationClip, loop: LoopMode = 'loop', speed = 1) {
    this.clip = clip;
    this.compiled = getCompiledClip(clip);
    this.loop = loop;
    this.speed = speed;
    this.cursor = new Int32Array(clip.channels.length);
  }

  /** Binds another clip, rewinds to 0 (or to the end for negative speed with `once`), keeps speed and mode. */
  setClip(clip: AnimationClip): void {
    this.clip = clip;
    this.compiled = getCompiledClip(clip);
    if (this.cursor.length < clip.channels.length) this.cursor = new Int32Array(clip.channels.length);
    else this.cursor.fill(0);
    this.clock[1] = this.speed < 0 && this.loop === 'once' ? clip.duration : 0;
    this.reduce();
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
    return this.speed >= 0 ? this.clock[1] >= this.clip.duration : this.clock[1] <= 0;
  }

  /**
   * Moves the playhead to `timeSeconds` (clip time; out-of-range times wrap, clamp or bounce by the loop
   * mode). The next sample re-finds each channel's key by binary search, O(log k).
   */
  seek(timeSeconds: number): void {
    this.clock[1] = timeSeconds;
    this.reduce();
  }

  /** Advances the playhead by `dtSeconds · speed`. */
  advance(dtSeconds: number): void {
    this.clock[1] += dtSeconds * this.speed;
    this.reduce();
  }

  /**
   * Samples the clip at {@link time} into `out` through the cursors (only animated properties are written:
   * start from the rest pose). Returns `out`.
   */
  sample(out: LocalPose): LocalPose {
    if (this.compiled.clip !== this.clip) this.compiled = getCompiledClip(this.clip);
    if (this.cursor.length < this.clip.channels.length) this.cursor = new Int32Array(this.clip.channels.length);
    return sampleCompiledClip(out, this.compiled, this.clock, this.cursor);
  }

  /** Reduces the playhead to one period and derives the clip time ({@link wrapPlayhead}). */
  private reduce(): void {
    this.clock[2] = this.clip.duration;
    wrapPlayhead(this.clock, this.loop);
  }
}
