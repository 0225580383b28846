import GUI, { type Controller } from 'lil-gui';
import type { LoopMode } from '../animation/loop-mode.ts';
import type { AnimationClip } from '../asset/animation-clip.ts';
import type { PalettePath, PaletteRequest } from '../gpu/passes/renderer.ts';
import type { SurfaceView } from '../gpu/debug/draw-style.ts';
import type { SkinningMode, WeightPolicy } from '../skinning/skinning-method.ts';
import { WEIGHT_POLICIES } from '../skinning/skinning-method.ts';
import type { PlaybackSettings } from '../view/playback.ts';
import type { AddedClips } from '../view/added-clips.ts';
import { ProgressBar } from '../view/progress-bar.ts';
import { TimeSlider } from '../view/time-slider.ts';
import { sampleShowing, type SampleModel } from './sample-models.ts';
import type { ParityReading } from './inspection.ts';
import { formatPanelStats, type PanelStats } from './panel-stats.ts';
import { PALETTE_PATH_WORDS, weightPolicyWords } from './panel-words.ts';
import type { PanelModelInfo, ViewerPanelOptions } from './viewer-panel-handlers.ts';

export { POSE_KERNEL_WORDS, PALETTE_PATH_WORDS } from './panel-words.ts';
export type { PanelStats } from './panel-stats.ts';
export type { PanelModelInfo, ViewerPanelHandlers, ViewerPanelOptions } from './viewer-panel-handlers.ts';

const SPEED_MIN = -2;
const SPEED_MAX = 2;
/** At most this many key markers under the time slider (keys closer than a marker's width merge anyway). */
const MAX_KEY_MARKERS = 200;

/**
 * The viewer's panel, built on lil-gui (top right): a header (model name, "loading NAME…" with a download
 * bar, summary, the loader's warnings once) and the folders Model (open a file, sample models, a URL, frame),
 * Animation (clip, play / pause, time slider with key markers, speed, loop mode, crossfade, layered clips
 * with weights), Skinning (LBS / DQS, weight policy, palette path in plain words), View (weight heat map and
 * influence count, wireframe, skeleton and joint selection, bind pose, bounds, normals, CPU vertices,
 * GPU-vs-CPU readout, screenshot, fullscreen, help) and Stats. Elements carry ids for tests and tools:
 * `#sinew-panel`, `#sinew-model`, `#sinew-progress`, `#sinew-summary`, `#sinew-warnings`, `#sinew-retarget`, `#sinew-clip`,
 * `#sinew-play`, `#sinew-time`, `#sinew-time-readout`, `#sinew-key-markers`, `#sinew-speed`, `#sinew-loop`,
 * `#sinew-fade`, `#sinew-file`, `#sinew-url`, `#sinew-sample`, `#sinew-skinning`, `#sinew-weights`,
 * `#sinew-palette-mode`, `#sinew-palette`, `#sinew-surface`, `#sinew-joint`, `#sinew-parity`, `#sinew-stats`,
 * and `data-control="NAME"` on each lil-gui controller.
 */
export class ViewerPanel {
  /** The panel element (`#sinew-panel`). */
  readonly element: HTMLElement;
  readonly gui: GUI;
  private readonly modelName: HTMLElement;
  private readonly progress = new ProgressBar('Downloading the model');
  private shownName = '';
  private readonly summary: HTMLElement;
  private readonly warnings: HTMLDetailsElement;
  private readonly warningsTitle: HTMLElement;
  private readonly warningsList: HTMLElement;
  /** The last clips file's joint matching (`setRetargeting`). */
  private readonly retarget: HTMLDetailsElement;
  private readonly retargetTitle: HTMLElement;
  private readonly retargetList: HTMLElement;
  private readonly playButton: HTMLButtonElement;
  private readonly time: TimeSlider;
  private readonly markers: HTMLElement;
  private readonly palettePathLabel: HTMLElement;
  private readonly parity: HTMLElement;
  private readonly stats: HTMLElement;
  private readonly layersFolder: GUI;
  private layerControllers: Controller[] = [];
  private readonly layerMaskController: Controller;
  private readonly values = {
    clip: '(rest pose)', speed: 1, loop: 'loop' as LoopMode, fade: 0.3, url: '', sample: '',
    skinning: 'lbs' as SkinningMode, weights: 'normalize' as WeightPolicy, palette: 'auto' as PaletteRequest,
    joint: '(none)', bindPose: false, screenshotScale: 1, layerMask: false,
  };
  private clipNames: string[] = [];
  private jointIndexByLabel = new Map<string, number>();
  private readonly clipController: Controller;
  private readonly sampleController: Controller;
  private samples: readonly SampleModel[];
  private sampleLabels: readonly string[];
  private jointController: Controller;
  private readonly settingsControllers: Controller[];
  private readonly methodControllers: Controller[];
  private readonly viewControllers: Controller[];

  /** Builds the panel inside `parent` ({@link ViewerPanelOptions}). */
  constructor(parent: HTMLElement, options: ViewerPanelOptions) {
    const { handlers, view, samples, sampleSource = '', links = null } = options;
    this.gui = new GUI({ container: parent, title: 'Sinew', width: 300 });
    this.element = this.gui.domElement;
    this.element.id = 'sinew-panel';
    this.element.setAttribute('aria-label', 'Viewer controls');
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}): HTMLElementTagNameMap[K] => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(props)) e.setAttribute(k, v);
      return e;
    };
    const tag = (controller: Controller, name: string, id?: string): Controller => {
      controller.domElement.dataset.control = name;
      const input = controller.domElement.querySelector('input, select, button');
      if (id && input) input.id = id;
      return controller;
    };
    /** A full-width row inside a folder, styled as lil-gui's controllers. */
    const row = (folder: GUI, ...children: (Node | string)[]): HTMLElement => {
      const r = el('div', { class: 'lil-controller sinew-row' });
      r.append(...children);
      folder.$children.append(r);
      return r;
    };

    // Header
    const header = el('div', { class: 'sinew-header' });
    this.modelName = el('strong', { id: 'sinew-model', class: 'sinew-model' });
    this.summary = el('div', { id: 'sinew-summary', class: 'sinew-summary' });
    this.warnings = el('details', { id: 'sinew-warnings', class: 'sinew-warnings' });
    this.warningsTitle = el('summary');
    this.warningsList = el('ul');
    this.warnings.append(this.warningsTitle, this.warningsList);
    this.warnings.hidden = true;
    this.progress.element.id = 'sinew-progress';
    this.retarget = el('details', { id: 'sinew-retarget', class: 'sinew-warnings' });
    this.retargetTitle = el('summary');
    this.retargetList = el('ul');
    this.retarget.append(this.retargetTitle, this.retargetList);
    this.retarget.hidden = true;
    header.append(this.modelName, this.progress.element, this.summary, this.warnings, this.retarget);
    if (links) {
      const nav = el('nav', { id: 'sinew-links', class: 'sinew-links', 'aria-label': 'Sinew documentation' });
      const docs = el('a', { href: links.docs });
      docs.textContent = 'Docs';
      const examples = el('a', { href: links.examples });
      examples.textContent = 'Examples';
      nav.append(docs, ' · ', examples);
      header.append(nav);
    }
    this.gui.$children.append(header);

    // Model
    const model = this.gui.addFolder('Model');
    const fileInput = el('input', { id: 'sinew-file', type: 'file', multiple: '', hidden: '' });
    fileInput.addEventListener('change', () => {
      const files = fileInput.files ? [...fileInput.files] : [];
      fileInput.value = '';
      if (files.length) handlers.onFiles(files);
    });
    const actions = {
      open: () => fileInput.click(),
      frame: () => handlers.onFrame(),
      openUrl: () => { if (this.values.url.trim()) handlers.onOpenUrl(this.values.url.trim()); },
      play: () => handlers.onPlayToggle(),
      screenshot: () => handlers.onScreenshot(this.values.screenshotScale),
      fullscreen: () => handlers.onFullscreen(),
      help: () => handlers.onHelp(),
    };
    const open = tag(model.add(actions, 'open').name('Open file…'), 'open', 'sinew-open');
    open.domElement.title = '.glb or .vrm, or .gltf with its files, or .md5mesh with its .md5anim and images';
    model.domElement.append(fileInput);
    this.samples = samples;
    this.sampleLabels = samples.map((s) => s.label);
    this.values.sample = this.sampleLabels[0] ?? '';
    this.sampleController = tag(model.add(this.values, 'sample', this.sampleLabels).name('Sample').onChange((label: string) => {
      const sample = this.samples.find((s) => s.label === label);
      if (sample) handlers.onOpenSample(sample);
    }), 'sample', 'sinew-sample');
    if (sampleSource) {
      const note = el('div', { id: 'sinew-sample-source', class: 'sinew-note' });
      note.textContent = sampleSource;
      this.sampleController.domElement.title = sampleSource;
      row(model, note);
    }
    const url = tag(model.add(this.values, 'url').name('URL'), 'url', 'sinew-url');
    (url.domElement.querySelector('input') as HTMLInputElement).addEventListener('keydown', (e) => {
      if (e.key === 'Enter') actions.openUrl();
    });
    tag(model.add(actions, 'openUrl').name('Open URL'), 'open-url');
    tag(model.add(actions, 'frame').name('Frame the model (F)'), 'frame', 'sinew-frame');

    // Animation
    const animation = this.gui.addFolder('Animation');
    this.clipController = tag(animation.add(this.values, 'clip', ['(rest pose)']).name('Clip').onChange((label: string) => {
      handlers.onClipChange(this.clipNames.indexOf(label) - 1);
    }), 'clip', 'sinew-clip');
    this.playButton = el('button', { id: 'sinew-play', type: 'button', class: 'sinew-play' });
    this.playButton.addEventListener('click', () => handlers.onPlayToggle());
    this.time = new TimeSlider((s) => handlers.onScrub(s));
    this.time.slider.id = 'sinew-time';
    this.time.readout.id = 'sinew-time-readout';
    this.time.readout.className = 'sinew-time';
    this.markers = el('div', { id: 'sinew-key-markers', class: 'sinew-key-markers', 'aria-hidden': 'true' });
    const track = el('div', { class: 'sinew-track' });
    track.append(this.markers, this.time.slider);
    row(animation, this.playButton, track, this.time.readout);
    const speed = tag(animation.add(this.values, 'speed', SPEED_MIN, SPEED_MAX, 0.05).name('Speed (× real time)').onChange((v: number) => {
      if (Number.isFinite(v)) handlers.onSpeedChange(v);
    }), 'speed', 'sinew-speed');
    const loop = tag(animation.add(this.values, 'loop', { loop: 'loop', once: 'once', 'ping-pong': 'pingpong' }).name('At the end').onChange((m: LoopMode) => handlers.onLoopChange(m)), 'loop', 'sinew-loop');
    const fade = tag(animation.add(this.values, 'fade', 0, 5, 0.05).name('Crossfade (s)').onChange((v: number) => {
      if (Number.isFinite(v) && v >= 0) handlers.onFadeChange(v);
    }), 'fade', 'sinew-fade');
    this.settingsControllers = [speed, loop, fade];
    this.layersFolder = animation.addFolder('Layers (clips blended over the one above)');
    this.layersFolder.close();
    this.layerHandler = handlers.onLayerWeight;
    this.layerMaskController = tag(this.layersFolder.add(this.values, 'layerMask').name('Only the selected joint and below').onChange((on: boolean) => handlers.onLayerMask(on)), 'layer-mask', 'sinew-layer-mask');

    // Skinning
    const skinning = this.gui.addFolder('Skinning');
    const method = tag(skinning.add(this.values, 'skinning', { 'linear blend (LBS)': 'lbs', 'dual quaternion (DQS)': 'dqs' }).name('Blending').onChange((m: SkinningMode) => handlers.onSkinningChange(m)), 'skinning', 'sinew-skinning');
    const weights = tag(skinning.add(this.values, 'weights', Object.fromEntries(WEIGHT_POLICIES.map((p) => [weightPolicyWords(p), p]))).name('Weights').onChange((p: WeightPolicy) => handlers.onWeightsChange(p)), 'weights', 'sinew-weights');
    const palette = tag(skinning.add(this.values, 'palette', {
      'automatic': 'auto', 'shader constants (uniform)': 'uniform', 'uniform buffer (ubo)': 'ubo', 'float texture': 'texture',
    }).name('Send joints as').onChange((p: PaletteRequest) => handlers.onPaletteRequestChange(p)), 'palette', 'sinew-palette-mode');
    this.methodControllers = [method, weights, palette];
    skinning.close();
    const inUse = el('span', { class: 'sinew-muted' });
    inUse.textContent = 'in use: ';
    this.palettePathLabel = el('span', { id: 'sinew-palette', class: 'sinew-palette' });
    row(skinning, inUse, this.palettePathLabel);

    // View
    const viewFolder = this.gui.addFolder('View');
    const changed = () => handlers.onViewChange();
    const surface = tag(viewFolder.add(view, 'surface', {
      lit: 'shaded', 'weights of the selected joint': 'weights', 'influences per vertex': 'influences', 'none (wireframe only)': 'none',
    } satisfies Record<string, SurfaceView>).name('Surface').onChange(changed), 'surface', 'sinew-surface');
    const toggles = ([
      ['skeleton', 'Skeleton (click a joint)'], ['wireframe', 'Wireframe'], ['bounds', 'Bounding box'], ['normals', 'Normals'],
      ['cpuVertices', 'Draw CPU vertices (not the shader’s)'], ['compare', 'Compare GPU with CPU'],
    ] as const).map(([key, label]) => tag(viewFolder.add(view, key).name(label).onChange(changed), key, `sinew-view-${key}`));
    this.jointController = tag(viewFolder.add(this.values, 'joint', ['(none)']).name('Selected joint'), 'joint', 'sinew-joint');
    this.jointController.onChange((label: string) => handlers.onJointSelect(this.jointIndexByLabel.get(label) ?? -1));
    tag(viewFolder.add(this.values, 'bindPose').name('Bind pose (mesh as skinned)').onChange((on: boolean) => handlers.onBindPose(on)), 'bind-pose', 'sinew-bind-pose');
    this.viewControllers = [surface, ...toggles];
    const parityLabel = el('span', { class: 'sinew-muted' });
    parityLabel.textContent = 'max |GPU − CPU|: ';
    this.parity = el('span', { id: 'sinew-parity', class: 'sinew-parity' });
    this.parity.textContent = 'off';
    row(viewFolder, parityLabel, this.parity);
    tag(viewFolder.add(this.values, 'screenshotScale', { '1× canvas': 1, '2×': 2, '4×': 4 }).name('Screenshot size'), 'screenshot-scale', 'sinew-screenshot-scale');
    tag(viewFolder.add(actions, 'screenshot').name('Save screenshot (P)'), 'screenshot', 'sinew-screenshot');
    tag(viewFolder.add(actions, 'fullscreen').name('Fullscreen (Enter)'), 'fullscreen', 'sinew-fullscreen');
    tag(viewFolder.add(actions, 'help').name('Keyboard shortcuts (?)'), 'help', 'sinew-help-button');

    // Stats
    const statsFolder = this.gui.addFolder('Stats');
    this.stats = el('pre', { id: 'sinew-stats', class: 'sinew-stats' });
    statsFolder.$children.append(this.stats);

    this.setPlaying(false);
    this.setSettings({ speed: 1, loop: 'loop', fade: 0.3 });
  }

  private readonly layerHandler: (clipIndex: number, weight: number) => void;

  /** Shows the playback settings: speed (rate), loop mode, crossfade duration (seconds). */
  setSettings(settings: PlaybackSettings): void {
    this.values.speed = settings.speed;
    this.values.loop = settings.loop;
    this.values.fade = settings.fade;
    for (const c of this.settingsControllers) c.updateDisplay();
  }

  /** Shows the skinning method and palette request in use. */
  setMethod(skinning: SkinningMode, weights: WeightPolicy, paletteRequest: PaletteRequest): void {
    this.values.skinning = skinning;
    this.values.weights = weights;
    this.values.palette = paletteRequest;
    for (const c of this.methodControllers) c.updateDisplay();
  }

  /** Re-reads the view settings (after a keyboard shortcut changed them). */
  refreshView(): void {
    for (const c of this.viewControllers) c.updateDisplay();
  }

  /** "loading NAME…" while `name` is a string; null ends it (the download bar goes). */
  setLoading(name: string | null): void {
    const text = name === null ? this.shownName : `loading ${name}…`;
    this.modelName.textContent = text;
    this.modelName.title = text;
    if (name === null) this.progress.hide();
  }

  /** Shows the download bar: `loaded` of `total` bytes (null: unknown, an indeterminate bar). */
  setProgress(loaded: number, total: number | null): void {
    this.progress.show(loaded, total);
  }

  /**
   * Replaces the Sample list's entries (the models found there, `availableSamples`), keeping the one shown
   * selected when it is still listed; marks `#sinew-sample` with `data-probed` for scripts that wait for it.
   */
  setSamples(samples: readonly SampleModel[]): void {
    const selected = this.values.sample;
    this.samples = samples;
    this.sampleLabels = samples.map((s) => s.label);
    this.sampleController.options(this.sampleLabels);
    this.values.sample = this.sampleLabels.includes(selected) ? selected : '';
    this.sampleController.updateDisplay();
    this.sampleController.domElement.querySelector('select')?.setAttribute('data-probed', '');
  }

  /** Shows a newly loaded model. */
  setModel(info: PanelModelInfo): void {
    this.shownName = info.name;
    this.modelName.textContent = info.name;
    this.modelName.title = info.name;
    this.summary.textContent = info.summary;
    // The Sample list names the model on screen, or nothing for a model that is not one of its entries (a file,
    // a URL), so it never claims the previous sample is still shown.
    this.values.sample = sampleShowing(this.samples, info.name)?.label ?? '';
    this.sampleController.updateDisplay();
    const warnings = info.warnings ?? [];
    this.warnings.hidden = warnings.length === 0;
    this.warnings.open = false;
    this.warningsTitle.textContent = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
    this.warningsList.replaceChildren(...warnings.map((warning) => {
      const item = document.createElement('li');
      item.textContent = warning;
      return item;
    }));
    this.setPalettePath(info.palettePath);
    this.setClips(info.clips, info.clipIndex);
    this.retarget.hidden = true;
    this.values.layerMask = false;
    this.layerMaskController.updateDisplay();
    const jointLabels = ['(none)'];
    this.jointIndexByLabel = new Map([['(none)', -1]]);
    for (const joint of info.joints) {
      let label = joint.name || `joint ${joint.index}`;
      if (this.jointIndexByLabel.has(label)) label = `${label} #${joint.index}`;
      this.jointIndexByLabel.set(label, joint.index);
      jointLabels.push(label);
    }
    this.values.joint = '(none)';
    this.jointController.options(jointLabels);
  }

  private clips: readonly AnimationClip[] = [];

  /**
   * Shows the model's clip list (the clip menu and the layer sliders, all at weight 0 but those in
   * `layerWeights`, clip index → weight) with clip `clipIndex` selected (−1: rest pose).
   */
  setClips(clips: readonly AnimationClip[], clipIndex: number, layerWeights: Record<number, number> = {}): void {
    // Clip names made unique for the option list (lil-gui keys options by label).
    const seen = new Set<string>(['(rest pose)']);
    this.clipNames = ['(rest pose)', ...clips.map((clip, i) => {
      let label = clip.name || `clip ${i}`;
      while (seen.has(label)) label = `${label} (${i})`;
      seen.add(label);
      return label;
    })];
    this.clipController.options(this.clipNames);
    this.clips = clips;
    this.setClip(clipIndex);
    this.buildLayers(layerWeights);
  }

  /**
   * Shows how the last clips file added matched the model's joints (`#sinew-retarget`): the matched and
   * unmatched counts, the unmatched names in a collapsed list.
   */
  setRetargeting(added: AddedClips): void {
    const { matched, unmatched } = added.match;
    const clips = `${added.names.length} clip${added.names.length === 1 ? '' : 's'}`;
    this.retargetTitle.textContent = `${added.file}: ${clips} · ${matched.length} joints matched · ${unmatched.length} unmatched`;
    this.retargetList.replaceChildren(...unmatched.map((name) => {
      const item = document.createElement('li');
      item.textContent = name || '(unnamed)';
      return item;
    }));
    this.retarget.open = false;
    this.retarget.hidden = false;
  }

  /** Shows the selected clip (−1: rest pose) and its key markers. */
  setClip(clipIndex: number): void {
    this.values.clip = this.clipNames[clipIndex + 1] ?? '(rest pose)';
    this.clipController.updateDisplay();
    this.showKeyMarkers(clipIndex >= 0 ? this.clips[clipIndex] : null);
  }

  /** Shows the selected joint (−1: none). */
  setJoint(joint: number): void {
    for (const [label, index] of this.jointIndexByLabel) {
      if (index === joint) {
        this.values.joint = label;
        this.jointController.updateDisplay();
        return;
      }
    }
  }

  /** Shows the palette path in use, in plain words (the path's name in the title). */
  setPalettePath(palettePath: PalettePath): void {
    this.palettePathLabel.textContent = PALETTE_PATH_WORDS[palettePath];
    this.palettePathLabel.dataset.path = palettePath;
    this.palettePathLabel.title = palettePath;
  }

  /** Shows whether the clip is playing (the button then offers Pause). */
  setPlaying(playing: boolean): void {
    this.playButton.textContent = playing ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-pressed', String(playing));
  }

  /** Shows the clip time, seconds (throttled while playing; see {@link TimeSlider.setTime}). */
  setTime(seconds: number, duration: number, nowMs: number, force = false): void {
    this.time.setTime(seconds, duration, nowMs, force);
  }

  /** Shows the GPU-vs-CPU readout (null: comparison off). */
  setParity(reading: ParityReading | null): void {
    if (!reading) {
      this.parity.textContent = 'off';
      delete this.parity.dataset.relative;
      return;
    }
    this.parity.textContent = `${reading.maxError.toExponential(2)} (${reading.relative.toExponential(1)} × diagonal)`;
    this.parity.dataset.relative = String(reading.relative);
    this.parity.dataset.maxError = String(reading.maxError);
    this.parity.classList.toggle('sinew-bad', !(reading.relative <= 1e-5));
  }

  /** Shows the frame statistics (call at most a few times a second). */
  setStats(s: PanelStats): void {
    this.stats.textContent = formatPanelStats(s);
  }

  private buildLayers(layerWeights: Record<number, number>): void {
    for (const c of this.layerControllers) c.destroy();
    const weights: Record<string, number> = {};
    this.layerControllers = this.clips.map((clip, i) => {
      const label = this.clipNames[i + 1];
      weights[label] = layerWeights[i] ?? 0;
      const c = this.layersFolder.add(weights, label, 0, 1, 0.01).onChange((w: number) => this.layerHandler(i, w));
      c.domElement.dataset.control = `layer-${i}`;
      return c;
    });
  }

  private showKeyMarkers(clip: AnimationClip | null): void {
    const duration = clip?.duration ?? 0;
    if (!clip || !(duration > 0)) {
      this.markers.replaceChildren();
      return;
    }
    const buckets = new Set<number>();
    for (const channel of clip.channels) {
      for (let k = 0; k < channel.times.length; k++) buckets.add(Math.round((channel.times[k] / duration) * MAX_KEY_MARKERS));
    }
    this.markers.replaceChildren(...[...buckets].sort((a, b) => a - b).map((b) => {
      const tick = document.createElement('span');
      tick.style.left = `${(100 * b) / MAX_KEY_MARKERS}%`;
      return tick;
    }));
  }
}
