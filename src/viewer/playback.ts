/**
 * The viewer's clip clock: a time in seconds within [0, duration], playing (looping) or paused.
 * Allocates nothing.
 */
export class Playback {
  /** Seconds into the clip, in [0, duration]. */
  time = 0;
  /** Seconds: the selected clip's duration (0 for the rest pose or a single-key clip). */
  duration = 0;
  /** Whether `advance` moves time forward. */
  playing = true;
  /** Playback rate, 1 = real time. */
  speed = 1;

  /** Moves time forward by `deltaSeconds` × speed when playing, wrapping at the duration. */
  advance(deltaSeconds: number): void {
    if (!this.playing || !(deltaSeconds > 0)) return;
    if (!(this.duration > 0)) {
      this.time = 0;
      return;
    }
    this.time = (this.time + deltaSeconds * this.speed) % this.duration;
  }

  /** Jumps to `seconds`, clamped to [0, duration]. */
  seek(seconds: number): void {
    this.time = Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), this.duration) : 0;
  }
}
