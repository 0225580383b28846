import type { LocalPose } from '../skeleton/local-pose.ts';
import type { AnimationEventList } from './animation-events.ts';
import type { ClipPlayer } from './clip-player.ts';
import type { SamplingContext } from './sampling-context.ts';

/**
 * One playing clip of an `Animator` layer: its player, its fade weight, the pose it samples into, and for
 * additive layers its reference pose. The animator pools slots per layer, so playing allocates nothing per
 * frame. Internal to src/animation.
 */
export class ClipSlot {
  /** Playing (or fading out); an inactive slot is free for the next `play`. */
  active = false;
  player: ClipPlayer | null = null;
  /** Fade weight in [0, 1]: linear from `fadeFrom` to `fadeTo` over `fadeDuration` seconds. */
  weight = 0;
  fadeFrom = 0;
  fadeTo = 0;
  fadeElapsed = 0;
  fadeDuration = 0;
  /** Held by `Animator.driveSlot` (an animation graph sets its weight each frame): not freed when the weight is 0. */
  held = false;
  /** Order of `play` calls, to find the newest slot. */
  serial = 0;
  /** The clip sampled over the rest pose, this frame. */
  readonly pose: LocalPose;
  /** Additive layers: the pose the clip is taken relative to (`ownReference`, or one given to `play`). */
  reference: LocalPose | null = null;
  ownReference: LocalPose | null = null;
  /** Cursors for sampling the default reference pose, apart from the player's, which follow playback. */
  referenceContext: SamplingContext | null = null;
  /** The default reference is sampled (at `referenceTime`, seconds) on the next evaluate. */
  referenceDirty = false;
  referenceTime = 0;
  /** Root motion: the clip's motion transform at the last evaluate ([c_x, c_z, ψ], `composeMotion`). */
  readonly motionPrev = new Float64Array(3);
  /** Root motion: the player's `cycles` at the last evaluate. */
  motionCycles = 0;
  /** Root motion: {@link motionPrev} holds a reading (false until the first evaluate after `play`). */
  motionPrimed = false;
  /** Root motion: the clip time `play` started at, seconds: the first evaluate's delta starts there. */
  motionStartTime = 0;

  /** @param pose the pose the clip is sampled into (a `createLocalPose`, or one where a sampling kernel writes in place) */
  constructor(pose: LocalPose) {
    this.pose = pose;
  }

  /** Starts a linear fade from the current weight to `to` over `duration` seconds (≤ 0: at once). */
  startFade(to: number, duration: number): void {
    this.fadeFrom = this.weight;
    this.fadeTo = to;
    this.fadeElapsed = 0;
    this.fadeDuration = duration;
    if (!(duration > 0)) this.weight = to;
  }

  /**
   * Moves the player on by `dtSeconds` of real time and the fade by `dtSeconds` ({@link crossfadeWeight});
   * frees the slot when it has faded out; the player's events (at this frame's starting weight) go to
   * `events` when given, tagged with `layer`. Allocates nothing.
   */
  advance(dtSeconds: number, events: AnimationEventList | null = null, layer = 0): void {
    const player = this.player!;
    player.eventWeight = this.weight;
    player.advance(dtSeconds, events, layer);
    if (this.weight !== this.fadeTo) {
      this.fadeElapsed += dtSeconds;
      const s = crossfadeWeight(this.fadeElapsed, this.fadeDuration);
      this.weight = s >= 1 ? this.fadeTo : this.fadeFrom + s * (this.fadeTo - this.fadeFrom);
    }
    if (this.weight === 0 && this.fadeTo === 0 && !this.held) this.active = false;
  }
}

/**
 * Blend factor of a linear crossfade `elapsed` seconds into a fade of `duration` seconds: `elapsed/duration`
 * clamped to [0, 1]; 1 for a zero-length fade (a cut).
 */
export function crossfadeWeight(elapsedSeconds: number, durationSeconds: number): number {
  if (!(durationSeconds > 0)) return 1;
  const w = elapsedSeconds / durationSeconds;
  return w < 0 ? 0 : w > 1 ? 1 : w;
}
