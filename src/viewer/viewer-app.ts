import type { ModelAsset } from '../asset/model-asset.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import type { OrbitCamera } from '../scene/orbit-camera.ts';
import { ControlsPanel } from './controls-panel.ts';
import { ErrorBanner } from './error-banner.ts';
import { summarizeModel } from './model-summary.ts';
import { fileNameOf, loadModelFromFiles, loadModelFromUrl } from './model-source.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { messageOf, ModelView, type ModelViewState, type ShowOptions } from './model-view.ts';
import type { Playback } from './playback.ts';
import type { ViewerParams } from './viewer-params.ts';

export { BACKGROUND, type ShowOptions } from './model-view.ts';

/** Snapshot of what the viewer shows, for tests and tooling. */
export interface ViewerState extends ModelViewState {
  /** The error shown in the banner, or null. */
  readonly error: string | null;
}

/**
 * The viewer application: a full-window {@link ModelView} (WebGL2 canvas, orbit camera, loop, transactional
 * loading, context loss) with the control panel, the status / error banner, drag-and-drop loading and
 * keyboard shortcuts around it.
 *
 * A failed load shows the error in the banner and changes nothing else. Headless tests pause and draw frames
 * with `renderOnce()` themselves. On context loss the banner says so, and again when it is restored.
 */
export class ViewerApp {
  /** The full-window canvas (`#sinew-canvas`), WebGL2, sized to its CSS box × devicePixelRatio. */
  readonly canvas: HTMLCanvasElement;
  /** The canvas, renderer, model and loop. */
  readonly view: ModelView;
  /** The control panel (`#sinew-panel`). */
  readonly panel: ControlsPanel;
  /** The status / error banner (`#sinew-banner`). */
  readonly banner: ErrorBanner;
  /** Resolves once the first model has been drawn. */
  readonly ready: Promise<void>;
  private resolveReady!: () => void;
  private firstFrameDrawn = false;
  /** Bumped by each load: only the latest one shows its progress and ends the loading status. */
  private loadSerial = 0;

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
      onPlayToggle: () => (this.view.playback.playing ? this.pause() : this.play()),
      onScrub: (s) => this.setTime(s),
      onSpeedChange: (speed) => this.setSpeed(speed),
      onLoopChange: (mode) => this.setLoop(mode),
      onFadeChange: (seconds) => this.setFade(seconds),
      onFiles: (files) => void this.loadFiles(files),
      onFrame: () => this.frameModel(),
    });
    this.panel.element.hidden = !params.ui;
    this.view = new ModelView(this.canvas, { palette: params.palette, distance: params.distance ?? 1 }, {
      shown: ({ asset, clipIndex, palette, warnings }) => {
        this.panel.setModel({
          name: asset.name,
          clipNames: asset.clips.map((c) => c.name),
          clipIndex,
          palette,
          summary: summarizeModel(asset),
          warnings,
        });
        if (warnings.length > 0) {
          this.banner.show(warnings.length > 1 ? `${warnings[0]} (and ${warnings.length - 1} more warnings)` : warnings[0], 'warning');
        } else {
          this.banner.clear();
        }
      },
      drawn: (time, duration, playing) => {
        this.panel.setTime(time, duration, performance.now(), !playing);
        if (!this.firstFrameDrawn) {
          this.firstFrameDrawn = true;
          document.body.dataset.ready = 'true';
          this.resolveReady();
        }
      },
      playingChanged: (playing) => this.panel.setPlaying(playing),
      clipChanged: (clipIndex) => this.panel.setClip(clipIndex),
      settingsChanged: (settings) => this.panel.setSettings(settings),
      paletteChanged: (palette) => this.panel.setPalette(palette),
      contextLost: () => this.banner.show('The WebGL context was lost; waiting for the browser to restore it…', 'warning'),
      contextRestored: () => this.banner.show('The WebGL context was restored.', 'info'),
      failed: (message) => this.showError(message),
    });
    if (params.speed !== null) this.setSpeed(params.speed);
    if (params.loop !== null) this.setLoop(params.loop);
    if (params.fade !== null) this.setFade(params.fade);
    if (params.yaw !== null) this.view.camera.yaw = params.yaw;
    if (params.pitch !== null) this.view.camera.pitch = params.pitch;
    if (this.view.startupError) this.banner.show(this.view.startupError, 'error');
    this.attachDrop();
    this.attachKeys();
    window.addEventListener('resize', () => this.view.requestRedraw());
  }

  /** The orbit camera, framed on each model as it loads. */
  get camera(): OrbitCamera {
    return this.view.camera;
  }

  /** Clip time and play state. */
  get playback(): Playback {
    return this.view.playback;
  }

  /**
   * Replaces the current model with `asset` once it is uploaded; frames the camera on it.
   * @returns false when a later load superseded it
   * @throws Error (with the model's name) when it cannot be animated or uploaded; the current model stays
   */
  async showAsset(asset: ModelAsset, options: ShowOptions = {}): Promise<boolean> {
    return this.view.load(asset, options);
  }

  /**
   * Fetches, parses and shows a model from a URL (.glb, .gltf with external files fetched relative to it,
   * .md5mesh with its .md5anim and images); meanwhile the panel says "loading NAME…" over a download bar.
   * Never rejects: a failure shows the loader's message in the banner and keeps the current model.
   * @param name file name for the format and messages; defaults to the URL's last segment
   * @param anim for an .md5mesh, the URL of the .md5anim to play (default: `<name>.md5anim` next to it)
   * @returns whether the model was loaded
   */
  async loadUrl(url: string, name?: string, options: ShowOptions = {}, anim: string | null = null): Promise<boolean> {
    const serial = this.loadSerial + 1; // the serial guardLoad gives this load
    const onProgress = (loaded: number, total: number | null): void => {
      if (serial === this.loadSerial) this.panel.setProgress(loaded, total);
    };
    return this.guardLoad(() => this.view.load(() => loadModelFromUrl(url, { name, anim, onProgress }), options), name ?? fileNameOf(url));
  }

  /** Like {@link loadUrl}, for dropped or picked files (a .gltf together with its .bin and images). */
  async loadFiles(files: readonly File[]): Promise<boolean> {
    const main = files.find((f) => modelFormatOf(f.name) !== null) ?? files[0];
    return this.guardLoad(() => this.view.load(() => loadModelFromFiles(files)), main?.name);
  }

  /**
   * Runs a load, turning its failure into the banner's error; while it runs (and no later one started) the
   * panel says "loading NAME…".
   * @param name what is loading, for the panel (absent: no loading status)
   * @returns whether it showed a model
   */
  async guardLoad(load: () => Promise<boolean | void>, name?: string): Promise<boolean> {
    const serial = ++this.loadSerial;
    document.body.classList.add('sinew-loading');
    if (name !== undefined) this.panel.setLoading(name);
    try {
      return (await load()) !== false;
    } catch (e) {
      this.showError(messageOf(e));
      return false;
    } finally {
      if (serial === this.loadSerial) {
        document.body.classList.remove('sinew-loading');
        this.panel.setLoading(null);
      }
    }
  }

  /** Shows an error in the banner (the model keeps playing). */
  showError(message: string): void {
    console.warn(`sinew: ${message}`);
    this.banner.show(message, 'error');
  }

  /**
   * Selects clip `clipIndex` (−1: rest pose): while playing, crossfades to it from its start over the fade
   * duration; while paused, cuts to it at the current time. See {@link ModelView.selectClip}.
   * @param fadeSeconds crossfade over this many seconds instead, from the clip's start, playing or not
   */
  selectClip(clipIndex: number, fadeSeconds?: number): void {
    this.view.selectClip(clipIndex, fadeSeconds);
  }

  /**
   * Selects a clip by name or index string (as the `clip` URL parameter), as {@link selectClip}.
   * @returns false when none matches
   */
  selectClipByName(clip: string | number, fadeSeconds?: number): boolean {
    return this.view.selectClipByName(clip, fadeSeconds);
  }

  /** Sets the playback rate (1 real time, negative backwards). @throws RangeError when not finite */
  setSpeed(speed: number): void {
    this.view.setSpeed(speed);
  }

  /** Sets the loop mode (`loop`, `once`, `pingpong`) of the current clip and later ones. */
  setLoop(mode: LoopMode): void {
    this.view.setLoop(mode);
  }

  /** Sets the crossfade duration of clip changes while playing, seconds ≥ 0. @throws RangeError */
  setFade(seconds: number): void {
    this.view.setFade(seconds);
  }

  /** Pauses, moves the animation on by `dtSeconds` (clip times at their speed, crossfades) and draws. */
  step(dtSeconds: number): void {
    this.view.step(dtSeconds);
  }

  /** Resumes playback. */
  play(): void {
    this.view.play();
  }

  /** Pauses playback; the loop then draws only when something changes (camera, time, clip). */
  pause(): void {
    this.view.pause();
  }

  /** Pauses and jumps to `seconds` (clamped to the clip), then draws. */
  setTime(seconds: number): void {
    this.view.setTime(seconds);
  }

  /**
   * Sets the camera: yaw and pitch in degrees, distance as a multiple of the framed distance; omitted
   * values stay.
   */
  setCamera(view: { yaw?: number; pitch?: number; distance?: number }): void {
    this.view.setCamera(view);
  }

  /** Re-aims the camera at the current model's bounds at the URL's distance multiple (default 1). */
  frameModel(): void {
    this.view.frameModel();
  }

  /** Draws one frame at the current time now (no time advance). Safe to call at any moment. */
  renderOnce(): void {
    this.view.renderOnce();
  }

  /** What the viewer shows now. */
  state(): ViewerState {
    return { ...this.view.state(), error: this.banner.kind === 'error' ? this.banner.message : null };
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
        if (this.view.playback.playing) this.pause();
        else this.play();
      } else if (e.key === 'f' || e.key === 'F') {
        this.frameModel();
      }
    });
  }
}

