import type { ModelAsset } from '../asset/model-asset.ts';
import type { GpuModel } from '../gpu/skinning/gpu-model.ts';
import type { PalettePath, PaletteRequest } from '../gpu/skinning/palette-path.ts';
import type { SceneLighting } from '../gpu/shading/scene-lighting.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { PoseKernelBackend } from '../pose/pose-kernel.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import type { Bounds, OrbitCamera } from '../scene/orbit-camera.ts';
import { attachOrbitInput, type OrbitInputOptions } from './orbit-input.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import { Playback } from './playback.ts';
import { findClipIndex } from '../animation/find-clip.ts';
import { CanvasSurface } from './canvas-surface.ts';
import { messageOf } from '../errors/message-of.ts';
import type { RenderSurface, Rgba, SurfaceClient } from './render-surface.ts';
import type { ViewerHost } from './viewer-host.ts';
import { CameraFraming } from './camera-framing.ts';
import { ClipLayers } from './clip-layers.ts';
import { ViewLayers } from './view-layers.ts';
import { ViewAvatar } from './view-avatar.ts';
import { ViewSprings } from './view-springs.ts';
import { ViewAttachments } from './view-attachments.ts';
import { placeModel, prepareModel, type LoadedModel } from './loaded-model.ts';
import { BACKGROUND, type ModelViewOptions, type ShowOptions } from './model-view-options.ts';
import type { ModelViewListener } from './model-view-listener.ts';
import { describeView, type ModelViewState } from './model-view-state.ts';
import { addClipsToModel, type AddedClips } from './added-clips.ts';
import type { ClipLibrary } from '../loaders/load-clips.ts';
import type { RetargetOptions } from '../animation/retarget-clip.ts';
import type { FrameInspector, FrameTimings } from './frame-inspector.ts';
import type { FrameStage, ViewFrame } from './view-frame.ts';
import { ModelFrame, type FrameSettings } from './model-frame.ts';

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
 * view); the view owns its model's GL objects, which restore themselves: on loss its loop stops, on restore it draws again
 * from its ModelAsset. Frames allocate nothing.
 */
export class ModelView {
  /** The canvas shown, sized to its CSS box × devicePixelRatio at each frame. */
  readonly canvas: HTMLCanvasElement;
  /** The orbit camera, framed on each model as it loads. */
  readonly camera: OrbitCamera;
  /**
   * The clip clock over the shown model's animator: current clip time, play state, speed, loop mode,
   * crossfade duration. Change settings through {@link setSpeed} / {@link setLoop} / {@link setFade} so the
   * listener hears of it.
   */
  readonly playback = new Playback();
  /** Clips layered over the selected one, on the shown model (they go with it). */
  readonly layers: ViewLayers;
  /** The shown avatar's expressions, look-at target and automatic blinking (models with `ModelAsset.avatar`). */
  readonly avatar: ViewAvatar;
  /** The shown model's spring bones: on/off, wind, reset, and the "show colliders" view ({@link ViewSprings}). */
  readonly springs: ViewSprings;
  /** Props drawn on the shown model's joints, in the same frame (they follow it to another model by joint name). */
  readonly attachments: ViewAttachments = new ViewAttachments(this, () => this.surface.renderer);
  /** Why nothing can be drawn (no WebGL2, renderer failure), or null. */
  readonly startupError: string | null;

  private readonly listener: ModelViewListener;
  private readonly surface: RenderSurface;
  /** See {@link paletteRequest}. */
  private currentPaletteRequest: PaletteRequest;
  private method: SkinningMethod;
  private readonly background: Rgba;
  /** The light of this view's frames (src/gpu/shading/scene-lighting.ts), the caller's to mutate; null: the default. */
  lighting: Readonly<SceneLighting> | null = null;
  private readonly frameAnimation: boolean;
  private readonly placement = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  /** The camera's framing: its rules (`framing.goal`) and distance multiple. */
  readonly framing: CameraFraming;
  /** Orbit input's settings, read at each input event (turn input, zoom, pan off and on). */
  readonly input: OrbitInputOptions;
  private current: LoadedModel | null = null;
  private lastTickMs = -1;
  private frames = 0;
  private disposed = false;
  private loadToken = 0;
  private readonly detachInput: () => void;
  /** The frames drawn: the model's render item, the passes of a frame, the stages, the inspector, the timings. */
  private readonly frame: ModelFrame;
  /** What the frames are drawn with, kept current by the setters (read by {@link ModelFrame.draw}). */
  private readonly settings: FrameSettings;

  /**
   * Takes `canvas` (its own WebGL2 context, or a 2D one fed by `options.host`) and listens for orbit input
   * and the surface's context-loss calls. Never throws: without WebGL2 (or when the renderer fails) `startupError` says why and
   * nothing is drawn.
   */
  constructor(canvas: HTMLCanvasElement, options: ModelViewOptions = {}, listener: ModelViewListener = {}) {
    this.canvas = canvas;
    this.listener = listener;
    if (listener.animationEvents) this.playback.onEvents = listener.animationEvents.bind(listener);
    this.currentPaletteRequest = options.paletteRequest ?? 'auto';
    this.method = options.method ?? DEFAULT_SKINNING_METHOD;
    this.background = options.background ?? BACKGROUND;
    this.framing = new CameraFraming(canvas, options.distance ?? 1);
    this.camera = this.framing.camera;
    const view = this;
    this.settings = {
      get paletteRequest() { return view.currentPaletteRequest; },
      get method() { return view.method; },
      get lighting() { return view.lighting; },
    };
    this.frameAnimation = options.frameAnimation ?? false;
    this.layers = new ViewLayers(() => this.current?.layers ?? null, this.playback, () => this.requestRedraw());
    this.avatar = new ViewAvatar(() => this.current?.animated ?? null, () => this.requestRedraw(), (hidden) => { this.frame.hiddenInstances = hidden; });
    this.springs = new ViewSprings(() => this.current?.animated ?? null, () => this.requestRedraw(), (stage) => this.addStage(stage));
    const client: SurfaceClient = {
      frame: (nowMs) => this.onFrame(nowMs),
      contextLost: () => this.onContextLost(),
      contextRestored: () => this.onContextRestored(),
      restoreFailed: (message) => {
        if (!this.disposed) this.listener.failed?.(`Could not restore after WebGL context loss: ${message}`);
      },
    };
    this.surface = options.host ? options.host.attach(canvas, client) : new CanvasSurface(canvas, client, options.contextAttributes);
    this.startupError = this.surface.startupError;
    this.frame = new ModelFrame(this.surface, this.framing, this.background);
    this.input = { inertia: options.inertia ?? false, enabled: true, zoom: true, pan: true };
    this.detachInput = attachOrbitInput(canvas, this.camera, () => { this.requestRedraw(); listener.cameraMoved?.(); }, this.input);
  }

  /** Where the last frame's time went (see {@link FrameTimings}), rewritten by each frame. */
  get timings(): Readonly<FrameTimings> {
    return this.frame.timings;
  }

  /** Debug views drawn with each frame (the viewer page's), or null. */
  get inspector(): FrameInspector | null {
    return this.frame.inspector;
  }
  set inspector(inspector: FrameInspector | null) {
    this.frame.inspector = inspector;
  }

  /** The WebGL2 context drawn with (shared with other views when there is a host), or null. */
  get gl(): WebGL2RenderingContext | null {
    return this.surface.gl;
  }

  /**
   * Adds `stage` to the work of every frame, after the model is drawn (in the order added); redraws.
   * @returns a function that removes it again (and redraws)
   */
  addStage(stage: FrameStage): () => void {
    const remove = this.frame.addStage(stage);
    this.requestRedraw();
    return () => {
      remove();
      this.requestRedraw();
    };
  }

  /** The shown model's CPU state (pose buffers, animator, `world` = the display matrix), or null before the first. */
  get animated(): AnimatedModel | null {
    return this.current?.animated ?? null;
  }

  /** The model shown, or null before the first. */
  get asset(): ModelAsset | null {
    return this.current?.asset ?? null;
  }

  /** The bounds the camera frames the shown model on (world space, model units), or null before the first. */
  get bounds(): Bounds | null {
    return this.current?.bounds ?? null;
  }

  /** How the shown model's matrix stages compute (`PoseKernel.backend`), or null with no model. */
  get poseKernelBackend(): PoseKernelBackend | null {
    return this.current?.animated.kernel.backend ?? null;
  }

  /** The palette path requested (`auto` or a forced one); {@link ModelViewState.palettePath} is the path in use. */
  get paletteRequest(): PaletteRequest {
    return this.currentPaletteRequest;
  }

  /**
   * CSS pixels along the canvas's right edge covered by a panel: framing fits the model in the rest and the
   * picture is shifted to centre it there ({@link OrbitCamera.viewOffsetX}). Default 0.
   */
  get coveredRight(): number {
    return this.framing.coveredRight;
  }
  set coveredRight(pixels: number) {
    this.framing.coveredRight = pixels;
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
      const { animated, player, clipIndex, clipWarning, displayMatrix, bounds } =
        prepareModel(asset, options.clip, this.playback.startOptions(0, options.time ?? undefined), this.frameAnimation, this.placement);
      let palettePath: PalettePath = 'uniform';
      const renderer = this.surface.renderer;
      if (renderer) palettePath = renderer.palettePathFor(asset, this.currentPaletteRequest, this.method);
      if (renderer && !this.surface.contextLost) {
        gpu = await renderer.upload(asset, this.currentPaletteRequest, this.method);
        if (stale()) return false;
        // A trial draw (not shown) builds the shader variants it needs now, so a failure leaves the current
        // model in place.
        this.frame.trialDraw(gpu, { animated, displayMatrix }, this.currentPaletteRequest, this.method);
      }
      this.current?.gpu?.dispose();
      this.current = { asset, animated, gpu, displayMatrix, bounds, palettePath, layers: new ClipLayers(animated) };
      this.frame.hiddenInstances = null; // a new model is drawn whole (ViewAvatar.setFirstPerson)
      gpu = null;

      this.playback.bind(animated, player);
      this.playback.playing = options.playing ?? options.time == null;
      this.frameModel();
      // Images the GPU could not use (an undecodable type, a KTX2 the transcoder refused) are drawn white:
      // said with the loader's warnings, as the texture upload has settled by now.
      const textureErrors = this.current.gpu?.textureErrors ?? [];
      const warnings = [...(clipWarning ? [clipWarning] : []), ...asset.warnings, ...textureErrors];
      this.listener.shown?.({ asset, clipIndex, palettePath, warnings });
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
   * Adds `library`'s clips to the shown model's clip list, retargeted onto it (`addClipsToModel`: renamed where
   * they collide, compiled once); what plays goes on. They stay with this model (a context restore included)
   * and go with it; a load still running replaces it without them.
   * @throws Error (LoadError `RETARGET_NO_MATCH`, a clip that does not compile) or with no model shown; the
   *   model and its clips stay as they were
   */
  addClips(library: ClipLibrary, options?: RetargetOptions): AddedClips {
    if (!this.current) throw new Error(`${library.name}: no model is shown to add its clips to`);
    const { model, added } = addClipsToModel(this.current, library, this.playback, options);
    this.current = model;
    this.listener.clipsAdded?.(added);
    this.requestRedraw();
    return added;
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
   * Sets the playback rate (1 real time, −1 backwards) of every clip playing — the current one and any
   * fading out — and of clips started later.
   * @throws RangeError when not finite
   */
  setSpeed(speed: number): void {
    this.playback.speed = speed;
    this.current?.layers.setBaseSpeed(speed);
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
   * speed, crossfades, the secondary motion's springs, the material time of MToon's UV animation), and draws: deterministic stepping for tests and frame-by-frame inspection.
   * @param dtSeconds seconds ≥ 0
   */
  step(dtSeconds: number): void {
    this.pause();
    this.playback.advance(dtSeconds);
    this.current?.animated.secondaryMotion?.step(dtSeconds);
    this.frame.materialTime += dtSeconds;
    this.renderOnce();
  }

  /** Resumes playback, as {@link Playback.play} describes (a finished `once` clip restarts). */
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
    this.framing.set(view);
    this.requestRedraw();
  }

  /**
   * Places this model and those loaded later by `matrix` (16 numbers, column-major, after the up-axis turn:
   * `<sinew-viewer>`'s `orientation` and `scale`), measures the shown one's bounds again and frames it.
   */
  setPlacement(matrix: ArrayLike<number>): void {
    this.placement.set(matrix);
    if (this.current) placeModel(this.current, this.placement, this.frameAnimation);
    this.frameModel();
  }

  /** Re-aims the camera at the current model's bounds at the set distance multiple (default 1). */
  frameModel(): void {
    if (!this.current) return;
    this.surface.resize();
    this.framing.frame(this.current, this.surface.width, this.surface.height);
    this.requestRedraw();
  }

  /**
   * Switches the palette path requested. With a model shown, it is drawn once with the new path (building its
   * shader variant) before the switch takes effect; the GPU model suits every path, so nothing is uploaded
   * again.
   * @throws Error (rejects) when the model does not fit the forced path, or the variant fails to build; the
   *   old path stays
   */
  async setPaletteRequest(request: PaletteRequest): Promise<void> {
    if (request === this.currentPaletteRequest || this.disposed) return;
    await this.switchDrawing(request, this.method, true);
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
    await this.switchDrawing(this.currentPaletteRequest, Object.freeze({ skinning: method.skinning, weights: method.weights }), false);
  }

  /** Draws one frame at the current time now (no time advance). Safe to call at any moment, even after dispose. */
  renderOnce(): void {
    const model = this.current;
    const renderer = this.surface.renderer;
    if (!model || !model.gpu || !renderer || this.surface.contextLost || this.disposed) return;
    this.frame.draw(model as LoadedModel & { gpu: GpuModel }, this.settings);
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
    return surface.capture(scale, () => this.renderOnce());
  }

  /**
   * Calls `use` with the last frame drawn (the current model, context, camera, drawing-buffer size), for tools
   * that read it outside the frame loop (picking, read-backs); undefined before the first frame.
   */
  inspect<T>(use: (frame: ViewFrame) => T): T | undefined {
    const frame = this.frame.last;
    if (!frame || !this.current?.gpu || this.surface.contextLost || this.disposed) return undefined;
    return use(frame);
  }

  /** What the view shows now. */
  state(): ModelViewState {
    return describeView(this.current, this.playback, this.method, this.surface.contextLost, this.framing.state(), this.frames);
  }

  /** Draws on the next animation frame (once, however often it is called before then). */
  requestRedraw(): void { this.startLoop(); }

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
    this.attachments.dispose();
    this.springs.dispose();
    this.frame.dispose();
    this.current?.gpu?.dispose();
    if (this.current) this.current.gpu = null;
    this.surface.dispose();
  }

  /**
   * Draws the shown model once with `request` and `method` (`ModelFrame.trialDraw`), then switches to them and
   * resolves its palette path again; tells the listener of the path when `announce` or when it changed.
   * Without a model (or renderer, or with the context lost) it only switches. Redraws either way.
   * @throws Error (rejects) from resolving or drawing; nothing switches then
   */
  private async switchDrawing(request: PaletteRequest, method: SkinningMethod, announce: boolean): Promise<void> {
    const model = this.current;
    const renderer = this.surface.renderer;
    try {
      if (!model || !renderer || this.surface.contextLost) {
        this.currentPaletteRequest = request;
        this.method = method;
        return;
      }
      const palettePath = renderer.palettePathFor(model.asset, request, method);
      if (model.gpu) {
        model.animated.evaluate(model.animated.animator);
        this.frame.trialDraw(model.gpu, model, request, method);
      }
      this.currentPaletteRequest = request;
      this.method = method;
      if (announce || palettePath !== model.palettePath) {
        model.palettePath = palettePath;
        this.listener.palettePathChanged?.(palettePath);
      }
    } finally {
      this.requestRedraw();
    }
  }

  /** Asks for a frame (the surface coalesces repeated asks). The loop keeps asking while playing. */
  private startLoop(): void {
    if (this.surface.contextLost || this.disposed || !this.current) return;
    this.surface.requestFrame();
  }

  private stopLoop(): void { this.surface.cancelFrame(); }

  /**
   * One frame of the loop. The shown model's secondary motion (`AnimatedModel.secondaryMotion`) steps by the
   * frame's dt whether or not the clip plays, as three-vrm's `vrm.update(delta)` runs every frame: while paused
   * the loop goes on until the springs come to rest (`SecondaryMotion.moving`), so hair settles after a pause, a
   * seek or a change of wind; a paused view with resting springs draws one more frame per redraw and stops.
   */
  private onFrame(nowMs: number): void {
    if (this.surface.contextLost || this.disposed) return;
    const motion = this.current?.animated.secondaryMotion ?? null;
    const springs = motion !== null && motion.enabled && motion.springs !== null && motion.springs.enabled;
    // The first frame after a pause advances nothing; long gaps (background tab) advance at most 0.1 s.
    const dt = this.lastTickMs < 0 ? 0 : Math.min((nowMs - this.lastTickMs) / 1000, 0.1);
    const settling = !this.playback.playing && springs && (dt === 0 || motion.moving);
    this.lastTickMs = this.playback.playing || settling ? nowMs : -1;
    if (this.playback.playing) { this.avatar.tick(dt); this.frame.materialTime += dt; }
    motion?.step(dt);
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
    if (this.playback.playing || (settling && (dt === 0 || motion.moving))) this.startLoop();
  }

  private onContextLost(): void {
    this.stopLoop();
    this.listener.contextLost?.();
  }

  private onContextRestored(): void {
    if (this.disposed) return;
    // The model's GL objects restored themselves (src/gpu/device/); the limits palette paths are chosen by may differ.
    const model = this.current, renderer = this.surface.renderer;
    try {
      if (model?.gpu && renderer) {
        const path = renderer.palettePathFor(model.asset, this.currentPaletteRequest, this.method);
        if (path !== model.palettePath) {
          model.palettePath = path;
          this.listener.palettePathChanged?.(path);
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
