import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../asset/model-asset.ts';
import { SkinnedRenderer, type CameraMatrices, type GpuModel, type PalettePath, type RendererOptions } from '../gl/renderer.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { computeModelBounds } from '../scene/model-bounds.ts';
import { OrbitCamera, type Bounds } from '../scene/orbit-camera.ts';
import { ControlsPanel } from './controls-panel.ts';
import { ErrorBanner } from './error-banner.ts';
import { readFrame, type FrameStats } from './frame-readback.ts';
import { loadModelFromFiles, loadModelFromUrl } from './model-source.ts';
import { attachOrbitInput } from './orbit-input.ts';
import { Playback } from './playback.ts';
import { resolveClip, type ViewerParams } from './viewer-params.ts';

/** Linear RGBA the canvas is cleared to; tests count pixels that differ from it. */
export const BACKGROUND: [number, number, number, number] = [0.13, 0.14, 0.16, 1];

/** Snapshot of what the viewer shows, for tests and tooling. */
export interface ViewerState {
  /** Name of the model drawn ('' before the first). */
  readonly model: string;
  /** Name of the selected clip, or null for the rest pose. */
  readonly clip: string | null;
  /** Index of the selected clip, −1 for the rest pose. */
  readonly clipIndex: number;
  /** Names of the model's clips. */
  readonly clips: readonly string[];
  /** Seconds into the clip. */
  readonly time: number;
  /** Seconds: the selected clip's duration. */
  readonly duration: number;
  readonly playing: boolean;
  /** Palette path the renderer uses for this model, or null before the first. */
  readonly palette: PalettePath | null;
  /** The error shown in the banner, or null. */
  readonly error: string | null;
  /** Non-fatal loader warnings of the current model. */
  readonly warnings: readonly string[];
  readonly contextLost: boolean;
  /** Camera yaw and pitch in degrees, distance as a multiple of the framed distance. */
  readonly camera: { readonly yaw: number; readonly pitch: number; readonly distance: number };
  /** Frames drawn since the page opened. */
  readonly frames: number;
}

/** Options for {@link ViewerApp.showAsset}. */
export interface ShowOptions {
  /** Clip to select (name, index, `rest`/−1); falls back to the first clip with a warning when unknown. */
  readonly clip?: string | null;
  /** Seconds: start paused at this time. Absent: start playing from 0. */
  readonly time?: number | null;
}

/** The loaded model: CPU state, GPU side (null while the context is lost), display orientation. */
interface LoadedModel {
  readonly asset: ModelAsset;
  readonly animated: AnimatedModel;
  gpu: GpuModel | null;
  /** Model → display space: identity for Y-up, Z-up → Y-up rotation for Z-up data. */
  readonly displayMatrix: Float32Array;
  readonly bounds: Bounds;
  palette: PalettePath;
}

/**
 * The viewer application: a full-window WebGL2 canvas drawing one skinned model with an orbit camera,
 * the control panel, the status / error banner, drag-and-drop loading, and the animation loop.
 *
 * Loading is transactional: a new model is parsed, animated and uploaded while the current one keeps
 * playing; only when all of that succeeds does it replace the current one. A failure shows the error in
 * the banner and changes nothing else. The loop runs on requestAnimationFrame; `renderOnce()` draws a frame
 * on demand (tests pause and drive frames themselves). On `webglcontextlost` the loop stops and the banner
 * says so; on `webglcontextrestored` the renderer is rebuilt and the model re-uploaded from its ModelAsset.
 */
export class ViewerApp {
  /** The full-window canvas (`#sinew-canvas`), WebGL2, sized to its CSS box × devicePixelRatio. */
  readonly canvas: HTMLCanvasElement;
  /** The orbit camera, framed on each model as it loads. */
  readonly camera = new OrbitCamera();
  /** Clip time and play state. */
  readonly playback = new Playback();
  /** The control panel (`#sinew-panel`). */
  readonly panel: ControlsPanel;
  /** The status / error banner (`#sinew-banner`). */
  readonly banner: ErrorBanner;
  /** Resolves once the first model has been drawn. */
  readonly ready: Promise<void>;

  private readonly gl: WebGL2RenderingContext | null;
  private readonly rendererOptions: RendererOptions;
  private renderer: SkinnedRenderer | null = null;
  private current: LoadedModel | null = null;
  private readonly cameraMatrices: CameraMatrices;
  private readonly distanceScale: number;
  private rafId = 0;
  private lastTickMs = -1;
  private frames = 0;
  private contextLost = false;
  private loadToken = 0;
  private resolveReady!: () => void;
  private readonly tick = (nowMs: number): void => this.onFrame(nowMs);

  /**
   * Builds the page inside `root` (canvas, panel, banner), the WebGL2 context and the renderer, and
   * listens for input, drops and context loss. Shows no model until {@link showAsset} or a load.
   */
  constructor(root: HTMLElement, params: ViewerParams) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.canvas = document.createElement('canvas');
    this.canvas.id = 'sinew-canvas';
    this.canvas.tabIndex = 0;
    root.append(this.canvas);
    this.banner = new ErrorBanner(root);
    this.panel = new ControlsPanel(root, {
      onClipChange: (i) => this.selectClip(i),
      onPlayToggle: () => (this.playback.playing ? this.pause() : this.play()),
      onScrub: (s) => this.setTime(s),
      onFiles: (files) => void this.loadFiles(files),
      onFrame: () => this.frameModel(),
    });
    this.panel.element.hidden = !params.ui;
    this.rendererOptions = { palette: params.palette };
    this.distanceScale = params.distance ?? 1;
    this.camera.yaw = params.yaw ?? 0;
    this.camera.pitch = params.pitch ?? (10 * Math.PI) / 180;
    this.cameraMatrices = { view: this.camera.view, projection: this.camera.projection, eye: this.camera.eye };

    this.gl = this.canvas.getContext('webgl2', { antialias: true, alpha: false, powerPreference: 'high-performance' });
    if (!this.gl) {
      this.banner.show('This browser has no WebGL2: Sinew cannot draw here.', 'error');
    } else {
      try {
        this.renderer = new SkinnedRenderer(this.gl, this.rendererOptions);
      } catch (e) {
        this.banner.show(`Could not start the renderer: ${messageOf(e)}`, 'error');
      }
    }
    this.canvas.addEventListener('webglcontextlost', (e) => this.onContextLost(e));
    this.canvas.addEventListener('webglcontextrestored', () => void this.onContextRestored());
    attachOrbitInput(this.canvas, this.camera, () => this.requestRedraw());
    this.attachDrop();
    this.attachKeys();
    window.addEventListener('resize', () => this.requestRedraw());
  }

  /**
   * Replaces the current model with `asset` once it is uploaded; frames the camera on it.
   * @throws Error (with the model's name) when it cannot be animated or uploaded; the current model stays
   */
  async showAsset(asset: ModelAsset, options: ShowOptions = {}): Promise<void> {
    const token = ++this.loadToken;
    const animated = new AnimatedModel(asset);
    let clipIndex = asset.clips.length > 0 ? 0 : -1;
    let clipWarning: string | null = null;
    if (options.clip != null) {
      const resolved = resolveClip(options.clip, asset.clips.map((c) => c.name));
      if (resolved === null) clipWarning = `${asset.name}: no clip "${options.clip}"; playing ${clipIndex >= 0 ? `"${asset.clips[0].name}"` : 'the rest pose'}`;
      else clipIndex = resolved;
    }
    animated.clipIndex = clipIndex;
    const startTime = options.time ?? 0;
    animated.evaluate(startTime);
    const displayMatrix = mat4.create() as Float32Array;
    if (asset.upAxis === 'z') mat4.fromXRotation(displayMatrix, -Math.PI / 2);
    const bounds = computeModelBounds(asset, animated, displayMatrix);

    let gpu: GpuModel | null = null;
    let palette: PalettePath = 'uniform';
    if (this.renderer && !this.contextLost) {
      palette = this.renderer.palettePathFor(asset);
      gpu = await this.renderer.upload(asset);
      // A trial draw builds the shader variants it needs now, so a failure leaves the current model in place.
      try {
        this.camera.update(this.aspect());
        this.renderer.beginFrame(this.canvas.width, this.canvas.height, BACKGROUND);
        this.renderer.draw(gpu, animated, this.cameraMatrices, displayMatrix);
      } catch (e) {
        gpu.dispose();
        this.requestRedraw();
        throw e;
      }
    } else if (this.renderer) {
      palette = this.renderer.palettePathFor(asset);
    }
    if (token !== this.loadToken) {
      // A later load superseded this one while it uploaded.
      gpu?.dispose();
      this.requestRedraw();
      return;
    }
    this.current?.gpu?.dispose();
    this.current = { asset, animated, gpu, displayMatrix, bounds, palette };

    this.playback.duration = animated.duration;
    this.playback.playing = options.time == null;
    this.playback.seek(startTime);
    this.panel.setModel({
      name: asset.name,
      clipNames: asset.clips.map((c) => c.name),
      clipIndex,
      palette,
      summary: summarize(asset),
    });
    this.panel.setPlaying(this.playback.playing);
    this.frameModel();

    const notes = clipWarning ? [clipWarning, ...asset.warnings] : asset.warnings;
    if (notes.length > 0) {
      this.banner.show(notes.length > 1 ? `${notes[0]} (and ${notes.length - 1} more warnings)` : notes[0], 'warning');
    } else {
      this.banner.clear();
    }
    this.renderOnce();
    this.startLoop();
  }

  /**
   * Fetches, parses and shows a model from a URL (.glb, .gltf with external files fetched relative to it).
   * Never rejects: a failure shows the loader's message in the banner and keeps the current model.
   * @param name file name for the format and messages; defaults to the URL's last segment
   * @returns whether the model was loaded
   */
  async loadUrl(url: string, name?: string, options: ShowOptions = {}): Promise<boolean> {
    return this.guardLoad(async () => this.showAsset(await loadModelFromUrl(url, name), options));
  }

  /** Like {@link loadUrl}, for dropped or picked files (a .gltf together with its .bin and images). */
  async loadFiles(files: readonly File[]): Promise<boolean> {
    return this.guardLoad(async () => this.showAsset(await loadModelFromFiles(files)));
  }

  /** Runs a load, turning its failure into the banner's error. */
  async guardLoad(load: () => Promise<void>): Promise<boolean> {
    document.body.classList.add('sinew-loading');
    try {
      await load();
      return true;
    } catch (e) {
      this.showError(messageOf(e));
      return false;
    } finally {
      document.body.classList.remove('sinew-loading');
    }
  }

  /** Shows an error in the banner (the model keeps playing). */
  showError(message: string): void {
    console.warn(`sinew: ${message}`);
    this.banner.show(message, 'error');
  }

  /** Selects clip `clipIndex` (−1: rest pose), keeping the time when paused, restarting it when playing. */
  selectClip(clipIndex: number): void {
    const model = this.current;
    if (!model) return;
    model.animated.clipIndex = clipIndex;
    this.playback.duration = model.animated.duration;
    this.playback.seek(this.playback.playing ? 0 : this.playback.time);
    this.panel.setClip(clipIndex);
    this.requestRedraw();
  }

  /** Selects a clip by name or index string (as the `clip` URL parameter). @returns false when none matches */
  selectClipByName(clip: string | number): boolean {
    const model = this.current;
    if (!model) return false;
    const index = resolveClip(String(clip), model.asset.clips.map((c) => c.name));
    if (index === null) return false;
    this.selectClip(index);
    return true;
  }

  /** Resumes playback. */
  play(): void {
    this.playback.playing = true;
    this.panel.setPlaying(true);
    this.startLoop();
  }

  /** Pauses playback; the loop then draws only when something changes (camera, time, clip). */
  pause(): void {
    this.playback.playing = false;
    this.panel.setPlaying(false);
    this.requestRedraw();
  }

  /** Pauses and jumps to `seconds` (clamped to the clip), then draws. */
  setTime(seconds: number): void {
    this.pause();
    this.playback.seek(seconds);
    this.renderOnce();
  }

  /**
   * Sets the camera: yaw and pitch in degrees, distance as a multiple of the framed distance; omitted
   * values stay.
   */
  setCamera(view: { yaw?: number; pitch?: number; distance?: number }): void {
    const deg = Math.PI / 180;
    if (view.yaw !== undefined) this.camera.yaw = view.yaw * deg;
    if (view.pitch !== undefined) this.camera.pitch = view.pitch * deg;
    if (view.distance !== undefined) this.camera.distance = view.distance * this.camera.framedDistance;
    this.requestRedraw();
  }

  /** Re-aims the camera at the current model's bounds at the URL's distance multiple (default 1). */
  frameModel(): void {
    if (!this.current) return;
    this.resizeCanvas();
    this.camera.frame(this.current.bounds, this.aspect());
    this.camera.distance = this.camera.framedDistance * this.distanceScale;
    this.requestRedraw();
  }

  /** Draws one frame at the current time now (no time advance). Safe to call at any moment. */
  renderOnce(): void {
    const model = this.current;
    const renderer = this.renderer;
    if (!model || !model.gpu || !renderer || this.contextLost) return;
    this.resizeCanvas();
    model.animated.evaluate(this.playback.time);
    this.camera.update(this.aspect());
    renderer.beginFrame(this.canvas.width, this.canvas.height, BACKGROUND);
    renderer.draw(model.gpu, model.animated, this.cameraMatrices, model.displayMatrix);
    this.frames++;
    this.panel.setTime(this.playback.time, this.playback.duration, performance.now(), !this.playback.playing);
    if (this.frames === 1) {
      document.body.dataset.ready = 'true';
      this.resolveReady();
    }
  }

  /**
   * Draws a frame and measures it (coverage, luminance grid), reading it back in the same task so it works
   * without preserveDrawingBuffer. For tests; null when nothing can be drawn.
   */
  inspectFrame(cols = 16, rows = 12): FrameStats | null {
    const gl = this.gl;
    if (!gl || this.contextLost || !this.current?.gpu) return null;
    this.renderOnce();
    return readFrame(gl, this.canvas.width, this.canvas.height, BACKGROUND, cols, rows);
  }

  /** What the viewer shows now. */
  state(): ViewerState {
    const model = this.current;
    const clipIndex = model ? model.animated.clipIndex : -1;
    const deg = 180 / Math.PI;
    return {
      model: model?.asset.name ?? '',
      clip: model && clipIndex >= 0 ? model.asset.clips[clipIndex].name : null,
      clipIndex,
      clips: model ? model.asset.clips.map((c) => c.name) : [],
      time: this.playback.time,
      duration: this.playback.duration,
      playing: this.playback.playing,
      palette: model?.palette ?? null,
      error: this.banner.kind === 'error' ? this.banner.message : null,
      warnings: model?.asset.warnings ?? [],
      contextLost: this.contextLost,
      camera: {
        yaw: this.camera.yaw * deg,
        pitch: this.camera.pitch * deg,
        distance: this.camera.distance / this.camera.framedDistance,
      },
      frames: this.frames,
    };
  }

  private aspect(): number {
    return this.canvas.width / Math.max(this.canvas.height, 1);
  }

  private resizeCanvas(): void {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
  }

  /** Draws on the next animation frame (once, however often it is called before then). */
  private requestRedraw(): void {
    this.startLoop();
  }

  /** Schedules the next frame unless one is already scheduled. The loop keeps going while playing. */
  private startLoop(): void {
    if (this.rafId !== 0 || this.contextLost || !this.current) return;
    this.rafId = requestAnimationFrame(this.tick);
  }

  private stopLoop(): void {
    if (this.rafId !== 0) cancelAnimationFrame(this.rafId);
    this.rafId = 0;
  }

  private onFrame(nowMs: number): void {
    this.rafId = 0;
    if (this.contextLost) return;
    // The first frame after a pause advances nothing; long gaps (background tab) advance at most 0.1 s.
    const dt = this.lastTickMs < 0 ? 0 : Math.min((nowMs - this.lastTickMs) / 1000, 0.1);
    this.lastTickMs = this.playback.playing ? nowMs : -1;
    this.playback.advance(dt);
    try {
      this.renderOnce();
    } catch (e) {
      // A failing frame would fail again next frame: stop and say why instead of flooding the console.
      this.showError(`Drawing ${this.current?.asset.name ?? 'the model'} failed: ${messageOf(e)}`);
      return;
    }
    if (this.playback.playing) this.rafId = requestAnimationFrame(this.tick);
  }

  private onContextLost(e: Event): void {
    e.preventDefault();
    this.contextLost = true;
    this.stopLoop();
    this.banner.show('The WebGL context was lost; waiting for the browser to restore it…', 'warning');
  }

  private async onContextRestored(): Promise<void> {
    if (!this.gl) return;
    this.contextLost = false;
    // Everything GL-side died with the context: drop it (nothing left to delete) and rebuild from the assets.
    this.renderer?.dispose();
    this.renderer = null;
    if (this.current) this.current.gpu = null;
    try {
      this.renderer = new SkinnedRenderer(this.gl, this.rendererOptions);
      const model = this.current;
      if (model) {
        const gpu = await this.renderer.upload(model.asset);
        if (this.current === model) {
          model.gpu = gpu;
          model.palette = this.renderer.palettePathFor(model.asset);
          this.panel.setPalette(model.palette);
        } else {
          gpu.dispose();
        }
      }
      this.banner.show('The WebGL context was restored.', 'info');
      this.renderOnce();
      this.startLoop();
    } catch (err) {
      this.showError(`Could not restore after WebGL context loss: ${messageOf(err)}`);
    }
  }

  private attachDrop(): void {
    const body = document.body;
    let depth = 0;
    window.addEventListener('dragenter', (e) => {
      e.preventDefault();
      depth++;
      body.classList.add('sinew-dragging');
    });
    window.addEventListener('dragleave', () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) body.classList.remove('sinew-dragging');
    });
    window.addEventListener('dragover', (e) => e.preventDefault());
    window.addEventListener('drop', (e) => {
      e.preventDefault();
      depth = 0;
      body.classList.remove('sinew-dragging');
      const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
      if (files.length > 0) void this.loadFiles(files);
    });
  }

  private attachKeys(): void {
    window.addEventListener('keydown', (e) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'BUTTON')) return;
      if (e.key === ' ') {
        e.preventDefault();
        if (this.playback.playing) this.pause();
        else this.play();
      } else if (e.key === 'f' || e.key === 'F') {
        this.frameModel();
      }
    });
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** "33 joints · 10240 vertices · 1 clip". */
function summarize(asset: ModelAsset): string {
  let vertices = 0;
  for (const instance of asset.meshInstances) {
    for (const p of asset.meshes[instance.mesh]?.primitives ?? []) {
      vertices += p.vertexCount;
    }
  }
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [
    plural(asset.skeleton.jointCount, 'joint'),
    plural(vertices, 'vertex').replace(/vertexs$/, 'vertices'),
    plural(asset.clips.length, 'clip'),
  ].join(' · ');
}
