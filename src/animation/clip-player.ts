import type { AnimationClip } from './animation-clip.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { LoopMode } from './loop-mode.ts';
import { positiveModulo, wrapClipTime } from './loop-mode.ts';
import { sampleClip, type ClipCursor } from './sample-clip.ts';

/**
 * The playhead of one clip: time in seconds, speed (negative plays backwards), loop mode, and the clip's
 * per-channel keyframe cursors, so forward (or backward) playback finds each channel's interval in O(1)
 * amortised and a {@link ClipPlayer.seek} costs O(log k) per channel (`findKeyframe`).
 *
 * The playhead is kept reduced to one period (duration for `loop`, 2·duration for `pingpong`), so it
 * never loses float precision however long the clip plays. Allocation happens only in the constructor and
 * in {@link ClipPlayer.setClip} when a clip has more channels than any before; `advance` and `sample`
 * allocate nothing.
 */
export class ClipPlayer {
  clip: AnimationClip;
  /** Playback rate: 1 real time, 2 double speed, −1 backwards, 0 paused. */
  speed = 1;
  loop: LoopMode = 'loop';
  private playhead = 0;
  private cursor: ClipCursor;

  constructor(clip: AnimationClip, loop: LoopMode = 'loop', speed = 1) {
    this.clip = clip;
    this.loop = loop;
    this.speed = speed;
    this.cursor = new Int32Array(clip.channels.length);
  }

  /** Binds another clip, rewinds to 0 (or to the end for negative speed with `once`), keeps speed and mode. */
  setClip(clip: AnimationClip): void {
    this.clip = clip;
    if (this.cursor.length < clip.channels.length) this.cursor = new Int32Array(clip.channels.length);
    else this.cursor.fill(0);
    this.playhead = this.speed < 0 && this.loop === 'once' ? clip.duration : 0;
  }

  /** Clip time in seconds, in [0, duration], that {@link sample} evaluates. */
  get time(): number {
    return wrapClipTime(this.playhead, this.clip.duration, this.loop);
  }

  /**
   * True when a `once` clip has reached its end in the direction of play (duration for speed ≥ 0, 0 for
   * negative speed). Looping clips never finish.
   */
  get finished(): boolean {
    if (this.loop !== 'once') return false;
    return this.speed >= 0 ? this.playhead >= this.clip.duration : this.playhead <= 0;
  }

  /**
   * Moves the playhead to `timeSeconds` (clip time; out-of-range times wrap, clamp or bounce by the loop
   * mode). The next sample re-finds each channel's key by binary search, O(log k).
   */
  seek(timeSeconds: number): void {
    this.playhead = timeSeconds;
    this.reduce();
  }

  /** Advances the playhead by `dtSeconds · speed`. */
  advance(dtSeconds: number): void {
    this.playhead += dtSeconds * this.speed;
    this.reduce();
  }

  /**
   * Samples the clip at {@link time} into `out` through the cursors (only animated properties are written:
   * start from the rest pose). Returns `out`.
   */
  sample(out: LocalPose): LocalPose {
    return sampleClip(out, this.clip, this.time, this.cursor);
  }

  private reduce(): void {
    const d = this.clip.duration;
    if (!(d > 0)) {
      this.playhead = 0;
      return;
    }
    if (this.loop === 'once') this.playhead = this.playhead < 0 ? 0 : this.playhead > d ? d : this.playhead;
    else this.playhead = positiveModulo(this.playhead, this.loop === 'loop' ? d : 2 * d);
  }
}
