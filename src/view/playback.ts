import type { ClipPlayer } from '../animation/clip-player.ts';
import { AnimationEventList } from '../animation/animation-events.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import type { RootMotionMode } from '../animation/root-motion.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { findClipIndex, unknownClipHint } from '../animation/find-clip.ts';

/** Default crossfade duration of a clip change while playing, seconds. */
export const DEFAULT_FADE_SECONDS = 0.3;

/** Playback settings a viewer shows and changes ({@link Playback}). */
export interface PlaybackSettings {
  /** Playback rate: 1 real time, 2 double speed, −1 backwards, 0 holds. */
  readonly speed: number;
  /** What the clip does at its ends: `loop`, `once` (holds the end) or `pingpong`. */
  readonly loop: LoopMode;
  /** Crossfade duration of a clip change while playing, seconds (0: cut). */
  readonly fade: number;
}

/** Moves a model's animator on in place of its clips' own clock ({@link Playback.driver}). */
export interface PlaybackDriver {
  /** Clears `events`, moves the animator on by `dtSeconds` (real seconds ≥ 0) and fills `events`. Allocates nothing. */
  update(dtSeconds: number, events: AnimationEventList): void;
}

/** How {@link startClip} starts a clip. */
export interface StartClipOptions {
  readonly speed: number;
  readonly loop: LoopMode;
  /** Crossfade from what plays now, seconds; 0 cuts. */
  readonly fade: number;
  /**
   * Clip time to start at, seconds (clamped to [0, duration]; for `loop`, the end shows the clip's last
   * instant, see {@link Playback.seek}). Absent: 0, or the end for a negative speed in `once` mode.
   */
  readonly startTime?: number;
  /** `loop` / `pingpong`: plays before the clip finishes (`PlayOptions.repetitions`); default `Infinity`. */
  readonly repetitions?: number;
}

/**
 * Starts clip `clipIndex` of `model` on its animator's base layer (−1: fades to the rest pose). A model's
 * first clip is started this way before the model is shown (so a failed load leaves the shown one alone);
 * {@link Playback.bind} then takes the player over. Evaluate the pose with `model.evaluate(model.animator)`.
 * @returns the clip's player, or null for the rest pose
 * @throws RangeError for an index outside [−1, clips.length)
 */
export function startClip(model: AnimatedModel, clipIndex: number, options: StartClipOptions): ClipPlayer | null {
  if (!Number.isInteger(clipIndex) || clipIndex < -1 || clipIndex >= model.clips.length) {
    throw new RangeError(`${model.asset.name}: clip ${clipIndex} does not exist (${model.clips.length} clips)`);
  }
  if (clipIndex < 0) {
    model.animator.stop(0, options.fade);
    return null;
  }
  // The model's compiled clip: playing the asset's AnimationClip would compile it again on every start.
  const player = model.animator.play(model.clips[clipIndex], {
    fade: options.fade, loop: options.loop, speed: options.speed, repetitions: options.repetitions,
  });
  if (options.startTime !== undefined) seekPlayer(player, options.startTime);
  return player;
}

/**
 * The clip a model starts with: `clip` by name or index (see `findClipIndex`; `rest` or −1 the rest pose), else
 * its first clip (the rest pose when it has none).
 * @returns its index (−1: rest pose), and a warning naming the model when `clip` matched none (the first clip
 *   then plays)
 */
export function resolveStartClip(asset: ModelAsset, clip: string | null | undefined): { clipIndex: number; warning: string | null } {
  const first = asset.clips.length > 0 ? 0 : -1;
  if (clip == null) return { clipIndex: first, warning: null };
  const resolved = findClipIndex(clip, asset.clips.map((c) => c.name));
  if (resolved !== null) return { clipIndex: resolved, warning: null };
  return { clipIndex: first, warning: `${asset.name}: no clip ${JSON.stringify(clip)} (${unknownClipHint(clip, asset.clips.map((c) => c.name))}); playing ${first >= 0 ? `"${asset.clips[0].name}"` : 'the rest pose'}` };
}

/**
 * Seeks `player` to `seconds` clamped to [0, duration]. The player of a looping clip keeps its playhead in
 * [0, duration) (the end wraps to 0), so the end itself is shown by holding the player in `once` mode at its
 * end until it moves on ({@link unpinPlayer}).
 * @returns whether the player was pinned at the end
 */
function seekPlayer(player: ClipPlayer, seconds: number): boolean {
  const d = player.clip.duration;
  const t = Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), d) : 0;
  if (player.loop === 'loop' && d > 0 && t >= d) {
    player.loop = 'once';
    player.seek(d);
    return true;
  }
  player.seek(t);
  return false;
}

/**
 * The viewer's clip clock over an {@link AnimatedModel}'s animator: the current clip's player (time,
 * duration), whether it plays, and the settings every clip started from the viewer gets — speed, loop mode
 * and the crossfade duration of a clip change. Times in seconds. Time moves only through {@link advance}
 * (the viewer's frame loop, or a test's step), which allocates nothing.
 *
 * Like a video element, a `once` clip that reaches its end (its start when playing backwards) while
 * playing stops playback there, and {@link play} after that restarts it.
 */
export class Playback {
  /**
   * Whether the viewer's loop calls {@link advance} each frame. {@link advance} clears it when a `once`
   * clip ends; {@link play} sets it (restarting a finished clip).
   */
  playing = true;
  /** What the last {@link advance} met: loops, `once` ends, markers, of every clip of the model's animator. */
  readonly events = new AnimationEventList();
  /** Hears {@link events} after each {@link advance} that met any (before the caller draws), or null. */
  onEvents: ((events: AnimationEventList) => void) | null = null;
  /**
   * What moves the bound model's animator in {@link advance} instead of `animator.update` (an animation graph's
   * driver, `<sinew-viewer animation-graph>`), or null. It clears and fills the events; `once` clips never stop
   * playback while it drives. {@link bind} drops it (it drove the previous model's animator).
   */
  driver: PlaybackDriver | null = null;
  private model: AnimatedModel | null = null;
  private player: ClipPlayer | null = null;
  /** Index of the clip last started (−1: the rest pose); the animator itself knows clips, not indices. */
  private clip = -1;
  /** The looping player is held in `once` mode at its end (a seek to the end): see `seekPlayer`. */
  private pinned = false;
  private speedValue = 1;
  private loopValue: LoopMode = 'loop';
  private fadeValue = DEFAULT_FADE_SECONDS;
  private repetitionsValue = Infinity;
  private rootMotionValue: RootMotionMode = 'off';

  /** Seconds into the current clip, in [0, duration]; 0 at rest. */
  get time(): number {
    return this.player ? this.player.time : 0;
  }

  /** Seconds: the current clip's duration (0 for the rest pose or a single-key clip). */
  get duration(): number {
    return this.player ? this.player.clip.duration : 0;
  }

  /** Index of the current clip in the model's clips, −1 for the rest pose (or no model). */
  get clipIndex(): number {
    return this.model ? this.clip : -1;
  }

  /** True when a `once` clip has reached its end in the direction of play. */
  get finished(): boolean {
    // A pinned player is a looping clip held in `once` mode at its end: it never finishes.
    return this.driver === null && this.player !== null && !this.pinned && this.player.finished;
  }

  /** Number of clips sounding on the base layer (2 or more during a crossfade). */
  get activeClips(): number {
    return this.model ? this.model.animator.activeClipCount(0) : 0;
  }

  /**
   * The viewer's playback rate (1 real time, negative backwards): of every clip playing — the current one
   * and any still fading out of a crossfade — and of clips started later.
   */
  get speed(): number {
    return this.speedValue;
  }
  set speed(value: number) {
    if (!Number.isFinite(value)) throw new RangeError(`Playback: speed must be a finite number, got ${value}`);
    this.speedValue = value;
    this.model?.animator.setLayerSpeed(0, value);
  }

  /** Loop mode of the current clip (keeping its time) and of clips started later. */
  get loop(): LoopMode {
    return this.loopValue;
  }
  set loop(mode: LoopMode) {
    if (mode !== 'loop' && mode !== 'once' && mode !== 'pingpong') throw new RangeError(`Playback: unknown loop mode ${String(mode)}`);
    this.loopValue = mode;
    const player = this.player;
    if (!player) return;
    const time = player.time;
    this.pinned = false;
    player.loop = mode;
    this.pinned = seekPlayer(player, time);
  }

  /**
   * `loop` and `pingpong`: how many plays the current clip and clips started later make before they finish
   * (`finished` fires, playback stops): an integer ≥ 1, or `Infinity` (default: never). Setting it starts the
   * current clip's count over from its playhead (`ClipPlayer.restartCount`).
   * @throws RangeError for anything else
   */
  get repetitions(): number {
    return this.repetitionsValue;
  }
  set repetitions(count: number) {
    if (!(count === Infinity || (Number.isInteger(count) && count >= 1))) {
      throw new RangeError(`Playback: repetitions must be an integer ≥ 1 or Infinity, got ${count}`);
    }
    this.repetitionsValue = count;
    if (!this.player) return;
    this.player.repetitions = count;
    this.player.restartCount();
  }

  /** Root motion of every model bound (`Animator.rootMotion`); a change starts the placement over. */
  get rootMotion(): RootMotionMode {
    return this.rootMotionValue;
  }
  set rootMotion(mode: RootMotionMode) {
    this.rootMotionValue = mode;
    if (!this.model) return;
    this.model.animator.rootMotion = mode;
    this.model.animator.resetPlacement();
  }

  /** Crossfade duration of clip changes while playing, seconds ≥ 0 (0 cuts). */
  get fade(): number {
    return this.fadeValue;
  }
  set fade(seconds: number) {
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError(`Playback: fade must be seconds ≥ 0, got ${seconds}`);
    this.fadeValue = seconds;
  }

  /** The settings as one object (allocates: not for the frame loop). */
  settings(): PlaybackSettings {
    return { speed: this.speedValue, loop: this.loopValue, fade: this.fadeValue };
  }

  /** The options {@link startClip} takes for these settings. */
  startOptions(fade: number, startTime?: number): StartClipOptions {
    return { speed: this.speedValue, loop: this.loopValue, fade, startTime, repetitions: this.repetitionsValue };
  }

  /**
   * Drives `model` from now on; `player` is the clip {@link startClip} started on it with
   * {@link startOptions} (null: rest pose).
   */
  bind(model: AnimatedModel, player: ClipPlayer | null): void {
    this.model = model;
    this.driver = null;
    model.animator.rootMotion = this.rootMotionValue;
    this.player = player;
    this.clip = player ? model.clips.indexOf(player.clip) : -1;
    // startClip pins a looping clip started at its end by holding it in `once` mode.
    this.pinned = player !== null && this.loopValue === 'loop' && player.loop === 'once';
  }

  /**
   * Starts clip `clipIndex` (−1: the rest pose), crossfading from what plays now over `fadeSeconds`
   * (0 cuts). Without `startTime` the clip starts at 0 (at its end for a negative speed in `once` mode).
   */
  select(clipIndex: number, fadeSeconds: number, startTime?: number): void {
    const model = this.model;
    if (!model) return;
    this.unpin();
    this.player = startClip(model, clipIndex, this.startOptions(Math.max(0, fadeSeconds)));
    this.clip = clipIndex;
    this.pinned = false;
    if (this.player && startTime !== undefined) this.pinned = seekPlayer(this.player, startTime);
  }

  /**
   * Jumps the current clip to `seconds`, clamped to [0, duration], and cuts any crossfade in progress (the
   * current clip alone plays on). A looping clip sought to its very end shows its last instant and wraps
   * to 0 as soon as time moves on.
   */
  seek(seconds: number): void {
    const model = this.model;
    const player = this.player;
    if (!model || !player) return;
    if (model.animator.activeClipCount(0) > 1) {
      // A crossfade is running: restart the current clip alone (a cut), at the time asked.
      this.select(this.clip, 0, seconds);
      return;
    }
    this.unpin();
    this.pinned = seekPlayer(player, seconds);
  }

  /**
   * Moves every clip on by `dtSeconds` of real time (at the playback speed; crossfades by `dtSeconds`),
   * whether playing or not (the loop calls it only while playing). While {@link playing}, a `once` clip
   * that has reached its end in the direction of play stops playback (`playing` becomes false) and holds
   * there. What the clips met (loops, ends, markers) is in {@link events}, handed to {@link onEvents}. With a
   * {@link driver}, it moves the animator instead (by the real `dtSeconds`: the driver applies its own rate).
   * Does not evaluate the pose. Allocates nothing.
   * @param dtSeconds seconds ≥ 0
   * @returns true when this call stopped playback (a `once` clip ended)
   */
  advance(dtSeconds: number): boolean {
    const model = this.model;
    this.events.clear();
    if (!model || !(dtSeconds > 0)) return false;
    this.unpin();
    if (this.driver) this.driver.update(dtSeconds, this.events);
    else model.animator.update(dtSeconds, this.events);
    if (this.events.length > 0) this.onEvents?.(this.events);
    if (this.playing && this.finished) {
      this.playing = false;
      return true;
    }
    return false;
  }

  /**
   * Starts playing. A `once` clip that has finished (see {@link finished}) restarts first, from its start —
   * from its end when the speed is negative — cutting any crossfade, as a video element's play() does
   * after it ended.
   */
  play(): void {
    if (this.finished) this.seek(this.speedValue < 0 ? this.duration : 0);
    this.playing = true;
  }

  /** Lets a player pinned at a looping clip's end loop again (its playhead wraps to 0 ≡ the end). */
  private unpin(): void {
    if (!this.pinned || !this.player) return;
    this.pinned = false;
    const player = this.player;
    player.loop = this.loopValue;
    player.seek(player.clip.duration);
  }
}
