import type { ModelAsset } from '../asset/model-asset.ts';
import { createOctopusAsset } from '../procedural/octopus.ts';
import { ElementControls } from './element-controls.ts';
import { fileNameOf, loadModelFromUrl } from '../loaders/fetch/load-model-from-url.ts';
import { messageOf, ModelView, type ModelViewListener, type ShowOptions } from '../view/model-view.ts';
import { DEFAULT_FADE_SECONDS } from '../view/playback.ts';
import { ProgressBar } from '../view/progress-bar.ts';
import type { Rgba } from '../view/render-surface.ts';
import { ViewerHost } from '../view/viewer-host.ts';
import { parseLoopSetting, parseNumberSetting, parsePaletteSetting, parseSkinningSetting, parseWeightsSetting, type NumberSetting } from '../view/settings.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import styles from './sinew-viewer-element.css?inline';
import { logWarningsOnce } from './warning-log.ts';

/** `detail` of the `sinew-load` event. */
export interface SinewLoadDetail {
  /** The model's name (its file name, e.g. `Fox.glb`; the built-in model's own name). */
  readonly model: string;
  /** Names of its clips, in file order. */
  readonly clips: readonly string[];
  /** Non-fatal problems (an unknown `clip`, loader warnings), each naming the file. */
  readonly warnings: readonly string[];
}

/** `detail` of the `sinew-error` event. */
export interface SinewErrorDetail {
  /** What went wrong, naming the file or attribute (e.g. `bad.glb: HTTP 404 Not Found for /m/bad.glb`). */
  readonly message: string;
}

/** `detail` of the `sinew-progress` event. */
export interface SinewProgressDetail {
  /** Bytes received so far, over the model's file and the companion files it fetched. */
  readonly loaded: number;
  /** Bytes in all: the sum of their sizes, or null while the size of any still downloading is unknown. */
  readonly total: number | null;
}

/** `detail` of the `sinew-timeupdate` event. */
export interface SinewTimeUpdateDetail {
  /** Seconds into the clip. */
  readonly currentTime: number;
  /** Seconds: the clip's duration. */
  readonly duration: number;
  readonly paused: boolean;
}

declare global {
  interface HTMLElementTagNameMap {
    'sinew-viewer': SinewViewerElement;
  }
  interface HTMLElementEventMap {
    'sinew-load': CustomEvent<SinewLoadDetail>;
    'sinew-error': CustomEvent<SinewErrorDetail>;
    'sinew-timeupdate': CustomEvent<SinewTimeUpdateDetail>;
    'sinew-progress': CustomEvent<SinewProgressDetail>;
  }
}

/** Seconds of playback between two `sinew-timeupdate` events while playing. */
const TIME_UPDATE_INTERVAL_MS = 250;
/** Camera pitch (degrees) when the `pitch` attribute is absent. */
const DEFAULT_PITCH = 10;

/** Frames are cleared to transparent: the canvas's CSS background (the `background` attribute) shows through. */
const CLEAR: Rgba = [0, 0, 0, 0];

const OBSERVED_ATTRIBUTES = [
  'src', 'anim', 'clip', 'time', 'autoplay', 'palette', 'skinning', 'weights', 'yaw', 'pitch', 'distance', 'controls', 'speed',
  'loop', 'fade', 'loading', 'poster', 'alt', 'background',
] as const;

/**
 * The {@link ViewerHost} of each document that has connected elements, so they all share one WebGL2
 * context. Read only when an element connects; an entry goes when its host disposes itself (its last element
 * disconnected).
 */
const hosts = new WeakMap<Document, ViewerHost>();

/** The host of `doc`'s elements, made when its first element connects. */
function hostOf(doc: Document): ViewerHost {
  const existing = hosts.get(doc);
  if (existing && !existing.isDisposed) return existing;
  const host: ViewerHost = new ViewerHost({
    onDisposed: () => {
      if (hosts.get(doc) === host) hosts.delete(doc);
    },
  });
  hosts.set(doc, host);
  return host;
}

/** What survives a disconnection (CPU only), so reconnecting shows the same model without fetching it. */
interface RetainedModel {
  readonly asset: ModelAsset;
  /** `src` + `anim` it was loaded from. */
  readonly source: string;
  readonly clipIndex: number;
  readonly time: number;
  readonly playing: boolean;
}

/**
 * `HTMLElement` where there is a DOM; elsewhere (node, server-side rendering) an empty stand-in, so importing
 * `sinew/element` there defines the class without throwing (and {@link defineSinewViewer} registers nothing).
 */
const ElementBase: typeof HTMLElement = typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/**
 * `<sinew-viewer>`: a skinned model drawn with WebGL2 into a canvas in its own shadow root, sized by the
 * element's CSS box (default 300 × 150 CSS pixels, drawn at devicePixelRatio). Drag to orbit, shift/right-drag
 * to pan, wheel to zoom. Attributes, properties, methods and events are documented in README.md
 * ("Embedding"); in brief:
 *
 * - attributes (reflected as properties): `src`, `anim`, `clip`, `time`, `autoplay`, `palette`, `skinning`,
 *   `weights`, `yaw`, `pitch`, `distance`, `controls`, `speed`, `loop`, `fade`, `loading`, `poster`, `alt`, `background`;
 * - read-only properties: `model`, `clips`, `duration`, `currentTime`, `paused`;
 * - methods: `play()`, `pause()`, `seek(seconds)`, `renderOnce()`;
 * - events (bubbling, composed): `sinew-load`, `sinew-error`, `sinew-timeupdate`, `sinew-progress`.
 *
 * All elements of a document share one WebGL2 context, renderer and animation-frame loop (a
 * {@link ViewerHost}, made when the first connects and released when the last disconnects): each frame is
 * drawn off-screen and copied into the element's 2D canvas, and elements out of the viewport do not draw.
 * Disconnecting stops the element's loop and deletes its GL objects; reconnecting shows the same model again
 * (no refetch). Bad input never throws from an attribute: it fires `sinew-error` and the model shown before
 * keeps playing.
 */
export class SinewViewerElement extends ElementBase {
  /** Attributes whose changes the element reacts to. */
  static readonly observedAttributes: readonly string[] = OBSERVED_ATTRIBUTES;

  private readonly bar: ElementControls;
  private readonly progress = new ProgressBar('Downloading the model');
  private readonly posterImage: HTMLImageElement;
  private view: ModelView | null = null;
  private resizeObserver: ResizeObserver | null = null;
  private boxWidth = -1;
  private boxHeight = -1;
  private retained: RetainedModel | null = null;
  /** `src` + `anim` of the model shown. */
  private shownSource: string | null = null;
  private loadTimer = 0;
  private loadsRunning = 0;
  /** `clip` / `time` / `autoplay` changed during a load: apply them once it settles. */
  private playbackDirty = false;
  /** play() / pause() before the first model: its start state. */
  private requestedPlaying: boolean | null = null;
  private clipNames: readonly string[] = Object.freeze([]);
  private lastTimeEventMs = -Infinity;
  private lastTimeEventValue = Number.NaN;
  private lastTimeEventPaused = false;
  /** A frame has been drawn: the poster is gone for good. */
  private firstFrameShown = false;
  /** The element is within the near margin of the viewport (for `loading="lazy"`). */
  private near = false;
  /** A load waits for the element to come near the viewport. */
  private loadDeferred = false;
  private stopNearness: (() => void) | null = null;
  /** Bumped by each load started (and by a disconnection): only the latest one shows its progress. */
  private loadSerial = 0;

  private readonly listener: ModelViewListener = {
    shown: ({ asset, clipIndex, warnings }) => {
      this.clipNames = Object.freeze(asset.clips.map((c) => c.name));
      this.bar.setModel(this.clipNames, clipIndex);
      this.applyAlt();
      logWarningsOnce(this.resolvedSourceKey(), warnings);
      this.emit('sinew-load', { model: asset.name, clips: this.clipNames, warnings: Object.freeze([...warnings]) });
    },
    drawn: (time, duration, playing) => {
      if (!this.firstFrameShown) {
        this.firstFrameShown = true;
        this.posterImage.hidden = true;
      }
      const now = performance.now();
      this.bar.setTime(time, duration, now, !playing);
      // Throttled while playing (each event allocates); once per distinct time when paused, and once when
      // playback stops (a pause, or a `once` clip reaching its end) even at a time already reported.
      const due = playing
        ? time !== this.lastTimeEventValue && now - this.lastTimeEventMs >= TIME_UPDATE_INTERVAL_MS
        : time !== this.lastTimeEventValue || !this.lastTimeEventPaused;
      if (due) {
        this.lastTimeEventMs = now;
        this.lastTimeEventValue = time;
        this.lastTimeEventPaused = !playing;
        this.emit('sinew-timeupdate', { currentTime: time, duration, paused: !playing });
      }
    },
    playingChanged: (playing) => this.bar.setPlaying(playing),
    clipChanged: (clipIndex) => this.bar.setClip(clipIndex),
    failed: (message) => this.report(message),
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = styles;
    this.bar = new ElementControls({
      onPlayToggle: () => (this.paused ? this.play() : this.pause()),
      onScrub: (s) => this.view?.setTime(s),
      onClipChange: (i) => this.view?.selectClip(i),
    });
    this.bar.element.hidden = true;
    this.progress.element.setAttribute('part', 'progress');
    this.posterImage = document.createElement('img');
    this.posterImage.className = 'poster';
    this.posterImage.setAttribute('part', 'poster');
    this.posterImage.alt = '';
    this.posterImage.hidden = true;
    this.posterImage.addEventListener('error', () => (this.posterImage.hidden = true));
    root.append(style, this.posterImage, this.progress.element, this.bar.element);
  }

  // ── Attributes reflected as properties ────────────────────────────────────────────────────────────

  /** URL of the model (.glb, .gltf, .md5mesh), relative to the page; null (absent): the built-in octopus. */
  get src(): string | null {
    return this.getAttribute('src');
  }
  set src(value: string | null) {
    this.setOrRemove('src', value);
  }

  /** URL of the .md5anim to play on an .md5mesh `src`; null: `<name>.md5anim` next to the mesh, when there. */
  get anim(): string | null {
    return this.getAttribute('anim');
  }
  set anim(value: string | null) {
    this.setOrRemove('anim', value);
  }

  /** Clip by name or 0-based index (`rest` or −1: the rest pose); null: the first clip. */
  get clip(): string | null {
    return this.getAttribute('clip');
  }
  set clip(value: string | number | null) {
    this.setOrRemove('clip', value === null ? null : String(value));
  }

  /** Seconds: when set, the element is paused at this time of the clip (unless `autoplay`); null: absent. */
  get time(): number | null {
    return parseNumberSetting('time', this.getAttribute('time')).value;
  }
  set time(value: number | null) {
    this.setOrRemove('time', value === null ? null : String(value));
  }

  /** Play even when `time` is set (starting there). Without `time` the element plays anyway. */
  get autoplay(): boolean {
    return this.hasAttribute('autoplay');
  }
  set autoplay(value: boolean) {
    this.toggleAttribute('autoplay', value);
  }

  /** Skinning mode: `lbs` or `dqs` (absent: `lbs`). */
  get skinning(): string | null {
    return this.getAttribute('skinning');
  }
  set skinning(value: string | null) {
    this.setOrRemove('skinning', value);
  }

  /** Weight policy: `normalize`, `as-stored`, `rest-remainder` or `implicit-last` (absent: `normalize`). */
  get weights(): string | null {
    return this.getAttribute('weights');
  }
  set weights(value: string | null) {
    this.setOrRemove('weights', value);
  }

  /** How the palette reaches the shader: `uniform`, `texture`, `ubo` or `auto` (absent: `auto`). */
  get palette(): string | null {
    return this.getAttribute('palette');
  }
  set palette(value: string | null) {
    this.setOrRemove('palette', value);
  }

  /** Camera yaw, degrees (0 looks at the model's front, positive swings the eye to +X); null: 0. */
  get yaw(): number | null {
    return parseNumberSetting('yaw', this.getAttribute('yaw')).value;
  }
  set yaw(value: number | null) {
    this.setOrRemove('yaw', value === null ? null : String(value));
  }

  /** Camera pitch, degrees in [−90, 90] (positive raises the eye); null: 10. */
  get pitch(): number | null {
    return parseNumberSetting('pitch', this.getAttribute('pitch')).value;
  }
  set pitch(value: number | null) {
    this.setOrRemove('pitch', value === null ? null : String(value));
  }

  /** Camera distance as a multiple of the distance that frames the whole model (> 0); null: 1. */
  get distance(): number | null {
    return parseNumberSetting('distance', this.getAttribute('distance')).value;
  }
  set distance(value: number | null) {
    this.setOrRemove('distance', value === null ? null : String(value));
  }

  /** Playback rate: 1 real time (absent), 2 double speed, negative plays backwards; null: absent. */
  get speed(): number | null {
    return parseNumberSetting('speed', this.getAttribute('speed')).value;
  }
  set speed(value: number | null) {
    this.setOrRemove('speed', value === null ? null : String(value));
  }

  /** What a clip does at its ends: `loop` (absent: wraps around), `once` (holds the end), `pingpong`. */
  get loop(): string | null {
    return this.getAttribute('loop');
  }
  set loop(value: string | null) {
    this.setOrRemove('loop', value);
  }

  /** Seconds: crossfade duration when the clip changes while playing (absent: 0.3; 0 cuts); null: absent. */
  get fade(): number | null {
    return parseNumberSetting('fade', this.getAttribute('fade')).value;
  }
  set fade(value: number | null) {
    this.setOrRemove('fade', value === null ? null : String(value));
  }

  /**
   * When to load: `auto` (absent) and `eager` at once, `lazy` once the element comes near the viewport (within
   * half a viewport of it). Read as written; null when absent.
   */
  get loading(): string | null {
    return this.getAttribute('loading');
  }
  set loading(value: string | null) {
    this.setOrRemove('loading', value);
  }

  /** URL of an image shown (scaled to fit) until the first frame is drawn; null: none. */
  get poster(): string | null {
    return this.getAttribute('poster');
  }
  set poster(value: string | null) {
    this.setOrRemove('poster', value);
  }

  /** The canvas's accessible name (`aria-label`, with `role="img"`); null: "3D model: NAME". */
  get alt(): string | null {
    return this.getAttribute('alt');
  }
  set alt(value: string | null) {
    this.setOrRemove('alt', value);
  }

  /** Background behind the model: a CSS colour, or `transparent` to show the page; null: dark grey (#212429). */
  get background(): string | null {
    return this.getAttribute('background');
  }
  set background(value: string | null) {
    this.setOrRemove('background', value);
  }

  /** Whether the mini control bar (play / pause, time slider, clip menu) is shown. */
  get controls(): boolean {
    return this.hasAttribute('controls');
  }
  set controls(value: boolean) {
    this.toggleAttribute('controls', value);
  }

  // ── Read-only state ───────────────────────────────────────────────────────────────────────────────

  /** Name of the model shown ('' before the first has loaded). */
  get model(): string {
    return this.view?.asset?.name ?? this.retained?.asset.name ?? '';
  }

  /** Names of the shown model's clips (a frozen array, replaced on each load). */
  get clips(): readonly string[] {
    return this.clipNames;
  }

  /** Seconds: the selected clip's duration (0 for the rest pose or before a model). */
  get duration(): number {
    return this.view?.playback.duration ?? 0;
  }

  /** Seconds into the selected clip. */
  get currentTime(): number {
    return this.view?.playback.time ?? this.retained?.time ?? 0;
  }

  /** Whether playback is paused. */
  get paused(): boolean {
    if (this.view?.asset) return !this.view.playback.playing;
    return !(this.requestedPlaying ?? this.retained?.playing ?? this.startsPlaying());
  }

  // ── Methods ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Plays from the current time (before the first model has loaded: it will start playing). In `once` loop
   * mode a clip that has ended restarts from its start (from its end when the speed is negative); an ending
   * `once` clip pauses the element, firing `sinew-timeupdate` with `paused: true`.
   */
  play(): void {
    if (this.view?.asset) this.view.play();
    else this.requestedPlaying = true;
  }

  /** Pauses at the current time (before the first model has loaded: it will start paused). */
  pause(): void {
    if (this.view?.asset) this.view.pause();
    else this.requestedPlaying = false;
  }

  /**
   * Jumps to `seconds` into the clip (clamped to [0, duration]) keeping the play state, and draws it on the
   * next frame. Does nothing before a model is shown.
   * @throws TypeError when `seconds` is not a finite number
   */
  seek(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
      throw new TypeError(`<sinew-viewer>.seek: expected a finite number of seconds, got ${String(seconds)}`);
    }
    this.view?.seek(seconds);
  }

  /**
   * Draws a frame now at the current time, without advancing it (for screenshots and when the page throttles
   * animation frames). A no-op before a model is shown and while disconnected; a drawing failure fires
   * `sinew-error` instead of throwing.
   */
  renderOnce(): void {
    try {
      this.view?.renderOnce();
    } catch (e) {
      this.report(`Drawing ${this.model || 'the model'} failed: ${messageOf(e)}`);
    }
  }

  // ── Lifecycle ─────────────────────────────────────────────────────────────────────────────────────

  /**
   * @internal Makes the canvas and its view (a share of the document's host), then shows the model (the
   * retained one, or `src`, once near the viewport when `loading="lazy"`).
   */
  connectedCallback(): void {
    if (this.view) return;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('part', 'canvas');
    canvas.tabIndex = 0;
    this.shadowRoot!.insertBefore(canvas, this.posterImage);
    const palette = this.readPalette(false);
    const distance = this.readNumber('distance', false);
    const host = hostOf(this.ownerDocument);
    const method = this.readMethod();
    const view = new ModelView(canvas, { palette: palette ?? 'auto', method, distance: distance ?? 1, host, background: CLEAR }, this.listener);
    this.view = view;
    this.applyCamera(false);
    this.applySettings(false);
    this.applyAlt();
    this.applyBackground(false);
    this.applyPoster();
    // Problems with the attributes present now are reported after this task, so that page scripts that
    // run after the element is upgraded can listen for them.
    window.setTimeout(() => {
      if (this.view !== view) return;
      if (view.startupError) {
        this.showNotice(view.startupError);
        this.report(view.startupError);
      }
      for (const key of ['time', 'yaw', 'pitch', 'distance', 'speed', 'fade'] as const) this.readNumber(key);
      this.readPalette();
      this.readLoop();
      this.readLoading();
      this.applyBackground(true);
    }, 0);
    this.bar.element.hidden = !this.controls;
    this.boxWidth = this.boxHeight = -1;
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    this.resizeObserver.observe(this);
    this.near = false;
    this.stopNearness = host.observeNearness(this, (near) => this.onNearness(near));

    const retained = this.retained;
    this.retained = null;
    if (retained && retained.source === this.sourceKey()) {
      const options: ShowOptions = { clip: String(retained.clipIndex), time: retained.time, playing: retained.playing };
      void this.runLoad(view, retained.asset, options, retained.source, ++this.loadSerial);
    } else {
      this.scheduleLoad();
    }
  }

  /**
   * @internal Stops the loop and frees the GL objects (the last element also releases the shared context);
   * keeps the model's CPU data for a reconnect.
   */
  disconnectedCallback(): void {
    const view = this.view;
    if (!view) return;
    this.view = null;
    clearTimeout(this.loadTimer);
    this.loadTimer = 0;
    this.loadDeferred = false;
    this.stopNearness?.();
    this.stopNearness = null;
    this.loadSerial++;
    this.progress.hide();
    this.bar.setLoading(null);
    const asset = view.asset;
    if (asset && this.shownSource !== null) {
      const state = view.state();
      this.retained = { asset, source: this.shownSource, clipIndex: state.clipIndex, time: state.time, playing: state.playing };
    }
    view.dispose();
    view.canvas.remove();
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
  }

  /** @internal */
  attributeChangedCallback(name: string, oldValue: string | null, value: string | null): void {
    const view = this.view;
    if (!view || oldValue === value) return; // read when connected
    switch (name) {
      case 'loading':
        this.readLoading();
        if (this.loadDeferred && !this.isLazy()) this.scheduleLoad();
        break;
      case 'poster':
        this.applyPoster();
        break;
      case 'alt':
        this.applyAlt();
        break;
      case 'background':
        this.applyBackground(true);
        break;
      case 'src':
      case 'anim':
        this.scheduleLoad();
        break;
      case 'clip':
      case 'time':
      case 'autoplay':
        if (this.loadsRunning > 0 || this.loadTimer !== 0) this.playbackDirty = true;
        else this.applyPlayback(name === 'clip');
        break;
      case 'palette': {
        const palette = this.readPalette();
        if (palette) view.setPaletteMode(palette).catch((e: unknown) => this.report(messageOf(e)));
        break;
      }
      case 'skinning':
      case 'weights':
        view.setSkinningMethod(this.readMethod(name)).catch((e: unknown) => this.report(messageOf(e)));
        break;
      case 'yaw':
      case 'pitch':
      case 'distance':
        this.applyCamera(true);
        break;
      case 'controls':
        this.bar.element.hidden = value === null;
        break;
      case 'speed':
      case 'loop':
      case 'fade':
        this.applySettings(true, name);
        break;
    }
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────────────

  private setOrRemove(name: string, value: string | null): void {
    if (value === null || value === undefined) this.removeAttribute(name);
    else this.setAttribute(name, value);
  }

  /** `src` and `anim` as one key: what the shown model was loaded from. */
  private sourceKey(): string {
    return `${this.getAttribute('src') ?? ''}\n${this.getAttribute('anim') ?? ''}`;
  }

  /** {@link sourceKey} with the URLs resolved against the page, so one model has one key on the page. */
  private resolvedSourceKey(): string {
    const resolve = (url: string | null): string => {
      if (!url) return '';
      try {
        return new URL(url, document.baseURI).href;
      } catch {
        return url;
      }
    };
    return `${resolve(this.getAttribute('src'))}\n${resolve(this.getAttribute('anim'))}`;
  }

  /** Playing by default; paused when `time` is set, unless `autoplay`. */
  private startsPlaying(): boolean {
    return this.hasAttribute('autoplay') || this.time === null;
  }

  /**
   * Loads `src` after the current task, so several attribute changes make one load; with `loading="lazy"`,
   * not before the element is near the viewport.
   */
  private scheduleLoad(): void {
    if (this.loadTimer !== 0) return;
    if (this.isLazy() && !this.near) {
      this.loadDeferred = true;
      return;
    }
    this.loadDeferred = false;
    this.loadTimer = window.setTimeout(() => {
      this.loadTimer = 0;
      const view = this.view;
      if (!view) return;
      const src = this.getAttribute('src');
      const anim = this.getAttribute('anim');
      const clip = this.getAttribute('clip');
      const time = this.readNumber('time', false);
      const playing = this.requestedPlaying ?? (this.hasAttribute('autoplay') || time === null);
      const serial = ++this.loadSerial;
      let source: () => Promise<ModelAsset>;
      if (src) {
        this.bar.setLoading(fileNameOf(src));
        this.progress.show(0, null);
        const onProgress = (loaded: number, total: number | null): void => {
          if (serial !== this.loadSerial) return;
          this.progress.show(loaded, total);
          this.emit('sinew-progress', { loaded, total });
        };
        source = () => loadModelFromUrl(src, { anim, onProgress });
      } else {
        source = async () => createOctopusAsset();
      }
      void this.runLoad(view, source, { clip, time, playing }, this.sourceKey(), serial);
    }, 0);
  }

  /** The element came near the viewport or left it: a deferred lazy load starts. */
  private onNearness(near: boolean): void {
    this.near = near;
    if (near && this.loadDeferred) this.scheduleLoad();
  }

  /**
   * Runs one load on `view`; its failure (unless superseded) fires `sinew-error`. The latest load (`serial`)
   * clears the loading status when it settles.
   */
  private async runLoad(view: ModelView, source: ModelAsset | (() => Promise<ModelAsset>), options: ShowOptions, key: string, serial: number): Promise<void> {
    this.loadsRunning++;
    let shown = false;
    try {
      shown = await view.load(source, options);
      if (shown) {
        this.shownSource = key;
        this.requestedPlaying = null;
      }
    } catch (e) {
      if (view === this.view) this.report(messageOf(e));
    } finally {
      this.loadsRunning--;
      if (serial === this.loadSerial) {
        this.progress.hide();
        this.bar.setLoading(null);
      }
    }
    if (view === this.view && this.loadsRunning === 0 && this.loadTimer === 0 && this.playbackDirty) {
      this.playbackDirty = false;
      this.applyPlayback(true);
    }
  }

  /** Applies `clip` (when asked), then `time` and `autoplay`, to the shown model. */
  private applyPlayback(clipToo: boolean): void {
    const view = this.view;
    if (!view?.asset) return;
    if (clipToo) {
      const clip = this.getAttribute('clip');
      if (clip === null) view.selectClip(view.asset.clips.length > 0 ? 0 : -1);
      else if (!view.selectClipByName(clip)) {
        const names = view.asset.clips.map((c) => c.name);
        this.report(`<sinew-viewer clip="${clip}">: ${view.asset.name} has no such clip (clips: ${names.join(', ') || 'none'})`);
      }
    }
    const raw = this.getAttribute('time');
    const time = this.readNumber('time');
    if (time === null && raw !== null && raw.trim() !== '') return; // malformed: reported, nothing changes
    if (time !== null) view.seek(time);
    if (this.startsPlaying()) view.play();
    else view.pause();
  }

  /** Applies `yaw`, `pitch`, `distance` (absent: 0°, 10°, 1); malformed ones are reported and left alone. */
  private applyCamera(report: boolean): void {
    const view = this.view;
    if (!view) return;
    const value = (key: NumberSetting, fallback: number): number | undefined => {
      const raw = this.getAttribute(key);
      const v = this.readNumber(key, report);
      if (v !== null) return v;
      return raw === null || raw.trim() === '' ? fallback : undefined;
    };
    view.setCamera({ yaw: value('yaw', 0), pitch: value('pitch', DEFAULT_PITCH), distance: value('distance', 1) });
  }

  /** Reads a numeric attribute; a malformed value reads as null (and fires `sinew-error` when `report`). */
  private readNumber(key: NumberSetting, report = true): number | null {
    const raw = this.getAttribute(key);
    const { value, error } = parseNumberSetting(key, raw);
    if (error && report) this.report(`<sinew-viewer ${key}="${raw}">: ${error}`);
    return value;
  }

  /**
   * Applies `speed`, `loop`, `fade` (absent: 1, `loop`, 0.3 s); malformed ones are reported (when `report`)
   * and leave the setting as it was.
   * @param only apply just this attribute
   */
  private applySettings(report: boolean, only?: 'speed' | 'loop' | 'fade'): void {
    const view = this.view;
    if (!view) return;
    const absent = (key: string): boolean => (this.getAttribute(key) ?? '').trim() === '';
    if (!only || only === 'speed') {
      const speed = this.readNumber('speed', report);
      if (speed !== null || absent('speed')) view.setSpeed(speed ?? 1);
    }
    if (!only || only === 'loop') {
      const loop = this.readLoop(report);
      if (loop !== null || absent('loop')) view.setLoop(loop ?? 'loop');
    }
    if (!only || only === 'fade') {
      const fade = this.readNumber('fade', report);
      if (fade !== null || absent('fade')) view.setFade(fade ?? DEFAULT_FADE_SECONDS);
    }
  }

  /** Reads `loop`; a malformed value reads as null (and fires `sinew-error` when `report`). */
  private readLoop(report = true): ReturnType<typeof parseLoopSetting>['value'] {
    const raw = this.getAttribute('loop');
    const { value, error } = parseLoopSetting(raw);
    if (error && report) this.report(`<sinew-viewer loop="${raw}">: ${error}`);
    return value;
  }

  /**
   * Reads `skinning` and `weights`; a malformed one reads as its default (`lbs`, `normalize`), and fires
   * `sinew-error` when it is the attribute named by `report` (the one that just changed).
   */
  private readMethod(report: 'skinning' | 'weights' | null = null): SkinningMethod {
    const rawSkinning = this.getAttribute('skinning'), rawWeights = this.getAttribute('weights');
    const skinning = parseSkinningSetting(rawSkinning), weights = parseWeightsSetting(rawWeights);
    if (skinning.error && report === 'skinning') this.report(`<sinew-viewer skinning="${rawSkinning}">: ${skinning.error}`);
    if (weights.error && report === 'weights') this.report(`<sinew-viewer weights="${rawWeights}">: ${weights.error}`);
    return { skinning: skinning.value, weights: weights.value };
  }

  /** Reads `palette`; a malformed value reads as null (and fires `sinew-error` when `report`). */
  private readPalette(report = true): ReturnType<typeof parsePaletteSetting>['value'] | null {
    const raw = this.getAttribute('palette');
    const { value, error } = parsePaletteSetting(raw);
    if (error) {
      if (report) this.report(`<sinew-viewer palette="${raw}">: ${error}`);
      return null;
    }
    return value;
  }

  /** Whether `loading` is `lazy` (case-insensitive). */
  private isLazy(): boolean {
    return (this.getAttribute('loading') ?? '').trim().toLowerCase() === 'lazy';
  }

  /** Checks `loading`; a value other than auto, lazy or eager fires `sinew-error` (and reads as auto). */
  private readLoading(): void {
    const raw = this.getAttribute('loading');
    const value = (raw ?? '').trim().toLowerCase();
    if (value !== '' && value !== 'auto' && value !== 'lazy' && value !== 'eager') {
      this.report(`<sinew-viewer loading="${raw}">: expected auto, lazy or eager`);
    }
  }

  /** Shows the `poster` image until the first frame is drawn. */
  private applyPoster(): void {
    const url = this.getAttribute('poster');
    const image = this.posterImage;
    if (url && !this.firstFrameShown) {
      if (image.getAttribute('src') !== url) image.src = url;
      image.hidden = false;
    } else {
      image.hidden = true;
      if (!url) image.removeAttribute('src');
    }
  }

  /** Names the canvas for assistive technology: `alt`, else the model shown. */
  private applyAlt(): void {
    const canvas = this.view?.canvas;
    if (!canvas) return;
    const alt = this.getAttribute('alt');
    const model = this.model;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', alt ?? (model ? `3D model: ${model}` : '3D model'));
  }

  /**
   * Sets the canvas's background from `background` (absent or empty: the stylesheet's dark grey); a value that
   * is not a CSS colour fires `sinew-error` (when `report`) and leaves the background as it was.
   */
  private applyBackground(report: boolean): void {
    const canvas = this.view?.canvas;
    if (!canvas) return;
    const raw = this.getAttribute('background');
    const value = (raw ?? '').trim();
    if (value === '') {
      canvas.style.backgroundColor = '';
    } else if (CSS.supports('color', value)) {
      canvas.style.backgroundColor = value;
    } else if (report) {
      this.report(`<sinew-viewer background="${raw}">: expected a CSS colour or transparent`);
    }
  }

  private onResize(entries: ResizeObserverEntry[]): void {
    const box = entries[entries.length - 1]?.contentRect;
    if (!box || (box.width === this.boxWidth && box.height === this.boxHeight)) return;
    this.boxWidth = box.width;
    this.boxHeight = box.height;
    // A new aspect changes the distance that frames the model.
    this.view?.frameModel();
  }

  /**
   * Shows `message` in place of the picture (part `notice`, `role="alert"`): for what stops the element from
   * drawing at all (no WebGL2), so the reader sees why the box is empty, not a blank canvas.
   */
  private showNotice(message: string): void {
    const notice = document.createElement('p');
    notice.className = 'notice';
    notice.setAttribute('part', 'notice');
    notice.setAttribute('role', 'alert');
    notice.textContent = message;
    this.shadowRoot!.append(notice);
  }

  /** Fires `sinew-error` (the model shown keeps playing) and logs it as a warning. */
  private report(message: string): void {
    console.warn(`sinew-viewer: ${message}`);
    this.emit('sinew-error', { message });
  }

  private emit<K extends 'sinew-load' | 'sinew-error' | 'sinew-timeupdate' | 'sinew-progress'>(type: K, detail: HTMLElementEventMap[K]['detail']): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

/**
 * Registers {@link SinewViewerElement} as `<sinew-viewer>` (or `name`), unless that name is defined already
 * (a second copy of the script, hot reload): then the existing definition stays.
 * @returns the constructor registered under `name`, or null where there is no `customElements` (node, SSR)
 */
export function defineSinewViewer(name = 'sinew-viewer'): CustomElementConstructor | null {
  if (typeof customElements === 'undefined') return null;
  const existing = customElements.get(name);
  if (existing) return existing;
  customElements.define(name, name === 'sinew-viewer' ? SinewViewerElement : class extends SinewViewerElement {});
  return customElements.get(name)!;
}
