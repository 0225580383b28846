import type { ModelAsset } from '../asset/model-asset.ts';
import type { LoopMode } from '../animation/loop-mode.ts';
import type { OrbitCamera } from '../scene/orbit-camera.ts';
import { ViewerPanel, type PanelStats, type ViewerPanelHandlers } from './viewer-panel.ts';
import { Inspection, pickableJoints } from './inspection.ts';
import { IkDemo } from './ik-demo.ts';
import { availableSamples, sampleModels, type SampleModel } from './sample-models.ts';
import { generatedAvatarFile } from './generated-avatar-sample.ts';
import { ViewerVrmPanel } from './viewer-vrm-panel.ts';
import { ViewerSpringsPanel } from './viewer-springs-panel.ts';
import { DriveDemo } from './drive-demo.ts';
import { siteLinks } from './site-links.ts';
import { createOctopusAsset } from '../procedural/octopus.ts';
import { HelpOverlay } from './help-overlay.ts';
import { JointTip } from './joint-tip.ts';
import type { SurfacePicking } from './surface-picking.ts';
import { attachDrop } from './viewer-drop.ts';
import { attachShortcuts } from './viewer-shortcuts.ts';
import { attachJointPicking } from './joint-picking.ts';
import { FrameStatsCounter, frameStats } from './frame-stats.ts';
import { ErrorBanner } from './error-banner.ts';
import { ViewerProps } from './viewer-props.ts';
import { summarizeModel } from './model-summary.ts';
import { fileNameOf, loadModelFromUrl } from '../loaders/fetch/load-model-from-url.ts';
import { extensionOf, loadModelFromFiles } from '../loaders/fetch/load-model-from-files.ts';
import { loadClipsFromFiles, loadClipsFromUrl } from '../loaders/fetch/load-clips-from-url.ts';
import { clipLibraryOf, type ClipLibrary } from '../loaders/load-clips.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { ModelView } from '../view/model-view.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ShowOptions } from '../view/model-view-options.ts';
import type { ModelViewState } from '../view/model-view-state.ts';
import type { FrameTimings } from '../view/frame-inspector.ts';
import type { Playback } from '../view/playback.ts';
import type { ViewerParams } from './viewer-params.ts';

export { BACKGROUND, type ShowOptions } from '../view/model-view-options.ts';

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
  /** The control panel (`#sinew-panel`, lil-gui). */
  readonly panel: ViewerPanel;
  /** The debug views (skeleton, weights, wireframe, GPU vs CPU…) drawn with each frame. */
  readonly inspection = new Inspection();
  /** The panel's IK folder: look at the cursor, feet on tilted ground. */
  readonly ik: IkDemo;
  /** The VRM panel (`#sinew-vrm`), shown while an avatar is shown. */
  readonly vrm: ViewerVrmPanel;
  /** The spring-bone folder (`#sinew-springs`), shown while the model has spring bones. */
  readonly springs: ViewerSpringsPanel;
  /** The Drive folder (`#sinew-drive`): the generated avatar driven by an animation graph from the keyboard or a gamepad. */
  readonly drive: DriveDemo;
  /** The keyboard shortcut list (`#sinew-help`). */
  readonly help: HelpOverlay;
  private readonly jointTip: JointTip;
  private readonly surfacePicking: SurfacePicking;
  private readonly frameCounter = new FrameStatsCounter();
  /** Layered clips follow the selected joint's subtree (the Layers folder's mask checkbox). */
  private layerMaskOn = false;
  /** The status / error banner (`#sinew-banner`). */
  readonly banner: ErrorBanner;
  /** Props on joints: the panel's Attachments folder and the Alt / Shift drop (viewer-props.ts). */
  readonly props: ViewerProps;
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
    const catalogue = sampleModels(import.meta.env.DEV);
    const links = siteLinks(import.meta.env.DEV);
    const handlers: ViewerPanelHandlers = {
      onClipChange: (i) => this.selectClip(i),
      onPlayToggle: () => (this.view.playback.playing ? this.pause() : this.play()),
      onScrub: (s) => this.setTime(s),
      onSpeedChange: (speed) => this.setSpeed(speed),
      onLoopChange: (mode) => this.setLoop(mode),
      onFadeChange: (seconds) => this.setFade(seconds),
      onLayerWeight: (clip, weight) => this.view.layers.setWeight(clip, weight),
      onLayerMask: (on) => {
        this.layerMaskOn = on;
        this.view.layers.setMask(on ? this.inspection.selectedJoint : -1);
      },
      onFiles: (files) => void this.loadFiles(files),
      onOpenUrl: (url) => void (url === null ? this.guardLoad(async () => this.showAsset(createOctopusAsset()), 'octopus') : this.loadUrl(url)),
      onOpenSample: (sample) => void this.openSample(sample),
      onFrame: () => this.frameModel(),
      onSkinningChange: (skinning) => void this.guard(this.view.setSkinningMethod({ ...this.view.state().method, skinning })),
      onWeightsChange: (weights) => void this.guard(this.view.setSkinningMethod({ ...this.view.state().method, weights })),
      onPaletteRequestChange: (request) => void this.guard(this.view.setPaletteRequest(request)),
      onViewChange: () => this.viewChanged(),
      onJointSelect: (joint) => this.selectJoint(joint),
      onBindPose: (on) => {
        this.inspection.settings.bindPose = on;
        this.viewChanged();
      },
      onScreenshot: (scale) => this.saveScreenshot(scale),
      onFullscreen: () => this.toggleFullscreen(),
      onHelp: () => this.help.toggle(),
    };
    this.panel = new ViewerPanel(root, {
      handlers, view: this.inspection.settings, samples: catalogue.candidates.filter((sample) => sample.url === null), sampleSource: catalogue.source, links,
    });
    // The list offers only the models that are there: probed once, then filled.
    void availableSamples(catalogue.candidates).then((samples) => this.panel.setSamples(samples));
    this.panel.element.hidden = !params.ui;
    this.help = new HelpOverlay(root, links);
    this.jointTip = new JointTip(root);
    this.inspection.onReading = (reading) => this.panel.setParity(reading);
    this.view = new ModelView(this.canvas, { paletteRequest: params.palette, distance: params.distance ?? 1, frameAnimation: true, inertia: true }, {
      shown: ({ asset, clipIndex, palettePath, warnings }) => {
        this.panel.setModel({
          name: asset.name,
          clips: asset.clips,
          clipIndex,
          palettePath,
          summary: summarizeModel(asset),
          warnings,
          joints: [...pickableJoints(asset)].map((index) => ({ index, name: asset.skeleton.names[index] ?? '' })),
        });
        this.panel.setParity(null);
        this.ik.modelShown();
        this.vrm?.modelShown(); // unset until the constructor has run
        this.springs?.modelShown();
        this.drive?.modelShown();
        // Joint indices are the previous model's.
        this.inspection.selectedJoint = -1;
        this.layerMaskOn = false;
        this.inspection.hoverJoint = -1;
        this.surfacePicking?.hide(); // unset until the constructor has run
        // Each warning once: listed in the panel; the banner only counts them, or (panel hidden) shows them.
        if (warnings.length > 0) {
          const text = params.ui
            ? `${asset.name}: ${warnings.length} loader warning${warnings.length > 1 ? 's' : ''} (listed in the panel)`
            : warnings.join('\n');
          this.banner.show(text, 'warning');
        } else {
          this.banner.clear();
        }
      },
      drawn: (time, duration, playing) => {
        this.panel.setTime(time, duration, performance.now(), !playing);
        this.vrm?.frameDrawn();
        this.frameCounter.count(this.view, performance.now(), (frames, elapsed, sums) => this.panel.setStats(this.frameStats(frames, elapsed, sums)));
        if (!this.firstFrameDrawn) {
          this.firstFrameDrawn = true;
          document.body.dataset.ready = 'true';
          this.resolveReady();
        }
      },
      playingChanged: (playing) => this.panel.setPlaying(playing),
      clipChanged: (clipIndex) => this.panel.setClip(clipIndex),
      clipsAdded: (added) => {
        this.panel.setClips(this.view.asset?.clips ?? [], this.view.playback.clipIndex, this.view.layers.weights());
        this.panel.setRetargeting(added);
      },
      settingsChanged: (settings) => this.panel.setSettings(settings),
      palettePathChanged: (palettePath) => this.panel.setPalettePath(palettePath),
      contextLost: () => this.banner.show('The WebGL context was lost; waiting for the browser to restore it…', 'warning'),
      contextRestored: () => this.banner.show('The WebGL context was restored.', 'info'),
      failed: (message) => this.showError(message),
    });
    this.view.inspector = this.inspection;
    this.ik = new IkDemo(this.view, this.panel.gui, this.canvas);
    this.vrm = new ViewerVrmPanel(this.view, this.panel.gui, this.canvas);
    this.springs = new ViewerSpringsPanel(this.view, this.panel.gui);
    this.drive = new DriveDemo({ view: this.view, show: (asset) => this.guardLoad(async () => this.showAsset(asset), asset.name) }, this.panel.gui);
    this.panel.setMethod(params.skinning, params.weights, params.palette);
    this.updateCoveredArea();
    // A three-quarter view (the model's front and one side), slightly from above, unless the URL says otherwise.
    this.view.camera.yaw = (35 * Math.PI) / 180;
    this.view.camera.pitch = (15 * Math.PI) / 180;
    if (params.speed !== null) this.setSpeed(params.speed);
    if (params.loop !== null) this.setLoop(params.loop);
    if (params.fade !== null) this.setFade(params.fade);
    if (params.yaw !== null) this.view.camera.yaw = params.yaw;
    if (params.pitch !== null) this.view.camera.pitch = params.pitch;
    if (this.view.startupError) this.banner.show(this.view.startupError, 'error');
    this.props = new ViewerProps({ view: this.view, banner: this.banner, selectedJoint: () => this.inspection.selectedJoint }, this.panel.gui);
    attachDrop((files, shift, alt) => void this.props.drop(files, shift, alt).then((prop) => prop || this.loadFiles(files, shift)));
    attachShortcuts(this);
    this.surfacePicking = attachJointPicking({
      view: this.view, canvas: this.canvas, inspection: this.inspection, jointTip: this.jointTip, selectJoint: (joint) => this.selectJoint(joint),
    });
    window.addEventListener('resize', () => {
      this.updateCoveredArea();
      this.view.requestRedraw();
    });
    // The panel's size changes as folders open and close, and it may be hidden: keep the model clear of it.
    new ResizeObserver(() => {
      this.updateCoveredArea();
      this.view.requestRedraw();
    }).observe(this.panel.element);
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
    return this.guardLoad(() => this.view.load(() => loadModelFromUrl(url, { name, anim, onProgress, baseUrl: document.baseURI }), options), name ?? fileNameOf(url));
  }

  /**
   * Opens a model of the Sample list: fetched from its URL, or made in the page (the octopus; the generated VRM
   * avatar, built into a file and opened as a picked file would be). Never rejects, as {@link loadUrl}.
   * @returns whether the model was loaded
   */
  async openSample(sample: SampleModel): Promise<boolean> {
    if (sample.url !== null) return this.loadUrl(sample.url);
    if (sample.generated !== undefined) return this.loadFiles([await generatedAvatarFile(sample.generated)]);
    return this.guardLoad(async () => this.showAsset(createOctopusAsset()), 'octopus');
  }

  /**
   * Like {@link loadUrl}, for dropped or picked files (a .gltf together with its .bin and images). With a model
   * shown, the files' clips are added to it instead ({@link addClipsFrom}) when `addClips` is true (Shift held on
   * the drop), when they hold an `.md5anim` or a `.vrma` but no model file, or when the model file read has no mesh (an
   * animation-only glTF).
   */
  async loadFiles(files: readonly File[], addClips = false): Promise<boolean> {
    const main = files.find((f) => modelFormatOf(f.name) !== null) ?? files[0];
    const animOnly = main !== undefined && modelFormatOf(main.name) === null && files.some((f) => extensionOf(f.name) === 'md5anim' || extensionOf(f.name) === 'vrma');
    if (this.view.asset && (addClips || animOnly)) {
      return this.addClipsFrom(() => loadClipsFromFiles(files), main?.name);
    }
    const serial = this.loadSerial + 1; // the serial guardLoad gives this load
    return this.guardLoad(async () => {
      const asset = await loadModelFromFiles(files);
      if (serial !== this.loadSerial) return false; // a later load or drop started meanwhile
      if (asset.meshes.length === 0 && this.view.asset) return this.addLibrary(clipLibraryOf(asset));
      return this.view.load(asset);
    }, main?.name);
  }

  /**
   * Adds the clips of a clips file (an animation-only glTF, any glTF, an `.md5anim`, a `.vrma`) to the shown model,
   * retargeted onto its skeleton by joint name (a `.vrma` onto an avatar by humanoid bone): they join the clip list (renamed `Name (file)` where a name is
   * taken) and the panel shows the joint matching. Never rejects: a failure shows in the banner, and the model
   * and its clips stay as they were.
   * @param source the clips file's URL, or a function reading it
   * @returns whether clips were added
   */
  async addClipsFrom(source: string | (() => Promise<ClipLibrary>), name?: string): Promise<boolean> {
    const read = typeof source === 'string' ? () => loadClipsFromUrl(source, { baseUrl: document.baseURI }) : source;
    const serial = this.loadSerial + 1;
    return this.guardLoad(async () => {
      const library = await read();
      return serial === this.loadSerial && this.addLibrary(library);
    }, name ?? (typeof source === 'string' ? fileNameOf(source) : undefined));
  }

  /** Adds `library`'s clips to the shown model, saying how many in the banner (with its warnings). */
  private addLibrary(library: ClipLibrary): boolean {
    const added = this.view.addClips(library);
    const { matched, unmatched } = added.match;
    const text = `${added.file}: ${added.names.length} clip${added.names.length === 1 ? '' : 's'} added (${matched.length} joints matched, ${unmatched.length} unmatched)`;
    this.banner.show([text, ...added.warnings].join('\n'), added.warnings.length > 0 ? 'warning' : 'info');
    return true;
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

  /** Selects skeleton joint `joint` (−1: none) for the weight view and the skeleton overlay; redraws. */
  selectJoint(joint: number): void {
    this.inspection.selectedJoint = joint;
    if (this.layerMaskOn) this.view.layers.setMask(joint);
    this.panel.setJoint(joint);
    this.view.requestRedraw();
  }

  /** Draws the current frame at `scale` × the canvas size and saves it as a PNG (a download). */
  saveScreenshot(scale = 1): string | null {
    const url = this.view.screenshot(scale);
    if (!url) {
      this.showError('Nothing to save: no frame can be drawn.');
      return null;
    }
    const link = document.createElement('a');
    link.href = url;
    link.download = `${(this.view.asset?.name ?? 'sinew').replace(/\.[^.]+$/, '')}.png`;
    link.click();
    return url;
  }

  /** Enters or leaves fullscreen (the whole viewer, panel included). */
  toggleFullscreen(): void {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void this.canvas.parentElement?.requestFullscreen?.().catch(() => {});
  }

  /** A debug view setting changed: the panel shows it, the next frame draws it. */
  viewChanged(): void {
    this.panel.refreshView();
    if (!this.inspection.settings.compare) this.panel.setParity(null);
    this.view.requestRedraw();
  }

  /** Runs a view change that may reject (a forced palette path that does not fit), showing its error. */
  private async guard(change: Promise<void>): Promise<void> {
    try {
      await change;
    } catch (e) {
      this.showError(messageOf(e));
    }
    const { method } = this.view.state();
    this.panel.setMethod(method.skinning, method.weights, this.view.paletteRequest);
  }

  /** The canvas width under the panel, so framing leaves the model clear of it. */
  updateCoveredArea(): void {
    const panel = this.panel.element;
    if (panel.hidden || this.panel.gui._closed) {
      this.view.coveredRight = 0;
      return;
    }
    const rect = panel.getBoundingClientRect();
    const canvasRect = this.canvas.getBoundingClientRect();
    this.view.coveredRight = Math.max(0, canvasRect.right - rect.left);
  }

  /**
   * Frame statistics from `frames` frames over `elapsedMs` whose timings add up to `sums`, and the model's draw
   * calls, joints, vertices, palette bytes (frame-stats.ts).
   */
  frameStats(frames: number, elapsedMs: number, sums: FrameTimings): PanelStats {
    return frameStats(this.view, this.inspection.settings.wireframe, frames, elapsedMs, sums);
  }

  /** What the viewer shows now. */
  state(): ViewerState {
    return { ...this.view.state(), error: this.banner.kind === 'error' ? this.banner.message : null };
  }


}

