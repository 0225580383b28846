import { ElementControls } from './element-controls.ts';
import { ElementPicking } from './element-picking.ts';
import { ModelView } from '../view/model-view.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ModelViewListener } from '../view/model-view-listener.ts';
import type { Rgba } from '../view/render-surface.ts';
import { ViewerHost } from '../view/viewer-host.ts';
import styles from './sinew-viewer-element.css?inline';
import { logWarningsOnce, warnOncePerElement } from './warning-log.ts';
import {
  defineAttributeProperties, ELEMENT_ATTRIBUTE_NAMES, readAttribute, type AttributeName, type ElementAttributeProperties,
} from './element-attributes.ts';
import { emitAnimationEvents, emitSinewEvent, TimeUpdateThrottle, type SinewEventDetails } from './element-events.ts';
import { ElementLoading } from './element-loading.ts';
import { ElementAnimations } from './element-animations.ts';
import { ElementGraph } from './element-graph.ts';
import { ElementAttachments } from './element-attachments.ts';
import { applyPlayback, applyPlaybackSettings, readSkinningMethod, type PlaybackChange } from './element-playback.ts';
import { ElementEnvironment } from './element-environment.ts';
import { ElementShadow } from './element-shadow.ts';
import { ElementHotspots } from './element-hotspots.ts';
import { defineAnimationProperties, ElementAnimationApi, type AnimationApiProperties } from './element-animation-api.ts';
import { ElementReveal } from './element-reveal.ts';
import { ElementAvatar } from './element-avatar.ts';
import { ElementSprings } from './element-springs.ts';
import { CAMERA_PARSED_ATTRIBUTES, ElementCamera, isCameraAttribute } from './element-camera.ts';
import { applyPlacement, PLACEMENT_ATTRIBUTES } from './element-placement.ts';
import { watchUnsupported } from './unsupported-features.ts';

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
 * `sinew-gl/element` there defines the class without throwing (and {@link defineSinewViewer} registers nothing).
 */
const ElementBase: typeof HTMLElement = typeof HTMLElement === 'undefined' ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

/** The attributes reflected as properties of the element, typed from the attribute table. */
export interface SinewViewerCore extends ElementAttributeProperties, AnimationApiProperties {}

/**
 * The wiring and lifecycle of `<sinew-viewer>` ({@link SinewViewerElement}, sinew-viewer-element.ts, holds its
 * whole public face: state, methods and events): the shadow root, the view on the document's shared
 * {@link ViewerHost}, the feature objects (loading, reveal, clips files, hotspots, attachments, camera, light,
 * picking, the animation API) with the callbacks that tie them together, connect / disconnect, and the attribute
 * reactions. Not registered by itself.
 */
export abstract class SinewViewerCore extends ElementBase {
  /** Attributes whose changes the element reacts to: every row of the attribute table. */
  static readonly observedAttributes: readonly string[] = ELEMENT_ATTRIBUTE_NAMES;

  static {
    defineAttributeProperties(this.prototype);
    defineAnimationProperties(this.prototype, (element: SinewViewerCore) => element.animationApi);
  }

  protected readonly bar: ElementControls;
  protected readonly loader: ElementLoading;
  /** `reveal`, the poster, `dismissPoster()` / `showPoster()` and `modelIsVisible`. */
  protected readonly revealer: ElementReveal;
  /** `animations` and `appendAnimations`: clips from other files. */
  protected readonly clipFiles: ElementAnimations;
  /** Children slotted as `hotspot-…`, placed over the canvas in each frame (docs/guide/hotspots.md). */
  protected readonly hotspots: ElementHotspots;
  /** `<sinew-attachment>` children and `attach` / `detach`: props on joints. */
  protected readonly props: ElementAttachments;
  /** model-viewer's camera attributes, methods and `camera-change` (element-camera.ts). */
  protected readonly cameraRules: ElementCamera;
  protected view: ModelView | null = null;
  /** `environment-image`, `skybox-image`, `exposure`, `tone-mapping`: this element's own light. */
  protected readonly light: ElementEnvironment;
  /** `shadow-intensity`, `shadow-softness`: this element's contact shadow. */
  protected readonly shadowStage: ElementShadow;
  protected readonly picking = new ElementPicking(this, () => this.view);
  /** VRM avatars: expressions, `avatarMeta`, `look-at` and `auto-blink` (element-avatar.ts). */
  protected readonly avatarSurface = new ElementAvatar({ element: this, currentView: () => this.view, report: (message) => this.report(message) });
  /** Spring bones: `spring-bones`, `gravity`, `wind`, `show-colliders` and `resetSpringBones()` (element-springs.ts). */
  protected readonly springSurface = new ElementSprings({ element: this, currentView: () => this.view, report: (message) => this.report(message) });
  /** `animation-graph` or an inline graph script: the graph that chooses the clips (element-graph.ts). */
  protected readonly graph: ElementGraph = new ElementGraph({
    element: this,
    currentView: () => this.view,
    clipsSettled: () => this.clipFiles.settled(),
    loaded: (detail) => {
      // Said once per element: they are about its markup (an attribute ignored) or its graph file.
      for (const warning of detail.warnings) warnOncePerElement(this, warning);
      this.emit('sinew-graphload', detail);
    },
    released: () => {
      const view = this.view;
      if (!view?.asset) return;
      // What played before the graph starts again (a cut: the graph's clips are gone), then `animation-name` as it is now.
      view.selectClip(view.playback.clipIndex, 0);
      applyPlaybackSettings(this, view, null, 'loop');
      this.applyPlayback('animation-name');
    },
    report: (message) => this.report(message),
  });
  /** `<model-viewer>`'s animation API: play options, appended clips, `play` / `pause` events. */
  protected readonly animationApi: ElementAnimationApi = new ElementAnimationApi({
    element: this,
    currentView: () => this.view,
    graphDrives: () => this.graph.active,
    ignoredWithGraph: (member) => this.graph.ignores(member),
    clips: () => this.clipNames,
    requestPlaying: (playing) => (this.requestedPlaying = playing),
    emit: (type) => this.emit(type, null),
    report: (message) => this.report(message),
  });
  protected resizeObserver: ResizeObserver | null = null;
  /** Stops the watch for `<model-viewer>` attributes and slots the element ignores (unsupported-features.ts). */
  protected stopUnsupportedWatch: (() => void) | null = null;
  protected boxWidth = -1;
  protected boxHeight = -1;
  /** play() / pause() before the first model: its start state. */
  protected requestedPlaying: boolean | null = null;
  protected clipNames: readonly string[] = Object.freeze([]);
  /** The loader's warnings about the model shown, for `load`'s detail. */
  protected shownWarnings: readonly string[] = Object.freeze([]);
  protected readonly timeUpdates = new TimeUpdateThrottle();
  /** {@link report}, bound once: where malformed attributes go. */
  protected readonly reporter = (message: string): void => this.report(message);

  protected readonly listener: ModelViewListener = {
    shown: ({ asset, clipIndex, warnings }) => {
      this.clipNames = Object.freeze(asset.clips.map((c) => c.name));
      this.bar.setModel(this.clipNames, clipIndex);
      this.applyAlt();
      logWarningsOnce(this.loader.resolvedSourceKey(), warnings);
      this.shownWarnings = Object.freeze([...warnings]);
      this.emit('sinew-load', { model: asset.name, clips: this.clipNames, warnings: this.shownWarnings });
      this.clipFiles.shown();
      this.graph.shown();
      this.props.shown();
      if (this.view) this.animationApi.shown(this.view);
      this.cameraRules.shown();
      this.avatarSurface.shown();
      this.springSurface.shown();
    },
    drawn: (time, duration, playing) => {
      this.revealer.frameDrawn();
      const now = performance.now();
      if (this.view) {
        this.cameraRules.drawn(this.view, now);
        this.avatarSurface.drawn(this.view, now);
      }
      if (this.graph.active) {
        const clock = this.graph.clipTime();
        time = clock.time;
        duration = clock.duration;
      }
      this.bar.setTime(time, duration, now, !playing);
      if (this.timeUpdates.due(time, playing, now)) this.emit('sinew-timeupdate', { currentTime: time, duration, paused: !playing });
    },
    animationEvents: (events) => emitAnimationEvents(this, events, this.graph.layerNames),
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
      onScrub: (s) => {
        if (!this.graph.ignores('seek()')) this.view?.setTime(s);
      },
      onClipChange: (i) => {
        if (!this.graph.ignores('clip menu')) this.view?.selectClip(i);
      },
    });
    this.bar.element.hidden = true;
    this.loader = new ElementLoading({
      element: this,
      currentView: () => this.view,
      startsPlaying: () => this.requestedPlaying ?? this.hasAttribute('autoplay'),
      setStatus: (fileName) => this.bar.setLoading(fileName),
      progressed: (loaded, total) => this.emit('sinew-progress', { loaded, total }),
      loadProgress: (totalProgress) => this.emit('progress', { totalProgress, reason: 'model-load' }),
      holdsLoad: () => this.revealer.holdsLoad(),
      loadFailed: (sourceError) => this.emit('error', { type: 'loadfailure', sourceError }),
      shown: () => {
        this.requestedPlaying = null;
        this.revealer.update();
        this.emit('load', { url: this.getAttribute('src'), warnings: this.shownWarnings });
      },
      report: this.reporter,
      applyPlayback: () => this.applyPlayback('all'),
    });
    this.clipFiles = new ElementAnimations({
      element: this,
      currentView: () => this.view,
      added: (added, clips) => {
        this.clipNames = clips;
        this.graph.clipsAdded();
        this.bar.setModel(clips, this.view?.playback.clipIndex ?? -1);
        this.avatarSurface.shown();
        this.springSurface.shown();
        this.emit('sinew-clipsadded', {
          file: added.file, added: added.names, clips, matched: added.match.matched, unmatched: added.match.unmatched, warnings: added.warnings,
        });
      },
      report: this.reporter,
    });
    this.hotspots = new ElementHotspots({ element: this, report: this.reporter });
    this.props = new ElementAttachments({ element: this, currentView: () => this.view, report: this.reporter });
    this.light = new ElementEnvironment({ element: this, report: this.reporter });
    this.shadowStage = new ElementShadow({ element: this, report: this.reporter });
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
    applyPlacement(this, view, null);
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
      for (const name of ['time', 'yaw', 'pitch', 'distance', 'speed', 'fade', 'animation-crossfade-duration', 'palette', 'loop', 'loading', 'reveal', 'exposure', 'tone-mapping', 'shadow-intensity', 'shadow-softness', 'look-at', 'spring-bones', 'gravity', 'wind', ...PLACEMENT_ATTRIBUTES, ...CAMERA_PARSED_ATTRIBUTES] as const) {
        readAttribute(this, name, this.reporter);
      }
      this.applyBackground(true);
    }, 0);
    this.bar.element.hidden = !this.controls;
    this.boxWidth = this.boxHeight = -1;
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    this.resizeObserver.observe(this);
    this.stopUnsupportedWatch = watchUnsupported(this);
    this.props.connect(view);
    this.light.connect(view, false);
    this.revealer.connect();
    this.loader.connect(view, host);
    this.hotspots.connect(view);
    this.shadowStage.connect(view);
    this.avatarSurface.connect();
    this.springSurface.connect();
    this.graph.connect();
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
    this.shadowStage.disconnect();
    this.props.disconnect();
    this.cameraRules.disconnect();
    this.avatarSurface.disconnect(view);
    this.graph.disconnect();
    view.dispose();
    view.canvas.remove();
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
    this.stopUnsupportedWatch?.();
    this.stopUnsupportedWatch = null;
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
      case 'shadow-intensity':
      case 'shadow-softness':
        this.shadowStage.changed(name);
        break;
      case 'orientation':
      case 'scale':
        // Framed again as a new model is (model-viewer frames the placed model at load, and on `updateFraming()`).
        applyPlacement(this, view, this.reporter, name);
        if (view.asset) this.cameraRules.jumpCameraToGoal();
        break;
      case 'memory-budget':
        // Read by each load as it starts; said now when malformed.
        readAttribute(this, 'memory-budget', this.reporter);
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
      case 'animation-graph':
        this.graph.refresh();
        break;
      case 'look-at':
      case 'auto-blink':
        this.avatarSurface.changed();
        break;
      case 'spring-bones':
      case 'gravity':
      case 'wind':
      case 'show-colliders':
        this.springSurface.changed(name);
        break;
      case 'clip':
      case 'animation-name':
      case 'time':
      case 'autoplay':
        this.animationApi.noteDeprecated(name);
        if (name !== 'autoplay' && this.graph.ignores(name)) break;
        if (!this.loader.deferPlayback()) this.applyPlayback(name);
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
        // `loop` would change the player the graph drives; a crossfade duration is kept for after the graph.
        if (name === 'loop' && this.graph.ignores(name)) break;
        if (name === 'fade' || name === 'animation-crossfade-duration') this.graph.ignores(name);
        applyPlaybackSettings(this, view, this.reporter, name);
        break;
    }
  }

  // ── Internals ─────────────────────────────────────────────────────────────────────────────────────

  /** Applies the playback attribute that `changed` (or all of them) to the shown model; fires `play` / `pause`. */
  protected applyPlayback(changed: PlaybackChange): void {
    const view = this.view;
    if (!view) return;
    const wasPlaying = view.playback.playing;
    if (this.graph.active) {
      // The graph chooses the clips: only `autoplay` (a load settled, or the attribute added) does something, it plays.
      if (this.hasAttribute('autoplay') && (changed === 'autoplay' || changed === 'all')) view.play();
    } else {
      applyPlayback(this, view, changed, this.reporter);
    }
    if (view.asset) this.animationApi.playStateApplied(view, wasPlaying);
  }

  /** Names the canvas for assistive technology: `alt`, else the model shown. */
  protected applyAlt(): void {
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
  protected applyBackground(report: boolean): void {
    const canvas = this.view?.canvas;
    if (!canvas) return;
    const background = readAttribute(this, 'background', report ? this.reporter : null);
    if (!background.error) canvas.style.backgroundColor = background.value ?? '';
  }

  protected onResize(entries: ResizeObserverEntry[]): void {
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
  protected showNotice(message: string): void {
    const notice = document.createElement('p');
    notice.className = 'notice';
    notice.setAttribute('part', 'notice');
    notice.setAttribute('role', 'alert');
    notice.textContent = message;
    this.shadowRoot!.append(notice);
  }

  /** Fires `sinew-error` (the model shown keeps playing) and logs it as a warning. */
  protected report(message: string): void {
    console.warn(`sinew-viewer: ${message}`);
    this.emit('sinew-error', { message });
  }

  protected emit<K extends keyof SinewEventDetails>(type: K, detail: SinewEventDetails[K]): void {
    emitSinewEvent(this, type, detail);
  }

  /** Plays from the current time ({@link SinewViewerElement.play}). */
  abstract play(): void;

  /** Pauses at the current time ({@link SinewViewerElement.pause}). */
  abstract pause(): void;

  /** Name of the model shown ({@link SinewViewerElement.model}). */
  abstract get model(): string;

  /** Whether playback is paused ({@link SinewViewerElement.paused}). */
  abstract get paused(): boolean;
}
