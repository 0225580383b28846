import type { LoopMode } from '../animation/loop-mode.ts';
import type { PalettePath } from '../gl/renderer.ts';
import type { PlaybackSettings } from './playback.ts';
import { ProgressBar } from './progress-bar.ts';
import { TimeSlider } from './time-slider.ts';

/** What the control panel asks the viewer to do. */
export interface ControlsPanelHandlers {
  /** A clip was chosen: its index, or −1 for the rest pose. */
  onClipChange(clipIndex: number): void;
  /** The play / pause button was pressed. */
  onPlayToggle(): void;
  /** The time slider moved, seconds. */
  onScrub(seconds: number): void;
  /** The speed slider moved: playback rate (1 real time, negative backwards). */
  onSpeedChange(speed: number): void;
  /** Another loop mode was chosen. */
  onLoopChange(mode: LoopMode): void;
  /** The crossfade duration was edited: seconds ≥ 0 (only valid values are reported). */
  onFadeChange(seconds: number): void;
  /** Files were picked with the Open button. */
  onFiles(files: File[]): void;
  /** The Frame button was pressed: re-aim the camera at the model. */
  onFrame(): void;
}

/** What the panel shows about the loaded model. */
export interface PanelModelInfo {
  readonly name: string;
  readonly clipNames: readonly string[];
  readonly clipIndex: number;
  readonly palette: PalettePath;
  /** A one-line summary, e.g. "24 joints · 1728 vertices · 3 clips" (model-summary.ts). */
  readonly summary: string;
  /** The loader's warnings (`ModelAsset.warnings`, one per deviation and file); listed under the summary. */
  readonly warnings?: readonly string[];
}

/** Bounds of the speed slider (playback rate); other rates come from the URL or code. */
const SPEED_MIN = -2;
const SPEED_MAX = 2;

/**
 * The viewer's control panel (top-left): model name and summary, clip `<select>` (with a "rest pose"
 * entry; choosing a clip while playing crossfades to it), the crossfade duration in seconds, the loop mode,
 * a speed slider (−2…2, negative plays backwards) with its readout, play / pause, time slider with a
 * readout in seconds, the palette path in use, and Open / Frame buttons. While a model loads, the name
 * reads "loading NAME…" and a download bar sits under it. Elements carry ids for tests: `#sinew-model`,
 * `#sinew-progress`, `#sinew-clip`, `#sinew-fade`, `#sinew-loop`, `#sinew-speed`, `#sinew-speed-readout`,
 * `#sinew-play`, `#sinew-time`, `#sinew-time-readout`, `#sinew-palette`, `#sinew-file`, `#sinew-frame`,
 * `#sinew-warnings` (a collapsed "N warnings" list of the loader's warnings, hidden when there are none).
 */
export class ControlsPanel {
  /** The panel element (`#sinew-panel`). */
  readonly element: HTMLElement;
  private readonly modelName: HTMLElement;
  private readonly progress = new ProgressBar('Downloading the model');
  /** Name of the model shown ('' before the first), restored when a load settles. */
  private shownName = '';
  private readonly summary: HTMLElement;
  private readonly warnings: HTMLDetailsElement;
  private readonly warningsTitle: HTMLElement;
  private readonly warningsList: HTMLElement;
  private readonly clipSelect: HTMLSelectElement;
  private readonly playButton: HTMLButtonElement;
  private readonly time: TimeSlider;
  private readonly palette: HTMLElement;
  private readonly fadeInput: HTMLInputElement;
  private readonly loopSelect: HTMLSelectElement;
  private readonly speedSlider: HTMLInputElement;
  private readonly speedReadout: HTMLOutputElement;

  constructor(parent: HTMLElement, handlers: ControlsPanelHandlers) {
    const el = (tag: string, props: Record<string, string> = {}): HTMLElement => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(props)) e.setAttribute(k, v);
      return e;
    };
    this.element = el('section', { id: 'sinew-panel', 'aria-label': 'Viewer controls' });

    const header = el('div', { class: 'sinew-row sinew-header' });
    this.modelName = el('strong', { id: 'sinew-model', class: 'sinew-model' });
    this.summary = el('div', { id: 'sinew-summary', class: 'sinew-summary' });
    header.append(this.modelName);
    this.warnings = el('details', { id: 'sinew-warnings', class: 'sinew-warnings' }) as HTMLDetailsElement;
    this.warningsTitle = el('summary');
    this.warningsList = el('ul');
    this.warnings.append(this.warningsTitle, this.warningsList);
    this.warnings.hidden = true;

    const clipRow = el('label', { class: 'sinew-row' });
    clipRow.append('Clip ');
    this.clipSelect = el('select', { id: 'sinew-clip' }) as HTMLSelectElement;
    this.clipSelect.addEventListener('change', () => handlers.onClipChange(Number(this.clipSelect.value)));
    clipRow.append(this.clipSelect);

    const blendRow = el('div', { class: 'sinew-row' });
    const fadeLabel = el('label', { class: 'sinew-label', title: 'Crossfade duration when another clip is chosen while playing (0: cut)' });
    fadeLabel.append('Fade ');
    this.fadeInput = el('input', { id: 'sinew-fade', type: 'number', min: '0', step: '0.1', 'aria-label': 'Crossfade duration (seconds)' }) as HTMLInputElement;
    this.fadeInput.addEventListener('input', () => {
      const v = this.fadeInput.valueAsNumber;
      if (Number.isFinite(v) && v >= 0) handlers.onFadeChange(v);
    });
    fadeLabel.append(this.fadeInput, ' s');
    const loopLabel = el('label', { class: 'sinew-label' });
    loopLabel.append('Loop ');
    this.loopSelect = el('select', { id: 'sinew-loop', 'aria-label': 'Loop mode' }) as HTMLSelectElement;
    for (const [value, text] of [['loop', 'loop'], ['once', 'once'], ['pingpong', 'ping-pong']] as const) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      this.loopSelect.append(option);
    }
    this.loopSelect.addEventListener('change', () => handlers.onLoopChange(this.loopSelect.value as LoopMode));
    loopLabel.append(this.loopSelect);
    blendRow.append(fadeLabel, loopLabel);

    const speedRow = el('label', { class: 'sinew-row' });
    speedRow.append('Speed ');
    this.speedSlider = el('input', {
      id: 'sinew-speed', type: 'range', min: String(SPEED_MIN), max: String(SPEED_MAX), step: '0.05',
      'aria-label': 'Playback speed (negative plays backwards)',
    }) as HTMLInputElement;
    this.speedReadout = el('output', { id: 'sinew-speed-readout', class: 'sinew-rate' }) as HTMLOutputElement;
    this.speedSlider.addEventListener('input', () => {
      const v = Number(this.speedSlider.value);
      if (Number.isFinite(v)) handlers.onSpeedChange(v);
    });
    // Double-click resets to real time.
    this.speedSlider.addEventListener('dblclick', () => handlers.onSpeedChange(1));
    speedRow.append(this.speedSlider, this.speedReadout);

    const timeRow = el('div', { class: 'sinew-row' });
    this.playButton = el('button', { id: 'sinew-play', type: 'button' }) as HTMLButtonElement;
    this.playButton.addEventListener('click', () => handlers.onPlayToggle());
    this.time = new TimeSlider((s) => handlers.onScrub(s));
    this.time.slider.id = 'sinew-time';
    this.time.readout.id = 'sinew-time-readout';
    this.time.readout.className = 'sinew-time';
    timeRow.append(this.playButton, this.time.slider, this.time.readout);

    const footer = el('div', { class: 'sinew-row sinew-footer' });
    const paletteLabel = el('span', { class: 'sinew-muted' });
    paletteLabel.textContent = 'palette ';
    this.palette = el('span', { id: 'sinew-palette' });
    paletteLabel.append(this.palette);
    const open = el('button', { type: 'button', id: 'sinew-open', title: 'Open a .glb; a .gltf with its .bin and images; or an .md5mesh with its .md5anim and images (or drop files on the page)' }) as HTMLButtonElement;
    open.textContent = 'Open…';
    const fileInput = el('input', { id: 'sinew-file', type: 'file', multiple: '', hidden: '' }) as HTMLInputElement;
    open.addEventListener('click', () => fileInput.click());
    fileInput.addEventListener('change', () => {
      const files = fileInput.files ? [...fileInput.files] : [];
      fileInput.value = '';
      if (files.length) handlers.onFiles(files);
    });
    const frame = el('button', { type: 'button', id: 'sinew-frame', title: 'Frame the model (F)' }) as HTMLButtonElement;
    frame.textContent = 'Frame';
    frame.addEventListener('click', () => handlers.onFrame());
    footer.append(paletteLabel, frame, open, fileInput);

    this.progress.element.id = 'sinew-progress';
    this.element.append(header, this.progress.element, this.summary, this.warnings, clipRow, blendRow, speedRow, timeRow, footer);
    parent.append(this.element);
    this.setPlaying(false);
    this.setSettings({ speed: 1, loop: 'loop', fade: 0.3 });
  }

  /** Shows the playback settings: speed (rate), loop mode, crossfade duration (seconds). */
  setSettings(settings: PlaybackSettings): void {
    this.speedSlider.value = String(settings.speed);
    this.speedReadout.textContent = `${settings.speed.toFixed(2)}×`;
    this.loopSelect.value = settings.loop;
    // Leave the field alone while it is being edited to the same value ("0." must not become "0").
    if (this.fadeInput.valueAsNumber !== settings.fade) this.fadeInput.value = String(settings.fade);
  }

  /**
   * Says "loading NAME…" in place of the model's name while `name` is a string (the model shown keeps playing);
   * null ends it: the name of the model shown comes back and the download bar goes.
   */
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

  /** Shows a newly loaded model. */
  setModel(info: PanelModelInfo): void {
    this.shownName = info.name;
    this.modelName.textContent = info.name;
    this.modelName.title = info.name;
    this.summary.textContent = info.summary;
    const warnings = info.warnings ?? [];
    this.warnings.hidden = warnings.length === 0;
    this.warnings.open = false;
    this.warningsTitle.textContent = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
    this.warningsList.replaceChildren(...warnings.map((warning) => {
      const item = document.createElement('li');
      item.textContent = warning;
      return item;
    }));
    this.palette.textContent = info.palette;
    this.clipSelect.replaceChildren();
    const rest = document.createElement('option');
    rest.value = '-1';
    rest.textContent = '(rest pose)';
    this.clipSelect.append(rest);
    info.clipNames.forEach((name, i) => {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = name || `clip ${i}`;
      this.clipSelect.append(option);
    });
    this.setClip(info.clipIndex);
  }

  /** Shows the selected clip (−1: rest pose). */
  setClip(clipIndex: number): void {
    this.clipSelect.value = String(clipIndex);
  }

  /** Shows the palette path in use. */
  setPalette(palette: PalettePath): void {
    this.palette.textContent = palette;
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
}
