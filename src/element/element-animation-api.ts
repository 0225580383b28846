/**
 * `<model-viewer>`'s animation API on `<sinew-viewer>` (its names, units and events; model-viewer 4.4's
 * features/animation.ts and three-components/ModelScene.ts): `play({repetitions, pingpong})`, `pause()`,
 * `appendAnimation(name, options)` / `detachAnimation(name, options)` on the Animator's layers
 * (view/clip-layers.ts), `availableAnimations`, `appendedAnimations`, `timeScale`, `currentTime`, the
 * `play` / `pause` / `append-animation` / `detach-animation` events, and the one console note per element for a
 * deprecated attribute. Bad arguments never throw: they are reported (console warning and `sinew-error`) and
 * the default is used.
 */
import { findClipIndex } from '../animation/find-clip.ts';
import { didYouMean } from '../math/did-you-mean.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import type { ModelView } from '../view/model-view.ts';
import { readAttribute } from './element-attributes.ts';
import { crossfadeSeconds, playFromRest } from './element-playback.ts';
import type { IgnoredWithGraph } from './graph-source.ts';


/** What a numeric option of the animation API must be, and what stands in for it otherwise. */
interface NumberOption {
  /** The method taking it, named in the report. */
  readonly method: string;
  readonly key: string;
  /** Used when the option is absent or malformed. */
  readonly fallback: number;
  /** Whether a finite value is allowed. */
  readonly ok: (value: number) => boolean;
  /** What was expected, in the report. */
  readonly expected: string;
}

const APPEND_WEIGHT: NumberOption = { method: 'appendAnimation', key: 'weight', fallback: 1, ok: (v) => v >= 0 && v <= 1, expected: 'a number in [0, 1]' };
const APPEND_TIME_SCALE: NumberOption = { method: 'appendAnimation', key: 'timeScale', fallback: 1, ok: () => true, expected: 'a finite number' };
const APPEND_TIME: NumberOption = { method: 'appendAnimation', key: 'time', fallback: 0, ok: () => true, expected: 'seconds' };

/** Options of `play` (`<model-viewer>`'s `PlayAnimationOptions`). */
export interface PlayAnimationOptions {
  /** Plays of the clip before it finishes (`finished` fires, playback stops): integer ≥ 1, default `Infinity`. */
  readonly repetitions?: number;
  /** Alternate direction at each end (default false). */
  readonly pingpong?: boolean;
}

/** Options of `appendAnimation` (`<model-viewer>`'s `AppendAnimationOptions`; `warp` is not supported). */
export interface AppendAnimationOptions {
  /** Alternate direction at each end (default false). */
  readonly pingpong?: boolean;
  /** Plays before the clip finishes and leaves `appendedAnimations`: integer ≥ 1; null / absent `Infinity`. */
  readonly repetitions?: number | null;
  /** The clip's layer weight in [0, 1], default 1. */
  readonly weight?: number;
  /** The clip's own rate (times the element's `timeScale`), default 1. */
  readonly timeScale?: number;
  /** Fade-in when the clip starts: seconds, `true` 1.25 s, `false` (default) none. */
  readonly fade?: boolean | number;
  /** Not supported (`<model-viewer>` ramps the rate over this time; Sinew changes it at once). */
  readonly warp?: boolean | number;
  readonly relativeWarp?: boolean;
  /** Clip time to start at, seconds (clamped to the clip); null / absent: 0, or where a running clip is. */
  readonly time?: number | null;
}

/** Options of `detachAnimation` (`<model-viewer>`'s `DetachAnimationOptions`). */
export interface DetachAnimationOptions {
  /** Fade-out: seconds, `true` (default) 1.5 s, `false` none. */
  readonly fade?: boolean | number;
}

/** `<model-viewer>`'s default fade-in of `appendAnimation({fade: true})` and fade-out of `detachAnimation`, seconds. */
const APPEND_FADE_SECONDS = 1.25;
const DETACH_FADE_SECONDS = 1.5;

/** The deprecated attributes (one release) and the `<model-viewer>` attribute that replaces each. */
const RENAMED: Readonly<Record<string, string>> = {
  clip: 'animation-name',
  fade: 'animation-crossfade-duration (milliseconds; `fade` was seconds)',
};

/** What {@link ElementAnimationApi} needs of its element. */
export interface AnimationApiOwner {
  readonly element: HTMLElement;
  currentView(): ModelView | null;
  /** The shown model's clip names (the element's `clips`). */
  clips(): readonly string[];
  /** Whether an animation graph chooses the clips (element-graph.ts): `play()` then only resumes it. */
  graphDrives(): boolean;
  /** With a graph: warns once that `member` is ignored, and says true (the call then does nothing). */
  ignoredWithGraph(member: IgnoredWithGraph): boolean;
  /** Before the first model: remember the play state it starts in. */
  requestPlaying(playing: boolean): void;
  /** Fires a `<model-viewer>` event without detail. */
  emit(type: 'play' | 'pause' | 'append-animation' | 'detach-animation'): void;
  /** Reports a bad argument: console warning and `sinew-error`. */
  report(message: string): void;
}

/** The `<model-viewer>` animation properties {@link defineAnimationProperties} puts on `<sinew-viewer>`. */
export interface AnimationApiProperties {
  /** `<model-viewer>`'s name for `clips`: the shown model's clip names (frozen; [] before a model). */
  readonly availableAnimations: readonly string[];
  /** `<model-viewer>`'s: names of the clips `appendAnimation` layers now (finished or detached ones leave). */
  readonly appendedAnimations: string[];
  /**
   * `<model-viewer>`'s: the playback rate (1 real time, 2 double speed, negative backwards), of the selected
   * clip and, times their own, of appended ones. Setting it writes the `speed` attribute; a non-finite value
   * is reported (`sinew-error`) and changes nothing.
   */
  timeScale: number;
}

/**
 * Defines {@link AnimationApiProperties} on `prototype`, and `animationCrossfadeDuration` over the attribute
 * table's (it reads the effective milliseconds, 300 when absent, as `<model-viewer>`'s does, not null).
 */
export function defineAnimationProperties<E extends HTMLElement>(prototype: E, apiOf: (element: E) => ElementAnimationApi): void {
  const define = (name: string, get: (this: E) => unknown, set?: (this: E, value: never) => void): void => {
    Object.defineProperty(prototype, name, { get, set, configurable: true, enumerable: false });
  };
  define('availableAnimations', function () {
    return apiOf(this).availableAnimations;
  });
  define('appendedAnimations', function () {
    return apiOf(this).appendedAnimations;
  });
  define('timeScale', function () {
    return apiOf(this).timeScale;
  }, function (value: number) {
    apiOf(this).timeScale = value;
  });
  define('animationCrossfadeDuration', function () {
    return apiOf(this).crossfadeMs;
  }, function (value: number | null) {
    if (value === null || value === undefined) this.removeAttribute('animation-crossfade-duration');
    else this.setAttribute('animation-crossfade-duration', String(value));
  });
}

/** `<sinew-viewer>`'s `<model-viewer>` animation API (see the file comment). */
export class ElementAnimationApi {
  /** Options of a `play(options)` before the first model, applied when it is shown. */
  private pendingPlay: PlayAnimationOptions | null = null;
  /** Deprecated attributes already noted on the console for this element. */
  private readonly noted = new Set<string>();

  constructor(private readonly owner: AnimationApiOwner) {}

  /** `<model-viewer>`'s `availableAnimations`: the clip names (frozen; [] before a model). */
  get availableAnimations(): readonly string[] {
    return this.owner.clips();
  }

  /** `<model-viewer>`'s `appendedAnimations`: names of the clips appended and still playing. */
  get appendedAnimations(): string[] {
    const view = this.owner.currentView();
    const names = this.owner.clips();
    return view ? view.layers.appended().map((i) => names[i]) : [];
  }

  /** The playback rate: the view's, else the `speed` attribute's (default 1). */
  get timeScale(): number {
    const view = this.owner.currentView();
    if (view) return view.playback.speed;
    return readAttribute(this.owner.element, 'speed', null).value ?? 1;
  }

  /** Sets the playback rate by writing the `speed` attribute; not a finite number: reported, unchanged. */
  set timeScale(value: number) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.owner.report(`timeScale: expected a finite number (a rate: 1 real time, −1 backwards), got ${String(value)}; it stays ${this.timeScale}`);
      return;
    }
    this.owner.element.setAttribute('speed', String(value));
  }

  /** `currentTime = seconds`: jumps there (clamped to the clip), keeping the play state; bad values reported. */
  setCurrentTime(value: number): void {
    if (this.owner.ignoredWithGraph('currentTime')) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.owner.report(`currentTime: expected a finite number of seconds, got ${String(value)}`);
      return;
    }
    this.owner.currentView()?.seek(value);
  }

  /** Milliseconds of crossfade: `animation-crossfade-duration`, else `fade` × 1000, else 300. */
  get crossfadeMs(): number {
    return crossfadeSeconds(this.owner.element, null) * 1000;
  }

  /**
   * `<model-viewer>`'s `play(options)`: plays the clip with these loop settings from now on (`repetitions`
   * counted from this call; `pingpong` alternates; `repetitions: 1` plays once) — a clip that has finished
   * starts over. Without options: looping for ever in the `loop` attribute's mode. Fires `play` when the
   * model has clips. Before the first model: it starts playing with these options.
   */
  play(options?: PlayAnimationOptions): void {
    const view = this.owner.currentView();
    if (view?.asset && this.owner.graphDrives()) {
      if (options !== undefined) this.owner.ignoredWithGraph('play(options)');
      view.play();
      if (this.owner.clips().length > 0) this.owner.emit('play');
      return;
    }
    if (!view?.asset) {
      this.owner.requestPlaying(true);
      this.pendingPlay = options ?? null;
      return;
    }
    this.applyPlay(view, options);
    if (this.owner.clips().length > 0) this.owner.emit('play');
  }

  /** `<model-viewer>`'s `pause()`: pauses at the current time; fires `pause` when it was playing. */
  pause(): void {
    const view = this.owner.currentView();
    if (!view?.asset) {
      this.owner.requestPlaying(false);
      this.pendingPlay = null;
      return;
    }
    const wasPlaying = view.playback.playing;
    view.pause();
    if (wasPlaying) this.owner.emit('pause');
  }

  /**
   * A model was shown, playing or not: a `play(options)` made before applies now, and `play` fires when it
   * plays (`autoplay`).
   */
  shown(view: ModelView): void {
    if (this.pendingPlay) this.applyPlay(view, this.pendingPlay);
    this.pendingPlay = null;
    if (view.playback.playing && this.owner.clips().length > 0) this.owner.emit('play');
  }

  /** The play state changed through `autoplay` / `time` (wasPlaying → now): fires `play` or `pause`. */
  playStateApplied(view: ModelView, wasPlaying: boolean): void {
    const playing = view.playback.playing;
    if (playing === wasPlaying || this.owner.clips().length === 0) return;
    this.owner.emit(playing ? 'play' : 'pause');
  }

  /**
   * `<model-viewer>`'s `appendAnimation(name, options)`: plays clip `name` (or index) over the current one on a
   * layer of its own (see {@link AppendAnimationOptions}; ClipLayers.append), resumes playback if paused
   * (a finished clip stays finished) and fires `append-animation`. An unknown clip, the clip playing as
   * `animation-name`, or no model shown: reported, nothing happens.
   */
  appendAnimation(name: string, options: AppendAnimationOptions = {}): void {
    if (this.owner.ignoredWithGraph('appendAnimation()')) return;
    const found = this.findClip('appendAnimation', name);
    if (!found) return;
    const { view, index } = found;
    if (index === view.playback.clipIndex) {
      this.owner.report(`appendAnimation("${name}"): that clip plays as animation-name; append another clip`);
      return;
    }
    const o = options ?? {};
    const weight = this.number(o.weight, APPEND_WEIGHT);
    const timeScale = this.number(o.timeScale, APPEND_TIME_SCALE);
    const fade = this.fadeSeconds('appendAnimation', o.fade, 0, APPEND_FADE_SECONDS);
    const repetitions = this.repetitions('appendAnimation', o.repetitions);
    const time = o.time === null || o.time === undefined ? null : this.number(o.time, APPEND_TIME);
    if (o.warp) console.warn('sinew-viewer: appendAnimation: `warp` is not supported; the rate changes at once');
    const loop = 'repetitions' in o || 'pingpong' in o ? { mode: loopMode(o.pingpong === true, repetitions), repetitions } : null;
    view.layers.append(index, { weight, timeScale, fade, loop, time });
    if (!view.playback.playing && !view.playback.finished) view.play();
    this.owner.emit('append-animation');
  }

  /**
   * `<model-viewer>`'s `detachAnimation(name, options)`: fades the appended clip out (default 1.5 s), resumes
   * playback if paused so the fade plays out, and fires `detach-animation`. An unknown clip or no model:
   * reported; a clip not appended: nothing happens.
   */
  detachAnimation(name: string, options: DetachAnimationOptions = {}): void {
    if (this.owner.ignoredWithGraph('detachAnimation()')) return;
    const found = this.findClip('detachAnimation', name);
    if (!found) return;
    const { view, index } = found;
    const fade = this.fadeSeconds('detachAnimation', (options ?? {}).fade, DETACH_FADE_SECONDS, DETACH_FADE_SECONDS);
    if (!view.layers.detach(index, fade)) return;
    if (!view.playback.playing && !view.playback.finished) view.play();
    this.owner.emit('detach-animation');
  }

  /** Logs, once per element, that deprecated attribute `name` (when present) has a `<model-viewer>` name now. */
  noteDeprecated(name: string): void {
    const replacement = RENAMED[name];
    if (!replacement || this.noted.has(name) || !this.owner.element.hasAttribute(name)) return;
    this.noted.add(name);
    console.warn(`sinew-viewer: the \`${name}\` attribute is deprecated: use ${replacement}, <model-viewer>'s name. \`${name}\` still works in this release.`);
  }

  /** Sets the loop mode and repetitions of `options` (none: the `loop` attribute's, for ever), then plays. */
  private applyPlay(view: ModelView, options: PlayAnimationOptions | null | undefined): void {
    const restart = view.playback.finished;
    let mode: LoopMode;
    let repetitions = Infinity;
    if (options) {
      repetitions = this.repetitions('play', options.repetitions);
      mode = loopMode(options.pingpong === true, repetitions);
    } else {
      mode = readAttribute(this.owner.element, 'loop', null).value ?? 'loop';
    }
    if (view.playback.loop !== mode) view.setLoop(mode);
    view.playback.repetitions = mode === 'once' ? Infinity : repetitions;
    if (restart) view.seek(view.playback.speed < 0 ? view.playback.duration : 0);
    playFromRest(view);
  }

  /** The clip `name` (exact name, else index) of the shown model, or null after reporting why not. */
  private findClip(method: string, name: string): { view: ModelView; index: number } | null {
    const view = this.owner.currentView();
    if (!view?.asset) {
      this.owner.report(`${method}("${name}"): no model is shown yet`);
      return null;
    }
    const names = this.owner.clips();
    const index = findClipIndex(String(name), names);
    if (index === null || index < 0) {
      this.owner.report(`${method}("${name}"): ${view.asset.name} has no such clip (${didYouMean(String(name), names, ' ')}clips: ${names.join(', ') || 'none'})`);
      return null;
    }
    return { view, index };
  }

  /** Option `rule.key` of `rule.method`: a finite number passing `rule.ok`, absent: `rule.fallback`; anything else reported, `rule.fallback`. */
  private number(value: unknown, rule: NumberOption): number {
    const { method, key, fallback, ok, expected } = rule;
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isFinite(value) && ok(value)) return value;
    this.owner.report(`${method}: ${key} ${String(value)}: expected ${expected}; using ${fallback}`);
    return fallback;
  }

  /** A `fade` option: seconds ≥ 0, true `onTrue`, false 0, absent `absent`; anything else reported, `absent`. */
  private fadeSeconds(method: string, value: unknown, absent: number, onTrue: number): number {
    if (value === undefined) return absent;
    if (value === true) return onTrue;
    if (value === false) return 0;
    if (typeof value === 'number' && value >= 0 && Number.isFinite(value)) return value;
    this.owner.report(`${method}: fade ${String(value)}: expected seconds ≥ 0 or a boolean; using ${absent}`);
    return absent;
  }

  /** A `repetitions` option: integer ≥ 1 (a fraction rounds down) or Infinity; null / absent Infinity; bad: reported. */
  private repetitions(method: string, value: unknown): number {
    if (value === undefined || value === null || value === Infinity) return Infinity;
    if (typeof value === 'number' && value >= 1 && Number.isFinite(value)) return Math.floor(value);
    const fallback = typeof value === 'number' && value < 1 ? 1 : Infinity;
    this.owner.report(`${method}: repetitions ${String(value)}: expected an integer ≥ 1; using ${fallback}`);
    return fallback;
  }
}

/** `<model-viewer>`'s rule: pingpong, else once for one repetition, else loop. */
function loopMode(pingpong: boolean, repetitions: number): LoopMode {
  return pingpong ? 'pingpong' : repetitions === 1 ? 'once' : 'loop';
}
