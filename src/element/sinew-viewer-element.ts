import { ElementControls } from './element-controls.ts';
import { ElementPicking, type ElementSurfaceHit } from './element-picking.ts';
import { messageOf, ModelView } from '../view/model-view.ts';
import type { ModelViewListener } from '../view/model-view-listener.ts';
import type { Rgba } from '../view/render-surface.ts';
import { ViewerHost } from '../view/viewer-host.ts';
import styles from './sinew-viewer-element.css?inline';
import { logWarningsOnce } from './warning-log.ts';
import {
  defineAttributeProperties, ELEMENT_ATTRIBUTE_NAMES, readAttribute, type AttributeName, type ElementAttributeProperties,
} from './element-attributes.ts';
import {
  emitAnimationEvents, emitSinewEvent, TimeUpdateThrottle, type ModelVisibilityDetail, type SinewEventDetails,
} from './element-events.ts';
import { ElementLoading } from './element-loading.ts';
import { ElementAnimations } from './element-animations.ts';
import { ElementAttachments } from './element-attachments.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { Attachment } from '../view/view-attachments.ts';
import { applyPlayback, applyPlaybackSettings, readSkinningMethod, startsPlaying } from './element-playback.ts';
import { ElementEnvironment } from './element-environment.ts';
import { ElementHotspots, type HotspotConfiguration, type HotspotData } from './element-hotspots.ts';
import {
  defineAnimationProperties, ElementAnimationApi, type AnimationApiProperties, type AppendAnimationOptions, type DetachAnimationOptions, type PlayAnimationOptions,
} from './element-animation-api.ts';
import { ElementReveal } from './element-reveal.ts';
import { snapshotBlob, type ToBlobOptions } from './element-snapshot.ts';
import { CAMERA_PARSED_ATTRIBUTES, ElementCamera, isCameraAttribute, type SphericalPosition } from './element-camera.ts';
import type { Vector3D } from './model-viewer-vectors.ts';

declare global {
  interface HTMLElementTagNameMap {
    'sinew-viewer': SinewViewerElement;
  }
  interface HTMLElementEventMap {
    'sinew-load': CustomEvent<SinewEventDetails['sinew-load']>;
    'sinew-error': CustomEvent<SinewEventDetails['sinew-error']>;
    'sinew-timeupdate': CustomEvent<SinewEventDetails['sinew-timeupdate']>;
    'sinew-progress': CustomEvent<SinewEventDetails['sinew-progress']>;
    'sinew-clipsadded': CustomEvent<SinewEventDetails['sinew-clipsadded']>;
    loop: CustomEvent<SinewEventDetails['loop']>;
    'append-animation': CustomEvent<null>;
    'detach-animation': CustomEvent<null>;
    finished: CustomEvent<SinewEventDetails['finished']>;
    marker: CustomEvent<SinewEventDetails['marker']>;
    'model-visibility': CustomEvent<ModelVisibilityDetail>;
    'camera-change': CustomEvent<SinewEventDetails['camera-change']>;
  }
}

/** Frames are cleared to transparent: the canvas's CSS background (the `background` attribute) shows through. */
const CLEAR: Rgba = [0, 0, 0, 0];

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

/**
 * `HTMLElement` where there is a DOM; elsewhere (node, server-side rendering) an empty stand-in, so importing
 * `sinew/element` there defines the class without throwing (and {@link defineSinewViewer} registers nothing).
 */
const ElementBase: typeof HTMLElement = typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/** The attributes reflected as properties of {@link SinewViewerElement}, typed from the attribute table. */
export interface SinewViewerElement extends ElementAttributeProperties, AnimationApiProperties {}

/**
 * `<sinew-viewer>`: a skinned model drawn with WebGL2 into a canvas in its own shadow root, sized by the
 * element's CSS box (default 300 × 150 CSS pixels, drawn at devicePixelRatio). Drag to orbit, shift/right-drag
 * to pan, wheel to zoom (with model-viewer's camera attributes, only with `camera-controls`: element-camera.ts). Attributes, properties, methods and events are documented in README.md
 * ("Embedding"); in brief:
 *
 * - attributes, reflected as properties: the rows of `ELEMENT_ATTRIBUTES` (element-attributes.ts), each with
 *   its kind, default, reading rule and meaning;
 * - read-only properties: `model`, `clips`, `duration`, `currentTime`, `paused`, `loaded`, `modelIsVisible`;
 * - methods: `getCameraOrbit()`, `getCameraTarget()`, `getFieldOfView()`, `jumpCameraToGoal()` (model-viewer's),
 *   `play()`, `pause()`, `seek(seconds)`, `renderOnce()`, `appendAnimations(url)`, `updateHotspot(config)`,
 *   `queryHotspot(name)`, `attach(src, joint, offset)`, `detach(attachment)`, `dismissPoster()`, `showPoster()`,
 *   `toDataURL(type, quality)`, `toBlob(options)`;
 * - children slotted as `hotspot-NAME`: hotspots placed on a joint, the skinned surface or a model-space point
 *   in every frame (element-hotspots.ts, README "Hotspots");
 * - children: `<sinew-attachment src joint offset offset-rotation offset-scale>`, props on joints (element-attachments.ts);
 * - events (bubbling, composed): `sinew-load`, `sinew-error`, `sinew-timeupdate`, `sinew-progress`,
 *   `sinew-clipsadded`, `camera-change`, and `loop`, `finished`, `marker` as clips play (element-events.ts);
 *   `<model-viewer>`'s `load`, `error`, `progress` (beside the `sinew-*` aliases), `poster-dismissed`, `model-visibility`.
 *
 * All elements of a document share one WebGL2 context, renderer and animation-frame loop (a
 * {@link ViewerHost}, made when the first connects and released when the last disconnects): each frame is
 * drawn off-screen and copied into the element's 2D canvas, and elements out of the viewport do not draw.
 * Disconnecting stops the element's loop and deletes its GL objects; reconnecting shows the same model again
 * (no refetch). Bad input never throws from an attribute: it fires `sinew-error` and the model shown before
 * keeps playing.
 */
export class SinewViewerElement extends ElementBase {
  /** Attributes whose changes the element reacts to: every row of the attribute table. */
  static readonly observedAttributes: readonly string[] = ELEMENT_ATTRIBUTE_NAMES;

  static {
    defineAttributeProperties(this.prototype);
    defineAnimationProperties(this.prototype, (element: SinewViewerElement) => element.animationApi);
  }

  private readonly bar: ElementControls;
  private readonly loader: ElementLoading;
  /** `reveal`, the poster, `dismissPoster()` / `showPoster()` and `modelIsVisible`. */
  private readonly revealer: ElementReveal;
  /** `animations` and `appendAnimations`: clips from other files. */
  private readonly clipFiles: ElementAnimations;
  /** Children slotted as `hotspot-…`, placed over the canvas in each frame (README "Hotspots"). */
  private readonly hotspots: ElementHotspots;
  /** `<sinew-attachment>` children and `attach` / `detach`: props on joints. */
  private readonly props: ElementAttachments;
  /** model-viewer's camera attributes, methods and `camera-change` (element-camera.ts). */
  private readonly cameraRules: ElementCamera;
  private view: ModelView | null = null;
  /** `environment-image`, `skybox-image`, `exposure`, `tone-mapping`: this element's own light. */
  private readonly light: ElementEnvironment;
  private readonly picking = new ElementPicking(this, () => this.view);
  /** `<model-viewer>`'s animation API: play options, appended clips, `play` / `pause` events. */
  private readonly animationApi: ElementAnimationApi = new ElementAnimationApi({
    element: this,
    currentView: () => this.view,
    clips: () => this.clipNames,
    requestPlaying: (playing) => (this.requestedPlaying = playing),
    emit: (type) => this.emit(type, null),
    report: (message) => this.report(message),
  });
  private resizeObserver: ResizeObserver | null = null;
  private boxWidth = -1;
  private boxHeight = -1;
  /** play() / pause() before the first model: its start state. */
  private requestedPlaying: boolean | null = null;
  private clipNames: readonly string[] = Object.freeze([]);
  private readonly timeUpdates = new TimeUpdateThrottle();
  /** {@link report}, bound once: where malformed attributes go. */
  private readonly reporter = (message: string): void => this.report(message);

  private readonly listener: ModelViewListener = {
    shown: ({ asset, clipIndex, warnings }) => {
      this.clipNames = Object.freeze(asset.clips.map((c) => c.name));
      this.bar.setModel(this.clipNames, clipIndex);
      this.applyAlt();
      logWarningsOnce(this.loader.resolvedSourceKey(), warnings);
      this.emit('sinew-load', { model: asset.name, clips: this.clipNames, warnings: Object.freeze([...warnings]) });
      this.clipFiles.shown();
      this.props.shown();
      if (this.view) this.animationApi.shown(this.view);
      this.cameraRules.shown();
    },
    drawn: (time, duration, playing) => {
      this.revealer.frameDrawn();
      const now = performance.now();
      if (this.view) this.cameraRules.drawn(this.view, now);
      this.bar.setTime(time, duration, now, !playing);
      if (this.timeUpdates.due(time, playing, now)) this.emit('sinew-timeupdate', { currentTime: time, duration, paused: !playing });
    },
    animationEvents: (events) => emitAnimationEvents(this, events),
    playingChanged: (playing) => this.bar.setPlaying(playing),
    clipChanged: (clipIndex) => this.bar.setClip(clipIndex),
    failed: (message) => this.report(message),
    contextLost: () => this.emit('error', { type: 'webglcontextlost', sourceError: new Error('The browser lost the WebGL context') }),
    cameraMoved: () => this.cameraRules.userMoved(),
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
    this.loader = new ElementLoading({
      element: this,
      currentView: () => this.view,
      startsPlaying: (time) => this.requestedPlaying ?? (this.hasAttribute('autoplay') || time === null),
      setStatus: (fileName) => this.bar.setLoading(fileName),
      progressed: (loaded, total) => this.emit('sinew-progress', { loaded, total }),
      loadProgress: (totalProgress) => this.emit('progress', { totalProgress, reason: 'model-load' }),
      holdsLoad: () => this.revealer.holdsLoad(),
      loadFailed: (sourceError) => this.emit('error', { type: 'loadfailure', sourceError }),
      shown: () => {
        this.requestedPlaying = null;
        this.revealer.update();
        this.emit('load', { url: this.getAttribute('src') });
      },
      report: this.reporter,
      applyPlayback: () => this.applyPlayback(true),
    });
    this.clipFiles = new ElementAnimations({
      element: this,
      currentView: () => this.view,
      added: (added, clips) => {
        this.clipNames = clips;
        this.bar.setModel(clips, this.view?.playback.clipIndex ?? -1);
        this.emit('sinew-clipsadded', {
          file: added.file, added: added.names, clips, matched: added.match.matched, unmatched: added.match.unmatched, warnings: added.warnings,
        });
      },
      report: this.reporter,
    });
    this.hotspots = new ElementHotspots({ element: this, report: this.reporter });
    this.props = new ElementAttachments({ element: this, currentView: () => this.view, report: this.reporter });
    this.light = new ElementEnvironment({ element: this, report: this.reporter });
    this.revealer = new ElementReveal({
      element: this,
      loaded: () => this.loader.loaded(this.view),
      modelLayers: () => [this.view?.canvas ?? null, this.hotspots.layer],
      releaseLoad: () => this.loader.release(),
      report: this.reporter,
    });
    this.cameraRules = new ElementCamera({ element: this, currentView: () => this.view, report: this.reporter });
    root.append(style, this.hotspots.layer, this.revealer.poster, this.cameraRules.prompt, this.loader.progress.element, this.bar.element);
  }

  // ── Read-only state ───────────────────────────────────────────────────────────────────────────────

  /** Name of the model shown ('' before the first has loaded). */
  get model(): string {
    return this.view?.asset?.name ?? this.loader.retained?.asset.name ?? '';
  }

  /** Names of the shown model's clips (a frozen array, replaced on each load and each clips file added). */
  get clips(): readonly string[] {
    return this.clipNames;
  }

  /** Seconds: the selected clip's duration (0 for the rest pose or before a model). */
  get duration(): number {
    return this.view?.playback.duration ?? 0;
  }

  /**
   * Seconds into the selected clip. Setting it jumps there (clamped to the clip) keeping the play state, as
   * {@link seek}, but a non-finite value is reported (`sinew-error`) instead of thrown (`<model-viewer>`'s).
   */
  get currentTime(): number {
    return this.view?.playback.time ?? this.loader.retained?.time ?? 0;
  }
  set currentTime(seconds: number) {
    this.animationApi.setCurrentTime(seconds);
  }

  /** `<model-viewer>`'s `loaded`: the model of the current `src` is shown (false again while a new `src` loads). */
  get loaded(): boolean {
    return this.loader.loaded(this.view);
  }

  /** `<model-viewer>`'s `modelIsVisible`: loaded, revealed (`reveal`, `dismissPoster()`) and in the viewport. */
  get modelIsVisible(): boolean {
    return this.revealer.modelIsVisible;
  }

  /** Whether playback is paused. */
  get paused(): boolean {
    if (this.view?.asset) return !this.view.playback.playing;
    return !(this.requestedPlaying ?? this.loader.retained?.playing ?? startsPlaying(this));
  }

  // ── Methods ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * `<model-viewer>`'s `play(options)`: plays from the current time (before the first model has loaded: it
   * will start playing), firing `play`. `options.repetitions` (integer ≥ 1, default `Infinity`): the clip
   * finishes at the N-th end it reaches from this call, firing `finished`, and pauses there;
   * `options.pingpong` alternates direction; `{repetitions: 1}` plays once. Without options the clip loops in
   * the `loop` attribute's mode. A clip that has finished restarts from its start (its end when `timeScale`
   * is negative). Bad options: reported (`sinew-error`), their defaults used.
   */
  play(options?: PlayAnimationOptions): void {
    this.animationApi.play(options);
  }

  /** `<model-viewer>`'s: pauses at the current time, firing `pause` when it was playing (before the first model: it will start paused). */
  pause(): void {
    this.animationApi.pause();
  }

  /**
   * `<model-viewer>` 4.2's `appendAnimation(name, options)`: plays clip `name` over the current one, blended
   * on a layer of its own (`weight` in [0, 1], own `timeScale`, `fade` seconds, `repetitions`, `pingpong`,
   * start `time` in seconds; README "Animation"). Not `appendAnimations(url)`, which adds clips from a file.
   */
  appendAnimation(name: string, options?: AppendAnimationOptions): void {
    this.animationApi.appendAnimation(name, options);
  }

  /** `<model-viewer>` 4.2's `detachAnimation(name, { fade })`: fades an appended clip out (`fade` seconds, default 1.5). */
  detachAnimation(name: string, options?: DetachAnimationOptions): void {
    this.animationApi.detachAnimation(name, options);
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

  /**
   * Fetches the clips file at `url` (`.glb`, `.gltf`, `.md5anim`; relative to the page) and adds its clips to
   * the model shown, retargeted onto its skeleton by joint name, after the files of `animations` and earlier
   * calls: they join `clips` (a taken name becomes `Walk (walk.glb)`) and `sinew-clipsadded` fires.
   * @returns the added clips' names
   * @throws Error (rejects, after firing `sinew-error`; the model plays on with its clips) when no model is
   *   shown, the file cannot be read or matches no joint, or another model is shown meanwhile
   */
  appendAnimations(url: string): Promise<readonly string[]> {
    return this.clipFiles.append(String(url));
  }

  /** `<model-viewer>`'s: reveals the model held by `reveal="manual"` (or `showPoster()`), loading it first if need be. */
  dismissPoster(): void {
    this.revealer.dismissPoster();
  }

  /** `<model-viewer>`'s: hides the model behind the poster until the next `dismissPoster()`. */
  showPoster(): void {
    this.revealer.showPoster();
  }

  /**
   * `<model-viewer>`'s: the picture shown (the canvas's drawing buffer, CSS size × devicePixelRatio; transparent
   * where the model is not: the `background` is CSS) as a data URL of `type` (default PNG) at `encoderOptions`
   * quality (JPEG / WebP, in [0, 1]). `data:,` while disconnected. See {@link toBlob}.
   */
  toDataURL(type?: string, encoderOptions?: number): string {
    return this.view ? this.view.canvas.toDataURL(type, encoderOptions) : 'data:,';
  }

  /**
   * `<model-viewer>`'s: the picture shown as a `Blob` of `mimeType` (default `image/png`) at `qualityArgument`;
   * `idealAspect: true` crops it, centred, to the model's aspect (element-snapshot.ts). A copy of the frame
   * last drawn: nothing is drawn or read back, the visible canvas is untouched.
   * @throws Error (rejects) while disconnected, or when the browser cannot encode the image
   */
  toBlob(options?: ToBlobOptions): Promise<Blob> {
    return snapshotBlob(this.view, options);
  }

  /** `<model-viewer>`'s `updateHotspot`: moves the hotspot `config.name` until its data attributes change (README "Hotspots"). */
  updateHotspot(config: HotspotConfiguration): void {
    this.hotspots.updateHotspot(config);
  }

  /** `<model-viewer>`'s `queryHotspot`: the hotspot's place in the last frame drawn, or null (README "Hotspots"). */
  queryHotspot(name: string): HotspotData | null {
    return this.hotspots.queryHotspot(name);
  }

  /**
   * Draws the model at `source` (a URL relative to the page, or a loaded `ModelAsset`) on joint `joint` (name or
   * skeleton index) of the model shown, from the next frame on, waiting for the first model if none is shown yet
   * (README "Attachments").
   * @param offset 3 numbers (a translation in metres) or 16 (a column-major matrix), in the joint's frame;
   *   default identity
   * @throws Error (rejects, after firing `sinew-error`; the model and other props stay) for an unknown joint (the
   *   message lists the model's joints), a malformed offset, a prop that cannot be loaded, or while disconnected
   */
  attach(source: string | ModelAsset, joint: string | number, offset?: ArrayLike<number>): Promise<Attachment> {
    return this.props.attach(source, joint, offset);
  }

  /** Removes a prop added by {@link attach} or a `<sinew-attachment>` child; false when it is not attached. */
  detach(attachment: Attachment): boolean {
    return this.props.detach(attachment);
  }

  /** The props drawn now (children's and {@link attach}'s), in drawing order. */
  get attachments(): readonly Attachment[] {
    return this.props.list();
  }

  // ── Camera (element-camera.ts: model-viewer's names and units) ───────────────────────────────────

  /** model-viewer's: the orbit now, `{ theta, phi }` radians and `radius` metres (`toString()`: `"θrad φrad rm"`). */
  getCameraOrbit(): SphericalPosition {
    return this.cameraRules.getCameraOrbit();
  }

  /** model-viewer's: the point orbited now, metres in model space (`toString()`: `"xm ym zm"`). */
  getCameraTarget(): Vector3D {
    return this.cameraRules.getCameraTarget();
  }

  /** model-viewer's: the vertical field of view drawn now, degrees. */
  getFieldOfView(): number {
    return this.cameraRules.getFieldOfView();
  }

  /** model-viewer's: puts the camera at the attributes' goal now (undoing input), draws, fires `camera-change`. */
  jumpCameraToGoal(): void {
    this.cameraRules.jumpCameraToGoal();
  }

  // ── Picking (element-picking.ts; pixelX, pixelY: CSS pixels from the element's top-left corner) ─────

  /** model-viewer's: the model-space point and normal (and texture coordinate) under the point, or null. */
  positionAndNormalFromPoint(pixelX: number, pixelY: number): ReturnType<ElementPicking['positionAndNormalFromPoint']> {
    return this.picking.positionAndNormalFromPoint(pixelX, pixelY);
  }

  /** model-viewer's: the `"mesh primitive a b c wa wb wc"` surface string under the point, or null. */
  surfaceFromPoint(pixelX: number, pixelY: number): string | null {
    return this.picking.surfaceFromPoint(pixelX, pixelY);
  }

  /** The skinned surface under the point at the frame shown: the whole hit, its joint's name and weights, or null. */
  pick(pixelX: number, pixelY: number): ElementSurfaceHit | null {
    return this.picking.pick(pixelX, pixelY);
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
    this.shadowRoot!.insertBefore(canvas, this.revealer.poster);
    const paletteRequest = readAttribute(this, 'palette', null).value;
    const distance = readAttribute(this, 'distance', null).value;
    const host = hostOf(this.ownerDocument);
    const method = readSkinningMethod(this, null);
    const view = new ModelView(canvas, { paletteRequest, method, distance: distance ?? 1, host, background: CLEAR }, this.listener);
    this.view = view;
    this.cameraRules.apply(view, null);
    applyPlaybackSettings(this, view, null);
    this.animationApi.noteDeprecated('clip');
    this.animationApi.noteDeprecated('fade');
    this.applyAlt();
    this.applyBackground(false);
    // Problems with the attributes present now are reported after this task, so that page scripts that
    // run after the element is upgraded can listen for them.
    window.setTimeout(() => {
      if (this.view !== view) return;
      if (view.startupError) {
        this.showNotice(view.startupError);
        this.report(view.startupError);
      }
      for (const name of ['time', 'yaw', 'pitch', 'distance', 'speed', 'fade', 'animation-crossfade-duration', 'palette', 'loop', 'loading', 'reveal', 'exposure', 'tone-mapping', ...CAMERA_PARSED_ATTRIBUTES] as const) {
        readAttribute(this, name, this.reporter);
      }
      this.applyBackground(true);
    }, 0);
    this.bar.element.hidden = !this.controls;
    this.boxWidth = this.boxHeight = -1;
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    this.resizeObserver.observe(this);
    this.props.connect(view);
    this.light.connect(view, false);
    this.revealer.connect();
    this.loader.connect(view, host);
    this.hotspots.connect(view);
  }

  /**
   * @internal Stops the loop and frees the GL objects (the last element also releases the shared context);
   * keeps the model's CPU data for a reconnect.
   */
  disconnectedCallback(): void {
    const view = this.view;
    if (!view) return;
    this.view = null;
    this.loader.disconnect(view);
    this.revealer.disconnect();
    this.hotspots.disconnect();
    this.light.disconnect();
    this.props.disconnect();
    this.cameraRules.disconnect();
    view.dispose();
    view.canvas.remove();
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
  }

  /** @internal */
  attributeChangedCallback(name: AttributeName, oldValue: string | null, value: string | null): void {
    const view = this.view;
    if (!view || oldValue === value) return; // read when connected
    if (isCameraAttribute(name)) {
      this.cameraRules.apply(view, this.reporter, name);
      return;
    }
    switch (name) {
      case 'loading':
        readAttribute(this, 'loading', this.reporter);
        this.loader.release();
        break;
      case 'reveal':
        this.revealer.revealChanged();
        break;
      case 'poster':
        this.revealer.update();
        break;
      case 'alt':
        this.applyAlt();
        break;
      case 'environment-image':
      case 'skybox-image':
      case 'exposure':
      case 'tone-mapping':
        this.light.changed(name);
        break;
      case 'background':
        this.applyBackground(true);
        break;
      case 'src':
      case 'anim':
        this.loader.schedule();
        this.revealer.update();
        break;
      case 'animations':
        this.clipFiles.attributeChanged();
        break;
      case 'clip':
      case 'animation-name':
      case 'time':
      case 'autoplay':
        this.animationApi.noteDeprecated(name);
        if (!this.loader.deferPlayback()) this.applyPlayback(name === 'clip' || name === 'animation-name');
        break;
      case 'palette': {
        const palette = readAttribute(this, 'palette', this.reporter);
        if (!palette.error) view.setPaletteRequest(palette.value).catch((e: unknown) => this.report(messageOf(e)));
        break;
      }
      case 'skinning':
      case 'weights':
        view.setSkinningMethod(readSkinningMethod(this, this.reporter, name)).catch((e: unknown) => this.report(messageOf(e)));
        break;
      case 'controls':
        this.bar.element.hidden = value === null;
        break;
      case 'speed':
      case 'loop':
      case 'fade':
      case 'animation-crossfade-duration':
      case 'root-motion':
        this.animationApi.noteDeprecated(name);
        applyPlaybackSettings(this, view, this.reporter, name);
        break;
    }
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────────────

  /** Applies `animation-name` (when asked), then `time` and `autoplay`, to the shown model; fires `play` / `pause`. */
  private applyPlayback(clipToo: boolean): void {
    const view = this.view;
    if (!view) return;
    const wasPlaying = view.playback.playing;
    applyPlayback(this, view, clipToo, this.reporter);
    if (view.asset) this.animationApi.playStateApplied(view, wasPlaying);
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
    const background = readAttribute(this, 'background', report ? this.reporter : null);
    if (!background.error) canvas.style.backgroundColor = background.value ?? '';
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

  private emit<K extends keyof SinewEventDetails>(type: K, detail: SinewEventDetails[K]): void {
    emitSinewEvent(this, type, detail);
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
