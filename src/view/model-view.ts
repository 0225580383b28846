import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { CameraMatrices, GpuModel, PalettePath, PaletteRequest } from '../gl/renderer.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import type { PoseKernelBackend } from '../pose/pose-kernel.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import { computeAnimatedBounds, computeModelBounds } from '../scene/model-bounds.ts';
import { subtreeMask } from '../skeleton/subtree-mask.ts';
import { OrbitCamera, type Bounds } from '../scene/orbit-camera.ts';
import { attachOrbitInput } from './orbit-input.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import { Playback, startClip, type PlaybackSettings } from './playback.ts';
import { findClipIndex } from '../animation/find-clip.ts';
import { CanvasSurface } from './canvas-surface.ts';
import { messageOf } from './message-of.ts';
import type { RenderSurface, Rgba, SurfaceClient } from './render-surface.ts';
import type { ViewerHost } from './viewer-host.ts';
import type { FrameInspector, FrameTimings, InspectedFrame } from './frame-inspector.ts';

export { messageOf } from './message-of.ts';

/** RGBA the canvas is cleared to by default (#212429); tests count pixels that differ from it. */
export const BACKGROUND: Rgba = [0.13, 0.14, 0.16, 1];

/** Snapshot of what a {@link ModelView} shows, for tests and tooling. */
export interface ModelViewState {
  /** Name of the model drawn ('' before the first). */
  readonly model: string;
  /** Name of the selected clip, or null for the rest pose. */
  readonly clip: string | null;
  /** Index of the selected clip, −1 for the rest pose. */
  readonly clipIndex: number;
  /** Names of the model's clips. */
  readonly clips: readonly string[];
  /** Seconds into the selected clip. */
  readonly time: number;
  /** Seconds: the selected clip's duration. */
  readonly duration: number;
  readonly playing: boolean;
  /** Playback rate: 1 real time, negative backwards. */
  readonly speed: number;
  /** Loop mode of the clips played: `loop`, `once` or `pingpong`. */
  readonly loop: LoopMode;
  /** Crossfade duration of a clip change while playing, seconds (0: cut). */
  readonly fade: number;
  /** True when a `once` clip has reached its end in the direction of play. */
  readonly finished: boolean;
  /** Clips sounding on the base layer: 1 while one clip plays, 2 or more during a crossfade, 0 at rest. */
  readonly activeClips: number;
  /** Palette path the renderer uses for this model, or null before the first. */
  readonly palette: PalettePath | null;
  /** Skinning mode and weight policy the view draws with. */
  readonly method: SkinningMethod;
  /** Non-fatal loader warnings of the current model. */
  readonly warnings: readonly string[];
  readonly contextLost: boolean;
  /** Camera yaw and pitch in degrees, distance as a multiple of the framed distance. */
  readonly camera: { readonly yaw: number; readonly pitch: number; readonly distance: number };
  /** Frames drawn since the view was created. */
  readonly frames: number;
}

/** How a model starts when shown ({@link ModelView.load}). */
export interface ShowOptions {
  /** Clip to select (name, index, `rest`/−1); falls back to the first clip with a warning when unknown. */
  readonly clip?: string | null;
  /** Seconds: start at this time. Absent: 0. */
  readonly time?: number | null;
  /** Whether to start playing. Default: playing when `time` is absent, paused at `time` otherwise. */
  readonly playing?: boolean;
}

/** What {@link ModelViewListener.shown} reports about a newly shown model. */
export interface ShownModel {
  readonly asset: ModelAsset;
  /** Selected clip index, −1 for the rest pose. */
  readonly clipIndex: number;
  readonly palette: PalettePath;
  /**
   * The loader's warnings, preceded by an unknown-clip warning when the requested clip was not found and
   * followed by the images that could not be decoded or transcoded (drawn white).
   */
  readonly warnings: readonly string[];
}

/**
 * What a {@link ModelView} tells its owner (the viewer page's panel and banner, or the custom element).
 * Every method is optional; none may throw.
 */
export interface ModelViewListener {
  /** A model replaced the previous one and is drawn. */
  shown?(model: ShownModel): void;
  /** A frame was drawn (every frame while playing: must not allocate). Times in seconds. */
  drawn?(time: number, duration: number, playing: boolean): void;
  /** Playback started or stopped (also when a `once` clip reaches its end while playing). */
  playingChanged?(playing: boolean): void;
  /** Another clip was selected (−1: rest pose). */
  clipChanged?(clipIndex: number): void;
  /** Speed, loop mode or crossfade duration changed. */
  settingsChanged?(settings: PlaybackSettings): void;
  /** The palette path changed (after a context restore or a palette mode change). */
  paletteChanged?(palette: PalettePath): void;
  /** The WebGL context was lost: the loop stopped. */
  contextLost?(): void;
  /** The WebGL context was restored and the model re-uploaded. */
  contextRestored?(): void;
  /** Something failed outside a load (a frame could not be drawn, a restore failed). */
  failed?(message: string): void;
}

/** Options of {@link ModelView}. */
export interface ModelViewOptions {
  /** Palette path, default `auto`. */
  readonly palette?: PaletteRequest;
  /** Skinning mode and weight policy, default LBS with normalised weights. */
  readonly method?: SkinningMethod;
  /** Camera distance after framing, as a multiple of the framed distance (default 1). */
  readonly distance?: number;
  /**
   * Draw through this page's shared context (see {@link ViewerHost}): the canvas then gets a 2D context
   * and each frame is copied into it. Absent: the canvas gets its own WebGL2 context.
   */
  readonly host?: ViewerHost;
  /** Clear colour, RGBA in [0, 1] (default {@link BACKGROUND}); alpha below 1 only shows with a `host`. */
  readonly background?: Rgba;
  /** Without a `host`: context attributes beside `alpha: false` (e.g. `preserveDrawingBuffer`). */
  readonly contextAttributes?: WebGLContextAttributes;
  /**
   * Frame the camera on the bounds of the whole animation (the rest pose and every clip, `computeAnimatedBounds`)
   * rather than the first pose shown. Default false.
   */
  readonly frameAnimation?: boolean;
  /** Orbiting coasts on after a drag and slows down (see `attachOrbitInput`). Default false. */
  readonly inertia?: boolean;
}

/** The shown model: CPU state, GPU side (null while the context is lost), display orientation. */
interface LoadedModel {
  readonly asset: ModelAsset;
  readonly animated: AnimatedModel;
  gpu: GpuModel | null;
  /** Model space → display space: identity for Y-up, Z-up → Y-up rotation for Z-up data. */
  readonly displayMatrix: Float32Array;
  readonly bounds: Bounds;
  palette: PalettePath;
  /** Per clip index, the animator layer it plays on over the selected clip (added on first use) and its weight. */
  readonly layers: Map<number, { readonly layer: number; weight: number }>;
}

/**
 * One canvas drawing one skinned model with an orbit camera: transactional loading, the clip clock, the frame
 * loop, context loss and disposal, over a {@link RenderSurface} — the canvas's own WebGL2 context (the viewer
 * page, {@link ViewerApp}) or a share of the page's {@link ViewerHost} (each `<sinew-viewer>`). The page and
 * the element each put their own controls around one.
 *
 * Loading is transactional: a new model is fetched, parsed, animated and uploaded while the current one keeps
 * playing; only when all of that succeeds does it replace the current one, and only if no later load started
 * meanwhile. The loop asks for animation frames while playing, and draws once after a change when paused;
 * `renderOnce()` draws on demand. The surface owns context loss (it listens, tells the renderer, then this
 * view); the view owns its model's GL objects: on loss its loop stops, on restore it uploads the model again
 * from its ModelAsset. Frames allocate nothing.
 */
export class ModelView {
  /** The canvas shown, sized to its CSS box × devicePixelRatio at each frame. */
  readonly canvas: HTMLCanvasElement;
  /** The orbit camera, framed on each model as it loads. */
  readonly camera = new OrbitCamera();
  /**
   * The clip clock over the shown model's animator: current clip time, play state, speed, loop mode,
   * crossfade duration. Change settings through {@link setSpeed} / {@link setLoop} / {@link setFade} so the
   * listener hears of it.
   */
  readonly playback = new Playback();
  /** Why nothing can be drawn (no WebGL2, renderer failure), or null. */
  readonly startupError: string | null;
  /** Where the last frame's time went (see {@link FrameTimings}), rewritten by each frame. */
  readonly timings: FrameTimings = { poseMs: 0, uploadMs: 0, drawMs: 0, inspectMs: 0 };
  /** Debug views drawn with each frame (the viewer page's), or null. */
  inspector: FrameInspector | null = null;

  private readonly listener: ModelViewListener;
  private readonly surface: RenderSurface;
  private paletteMode: PaletteRequest;
  private method: SkinningMethod;
  private readonly background: Rgba;
  private readonly frameAnimation: boolean;
  /**
   * CSS pixels along the canvas's right edge covered by a panel: framing fits the model in the rest and the
   * picture is shifted to centre it there ({@link OrbitCamera.viewOffsetX}). Default 0.
   */
  coveredRight = 0;
  /** Joint whose subtree layered clips are limited to (−1: the whole skeleton), see {@link setLayerMask}. */
  private layerMaskJoint = -1;
  private current: LoadedModel | null = null;
  private readonly cameraMatrices: CameraMatrices;
  private distanceScale: number;
  private lastTickMs = -1;
  private frames = 0;
  private disposed = false;
  private loadToken = 0;
  private readonly detachInput: () => void;
  /** Handed to the {@link inspector}, rewritten in place each frame. */
  private inspected: InspectedFrame | null = null;

  /**
   * Takes `canvas` (its own WebGL2 context, or a 2D one fed by `options.host`) and listens for orbit input
   * and the surface's context-loss calls. Never throws: without WebGL2 (or when the renderer fails) `startupError` says why and
   * nothing is drawn.
   */
  constructor(canvas: HTMLCanvasElement, options: ModelViewOptions = {}, listener: ModelViewListener = {}) {
    this.canvas = canvas;
    this.listener = listener;
    this.paletteMode = options.palette ?? 'auto';
    this.method = options.method ?? DEFAULT_SKINNING_METHOD;
    this.background = options.background ?? BACKGROUND;
    this.distanceScale = options.distance ?? 1;
    this.frameAnimation = options.frameAnimation ?? false;
    this.camera.pitch = (10 * Math.PI) / 180;
    this.cameraMatrices = { view: this.camera.view, projection: this.camera.projection, eye: this.camera.eye };
    const client: SurfaceClient = {
      frame: (nowMs) => this.onFrame(nowMs),
      contextLost: () => this.onContextLost(),
      contextRestored: () => void this.onContextRestored(),
    };
    this.surface = options.host ? options.host.attach(canvas, client) : new CanvasSurface(canvas, client, options.contextAttributes);
    this.startupError = this.surface.startupError;
    this.detachInput = attachOrbitInput(canvas, this.camera, () => this.requestRedraw(), { inertia: options.inertia ?? false });
  }

  /** The WebGL2 context drawn with (shared with other views when there is a host), or null. */
  get gl(): WebGL2RenderingContext | null {
    return this.surface.gl;
  }

  /** The model shown, or null before the first. */
  get asset(): ModelAsset | null {
    return this.current?.asset ?? null;
  }

  /** How the shown model's matrix stages compute (`PoseKernel.backend`), or null with no model. */
  get poseKernelBackend(): PoseKernelBackend | null {
    return this.current?.animated.kernel.backend ?? null;
  }

  /** The palette path requested (`auto` or a forced one); {@link ModelViewState.palette} is the path in use. */
  get paletteRequest(): PaletteRequest {
    return this.paletteMode;
  }

  /** Whether {@link dispose} has run. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Loads a model and shows it in place of the current one once it is uploaded and has drawn a trial frame;
   * frames the camera on it.
   * @param source the asset, or a function that fetches / parses it (called at once)
   * @returns true when shown; false when a later load (or {@link dispose}) superseded it — then its failure,
   *   if any, is dropped too
   * @throws Error (rejects) naming the model when it cannot be read, animated or uploaded; the current model stays
   */
  async load(source: ModelAsset | (() => Promise<ModelAsset>), options: ShowOptions = {}): Promise<boolean> {
    if (this.disposed) return false;
    const token = ++this.loadToken;
    const stale = (): boolean => token !== this.loadToken || this.disposed;
    let gpu: GpuModel | null = null;
    try {
      const asset = typeof source === 'function' ? await source() : source;
      if (stale()) return false;
      const animated = new AnimatedModel(asset);
      let clipIndex = asset.clips.length > 0 ? 0 : -1;
      let clipWarning: string | null = null;
      if (options.clip != null) {
        const resolved = findClipIndex(options.clip, asset.clips.map((c) => c.name));
        if (resolved === null) clipWarning = `${asset.name}: no clip "${options.clip}"; playing ${clipIndex >= 0 ? `"${asset.clips[0].name}"` : 'the rest pose'}`;
        else clipIndex = resolved;
      }
      // The model's own animator starts the clip (a cut), so a failed load leaves the shown one alone.
      const player = startClip(animated, clipIndex, this.playback.startOptions(0, options.time ?? undefined));
      animated.evaluate(animated.animator);
      const displayMatrix = mat4.create() as Float32Array;
      if (asset.upAxis === 'z') mat4.fromXRotation(displayMatrix, -Math.PI / 2);
      const bounds = this.frameAnimation ? computeAnimatedBounds(asset, animated, displayMatrix) : computeModelBounds(asset, animated, displayMatrix);
      animated.evaluate(animated.animator);

      let palette: PalettePath = 'uniform';
      const renderer = this.surface.renderer;
      if (renderer) palette = renderer.palettePathFor(asset, this.paletteMode, this.method);
      if (renderer && !this.surface.contextLost) {
        gpu = await renderer.upload(asset, this.paletteMode, this.method);
        if (stale()) return false;
        // A trial draw (not shown) builds the shader variants it needs now, so a failure leaves the current
        // model in place.
        this.surface.resize();
        this.camera.update(this.aspect());
        this.surface.beginFrame(this.background);
        renderer.draw(gpu, animated, this.cameraMatrices, displayMatrix, this.paletteMode, this.method);
      }
      this.current?.gpu?.dispose();
      this.current = { asset, animated, gpu, displayMatrix, bounds, palette, layers: new Map() };
      this.layerMaskJoint = -1;
      gpu = null;

      this.playback.bind(animated, player);
      this.playback.playing = options.playing ?? options.time == null;
      this.frameModel();
      // Images the GPU could not use (an undecodable type, a KTX2 the transcoder refused) are drawn white:
      // said with the loader's warnings, as the texture upload has settled by now.
      const textureErrors = this.current.gpu?.textureErrors ?? [];
      const warnings = [...(clipWarning ? [clipWarning] : []), ...asset.warnings, ...textureErrors];
      this.listener.shown?.({ asset, clipIndex, palette, warnings });
      this.listener.playingChanged?.(this.playback.playing);
      this.renderOnce();
      this.startLoop();
      return true;
    } catch (e) {
      if (stale()) return false;
      throw e;
    } finally {
      if (gpu) {
        // Not shown (failed or superseded): free it, and redraw the current model over the trial frame.
        gpu.dispose();
        this.requestRedraw();
      }
    }
  }

  /**
   * Selects clip `clipIndex` (−1: rest pose). While playing it starts from its start (its end for a negative
   * speed in `once` mode), crossfading from the current clip over the playback's fade duration; while paused
   * it cuts to the new clip at the current time (clamped to it), so the still picture shows it at once.
   * @param fadeSeconds crossfade duration instead of that default: then the new clip starts from its start,
   *   playing or not, and a paused fade moves on as time is stepped
   * @throws RangeError for an index outside [−1, clips.length)
   */
  selectClip(clipIndex: number, fadeSeconds?: number): void {
    const model = this.current;
    if (!model) return;
    const clips = model.asset.clips.length;
    if (!Number.isInteger(clipIndex) || clipIndex < -1 || clipIndex >= clips) {
      throw new RangeError(`${model.asset.name}: clip ${clipIndex} does not exist (${clips} clips)`);
    }
    if (fadeSeconds !== undefined) this.playback.select(clipIndex, fadeSeconds);
    else if (this.playback.playing) this.playback.select(clipIndex, this.playback.fade);
    else this.playback.select(clipIndex, 0, this.playback.time);
    this.listener.clipChanged?.(clipIndex);
    this.requestRedraw();
  }

  /**
   * Selects a clip by name or index string (see `findClipIndex`), as {@link selectClip}.
   * @returns false when none matches
   */
  selectClipByName(clip: string | number, fadeSeconds?: number): boolean {
    const model = this.current;
    if (!model) return false;
    const index = findClipIndex(String(clip), model.asset.clips.map((c) => c.name));
    if (index === null) return false;
    this.selectClip(index, fadeSeconds);
    return true;
  }

  /**
   * Layers clip `clipIndex` over the selected one with `weight` in [0, 1] (an override layer of the model's
   * animator, looping from the clip's start, added on first use; weight 0 silences it): several clips
   * blended at once. Layers go with the model.
   * @throws RangeError for a clip that does not exist or a weight outside [0, 1]
   */
  setLayerWeight(clipIndex: number, weight: number): void {
    const model = this.current;
    if (!model) return;
    if (!Number.isInteger(clipIndex) || clipIndex < 0 || clipIndex >= model.animated.clips.length) {
      throw new RangeError(`${model.asset.name}: clip ${clipIndex} does not exist (${model.animated.clips.length} clips)`);
    }
    if (!(weight >= 0 && weight <= 1)) throw new RangeError(`layer weight ${weight} is outside [0, 1]`);
    const animator = model.animated.animator;
    let entry = model.layers.get(clipIndex);
    if (entry === undefined) {
      if (weight === 0) return;
      const layer = animator.addLayer({ weight });
      entry = { layer, weight };
      model.layers.set(clipIndex, entry);
      animator.play(model.animated.clips[clipIndex], { layer, loop: 'loop', speed: this.playback.speed });
    }
    entry.weight = weight;
    animator.setLayerWeight(entry.layer, weight);
    if (this.layerMaskJoint >= 0) animator.setLayerMask(entry.layer, subtreeMask(model.asset.skeleton, this.layerMaskJoint));
    this.requestRedraw();
  }

  /**
   * Limits every clip layered with {@link setLayerWeight} (now and later, on this model) to skeleton joint
   * `joint` and the joints below it (`subtreeMask`); −1 lifts the limit. Reset when another model is shown.
   * @throws RangeError for a joint the model does not have
   */
  setLayerMask(joint: number): void {
    const model = this.current;
    if (!model) return;
    const mask = joint >= 0 ? subtreeMask(model.asset.skeleton, joint) : null;
    this.layerMaskJoint = joint;
    for (const entry of model.layers.values()) model.animated.animator.setLayerMask(entry.layer, mask);
    this.requestRedraw();
  }

  /** Weight of each clip layered over the selected one (clip index → weight), for tools and tests. */
  layerWeights(): Record<number, number> {
    const out: Record<number, number> = {};
    const model = this.current;
    if (!model) return out;
    for (const [clip, entry] of model.layers) out[clip] = entry.weight;
    return out;
  }

  /**
   * Sets the playback rate (1 real time, −1 backwards) of every clip playing — the current one and any
   * fading out — and of clips started later.
   * @throws RangeError when not finite
   */
  setSpeed(speed: number): void {
    this.playback.speed = speed;
    this.listener.settingsChanged?.(this.playback.settings());
  }

  /** Sets the loop mode of the current clip (keeping its time) and of clips started later; redraws. */
  setLoop(mode: LoopMode): void {
    this.playback.loop = mode;
    this.listener.settingsChanged?.(this.playback.settings());
    this.requestRedraw();
  }

  /** Sets the crossfade duration of clip changes while playing, seconds ≥ 0 (0 cuts). @throws RangeError */
  setFade(seconds: number): void {
    this.playback.fade = seconds;
    this.listener.settingsChanged?.(this.playback.settings());
  }

  /**
   * Pauses, then moves the animation on by `dtSeconds` as the loop does while playing (clip times at their
   * speed, crossfades), and draws: deterministic stepping for tests and frame-by-frame inspection.
   * @param dtSeconds seconds ≥ 0
   */
  step(dtSeconds: number): void {
    this.pause();
    this.playback.advance(dtSeconds);
    this.renderOnce();
  }

  /**
   * Resumes playback, as {@link Playback.play} describes (a finished `once` clip restarts).
   */
  play(): void {
    const wasPlaying = this.playback.playing;
    this.playback.play();
    if (!wasPlaying) this.listener.playingChanged?.(true);
    this.startLoop();
  }

  /** Pauses playback; the loop then draws only when something changes (camera, time, clip). */
  pause(): void {
    if (this.playback.playing) {
      this.playback.playing = false;
      this.listener.playingChanged?.(false);
    }
    this.requestRedraw();
  }

  /**
   * Jumps to `seconds` (clamped to the clip) without changing the play state, cutting any crossfade; draws on
   * the next frame.
   */
  seek(seconds: number): void {
    this.playback.seek(seconds);
    this.requestRedraw();
  }

  /** Pauses, jumps to `seconds` (clamped to the clip, cutting any crossfade), then draws. */
  setTime(seconds: number): void {
    this.pause();
    this.playback.seek(seconds);
    this.renderOnce();
  }

  /**
   * Sets the camera: yaw and pitch in degrees, distance as a multiple of the framed distance (which also
   * becomes the distance later framings use); omitted values stay.
   */
  setCamera(view: { yaw?: number; pitch?: number; distance?: number }): void {
    const deg = Math.PI / 180;
    if (view.yaw !== undefined) this.camera.yaw = view.yaw * deg;
    if (view.pitch !== undefined) this.camera.pitch = view.pitch * deg;
    if (view.distance !== undefined) {
      this.distanceScale = view.distance;
      this.camera.distance = view.distance * this.camera.framedDistance;
    }
    this.requestRedraw();
  }

  /** Re-aims the camera at the current model's bounds at the set distance multiple (default 1). */
  frameModel(): void {
    if (!this.current) return;
    this.surface.resize();
    this.camera.frame(this.current.bounds, this.aspect() * this.freeFraction());
    this.camera.distance = this.camera.framedDistance * this.distanceScale;
    this.requestRedraw();
  }

  /**
   * Switches the palette path. With a model shown, it is drawn once with the new path (building its shader
   * variant) before the switch takes effect; the GPU model suits every path, so nothing is uploaded again.
   * @throws Error (rejects) when the model does not fit the forced path, or the variant fails to build; the
   *   old path stays
   */
  async setPaletteMode(mode: PaletteRequest): Promise<void> {
    if (mode === this.paletteMode || this.disposed) return;
    const model = this.current;
    const renderer = this.surface.renderer;
    try {
      if (!model || !renderer || this.surface.contextLost) {
        this.paletteMode = mode;
        return;
      }
      const palette = renderer.palettePathFor(model.asset, mode, this.method);
      if (model.gpu) {
        this.surface.resize();
        model.animated.evaluate(model.animated.animator);
        this.camera.update(this.aspect());
        this.surface.beginFrame(this.background);
        renderer.draw(model.gpu, model.animated, this.cameraMatrices, model.displayMatrix, mode, this.method);
      }
      this.paletteMode = mode;
      model.palette = palette;
      this.listener.paletteChanged?.(palette);
    } finally {
      this.requestRedraw();
    }
  }

  /**
   * Switches the skinning mode and weight policy (per model, at run time). With a model shown, it is drawn
   * once with the new method (building its shader variant) before the switch takes effect; nothing is
   * uploaded again. The palette path is resolved again (DQS takes 4 vectors per joint, LBS 3).
   * @throws Error (rejects) when the model does not fit a forced palette path with this method, or the
   *   variant fails to build; the old method stays
   */
  async setSkinningMethod(method: SkinningMethod): Promise<void> {
    if ((method.skinning === this.method.skinning && method.weights === this.method.weights) || this.disposed) return;
    const frozen: SkinningMethod = Object.freeze({ skinning: method.skinning, weights: method.weights });
    const model = this.current;
    const renderer = this.surface.renderer;
    try {
      if (!model || !renderer || this.surface.contextLost) {
        this.method = frozen;
        return;
      }
      const palette = renderer.palettePathFor(model.asset, this.paletteMode, frozen);
      if (model.gpu) {
        this.surface.resize();
        model.animated.evaluate(model.animated.animator);
        this.camera.update(this.aspect());
        this.surface.beginFrame(this.background);
        renderer.draw(model.gpu, model.animated, this.cameraMatrices, model.displayMatrix, this.paletteMode, frozen);
      }
      this.method = frozen;
      if (palette !== model.palette) {
        model.palette = palette;
        this.listener.paletteChanged?.(palette);
      }
    } finally {
      this.requestRedraw();
    }
  }

  /** Draws one frame at the current time now (no time advance). Safe to call at any moment, even after dispose. */
  renderOnce(): void {
    const model = this.current;
    const renderer = this.surface.renderer;
    if (!model || !model.gpu || !renderer || this.surface.contextLost || this.disposed) return;
    this.surface.resize();
    const t0 = performance.now();
    model.animated.evaluate(model.animated.animator);
    const t1 = performance.now();
    this.camera.update(this.aspect());
    this.surface.beginFrame(this.background);
    const inspector = this.inspector;
    let frame: InspectedFrame | null = null;
    if (inspector) {
      frame = this.inspected ??= {
        gl: renderer.gl, renderer, gpu: model.gpu, animated: model.animated, displayMatrix: model.displayMatrix, camera: this.cameraMatrices,
        method: this.method, palette: model.palette, width: 0, height: 0,
      };
      frame.gl = renderer.gl;
      frame.renderer = renderer;
      frame.gpu = model.gpu;
      frame.animated = model.animated;
      frame.displayMatrix = model.displayMatrix;
      frame.method = this.method;
      frame.palette = model.palette;
      frame.width = this.surface.width;
      frame.height = this.surface.height;
    }
    const style = frame ? inspector!.styleFor(frame) : undefined;
    const t2 = performance.now();
    renderer.draw(model.gpu, model.animated, this.cameraMatrices, model.displayMatrix, this.paletteMode, this.method, style);
    const t3 = performance.now();
    if (frame) inspector!.overlay(frame);
    const t4 = performance.now();
    this.surface.present();
    this.timings.poseMs = t1 - t0;
    this.timings.uploadMs = renderer.lastPaletteMs;
    this.timings.drawMs = Math.max(0, t3 - t2 - renderer.lastPaletteMs);
    this.timings.inspectMs = t2 - t1 + (t4 - t3);
    this.frames++;
    this.listener.drawn?.(this.playback.time, this.playback.duration, this.playback.playing);
  }

  /**
   * Draws a frame now and hands the drawing buffer to `read` in the same task, so it can be read back without
   * preserveDrawingBuffer (read-back tools, e.g. the development build's test hooks); `width` × `height` in
   * pixels, `background` the clear colour (RGBA in [0, 1]). Null, without calling `read`, when nothing can be
   * drawn (no context, context lost, disposed, nothing uploaded).
   */
  drawAndRead<T>(read: (gl: WebGL2RenderingContext, width: number, height: number, background: Rgba) => T): T | null {
    const gl = this.gl;
    if (!gl || this.surface.contextLost || this.disposed || !this.current?.gpu) return null;
    this.renderOnce();
    return read(gl, this.surface.width, this.surface.height, this.background);
  }

  /**
   * Draws the current frame at `scale` × the canvas's drawing-buffer size and returns it as a PNG data URL
   * (then goes back to the normal size). Null when nothing can be drawn, or the view draws through a shared
   * host (its canvas is a 2D copy).
   * @param scale ≥ 1; the browser may clamp a drawing buffer beyond its limits
   */
  screenshot(scale = 1): string | null {
    const surface = this.surface;
    if (!(surface instanceof CanvasSurface) || !this.current?.gpu || surface.contextLost || this.disposed) return null;
    surface.pixelScale = Math.max(1, scale);
    try {
      this.renderOnce();
      return this.canvas.toDataURL('image/png');
    } finally {
      surface.pixelScale = 1;
      this.renderOnce();
    }
  }

  /**
   * Calls `use` with the frame the {@link inspector} last saw (the current model, context, camera), for tools
   * that read the GPU outside the frame loop; undefined when no frame has been drawn with an inspector.
   */
  inspect<T>(use: (frame: InspectedFrame) => T): T | undefined {
    const frame = this.inspected;
    if (!frame || !this.current?.gpu || this.surface.contextLost || this.disposed) return undefined;
    return use(frame);
  }

  /** What the view shows now. */
  state(): ModelViewState {
    const model = this.current;
    const clipIndex = model ? this.playback.clipIndex : -1;
    const deg = 180 / Math.PI;
    return {
      model: model?.asset.name ?? '',
      clip: model && clipIndex >= 0 ? model.asset.clips[clipIndex].name : null,
      clipIndex,
      clips: model ? model.asset.clips.map((c) => c.name) : [],
      time: this.playback.time,
      duration: this.playback.duration,
      playing: this.playback.playing,
      speed: this.playback.speed,
      loop: this.playback.loop,
      fade: this.playback.fade,
      finished: this.playback.finished,
      activeClips: this.playback.activeClips,
      palette: model?.palette ?? null,
      method: this.method,
      warnings: model?.asset.warnings ?? [],
      contextLost: this.surface.contextLost,
      camera: {
        yaw: this.camera.yaw * deg,
        pitch: this.camera.pitch * deg,
        distance: this.camera.distance / this.camera.framedDistance,
      },
      frames: this.frames,
    };
  }

  /** Draws on the next animation frame (once, however often it is called before then). */
  requestRedraw(): void {
    this.startLoop();
  }

  /**
   * Stops the loop, deletes the model's GL objects, removes every listener and gives the surface back: its
   * own context is released at once; a host's share is returned (the last one releases the shared context).
   * Idempotent; afterwards `renderOnce` is a no-op and `load` resolves false.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stopLoop();
    this.loadToken++;
    this.detachInput();
    this.current?.gpu?.dispose();
    if (this.current) this.current.gpu = null;
    this.surface.dispose();
  }

  private aspect(): number {
    // Each frame, so the shift follows resizes and the panel.
    this.camera.viewOffsetX = this.freeFraction() - 1;
    return this.surface.width / Math.max(this.surface.height, 1);
  }

  /** The fraction of the canvas's width not covered by {@link coveredRight}, in (0, 1]. */
  private freeFraction(): number {
    const width = this.canvas.clientWidth;
    if (!(this.coveredRight > 0) || !(width > 0)) return 1;
    return Math.max(0.3, 1 - this.coveredRight / width);
  }

  /** Asks for a frame (the surface coalesces repeated asks). The loop keeps asking while playing. */
  private startLoop(): void {
    if (this.surface.contextLost || this.disposed || !this.current) return;
    this.surface.requestFrame();
  }

  private stopLoop(): void {
    this.surface.cancelFrame();
  }

  private onFrame(nowMs: number): void {
    if (this.surface.contextLost || this.disposed) return;
    // The first frame after a pause advances nothing; long gaps (background tab) advance at most 0.1 s.
    const dt = this.lastTickMs < 0 ? 0 : Math.min((nowMs - this.lastTickMs) / 1000, 0.1);
    this.lastTickMs = this.playback.playing ? nowMs : -1;
    if (this.playback.playing && this.playback.advance(dt)) {
      // A `once` clip reached its end: playback stopped there (this frame draws it, paused; the loop ends).
      this.lastTickMs = -1;
      this.listener.playingChanged?.(false);
    }
    try {
      this.renderOnce();
    } catch (e) {
      // A failing frame would fail again next frame: stop and say why instead of flooding the console.
      this.listener.failed?.(`Drawing ${this.current?.asset.name ?? 'the model'} failed: ${messageOf(e)}`);
      return;
    }
    if (this.playback.playing) this.startLoop();
  }

  private onContextLost(): void {
    this.stopLoop();
    this.listener.contextLost?.();
  }

  private async onContextRestored(): Promise<void> {
    if (this.disposed) return;
    // Everything GL-side died with the context: drop it (dispose only forgets) and upload from the asset.
    const model = this.current;
    model?.gpu?.dispose();
    if (model) model.gpu = null;
    try {
      const renderer = this.surface.renderer;
      if (!renderer) throw new Error('no renderer');
      if (model) {
        const gpu = await renderer.upload(model.asset, this.paletteMode, this.method);
        if (this.current === model && !this.disposed && !this.surface.contextLost) {
          model.gpu = gpu;
          model.palette = renderer.palettePathFor(model.asset, this.paletteMode, this.method);
          this.listener.paletteChanged?.(model.palette);
        } else {
          gpu.dispose();
          if (this.disposed || this.surface.contextLost) return;
        }
      }
      this.listener.contextRestored?.();
      this.renderOnce();
      this.startLoop();
    } catch (err) {
      if (!this.disposed) this.listener.failed?.(`Could not restore after WebGL context loss: ${messageOf(err)}`);
    }
  }
}
