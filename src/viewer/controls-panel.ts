import type { PalettePath } from '../gl/renderer.ts';
import { TimeSlider } from './time-slider.ts';

/** What the control panel asks the viewer to do. */
export interface ControlsPanelHandlers {
  /** A clip was chosen: its index, or −1 for the rest pose. */
  onClipChange(clipIndex: number): void;
  /** The play / pause button was pressed. */
  onPlayToggle(): void;
  /** The time slider moved, seconds. */
  onScrub(seconds: number): void;
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
  /** A one-line summary, e.g. "24 joints · 1728 vertices". */
  readonly summary: string;
}

/**
 * The viewer's control panel (top-left): model name and summary, clip `<select>` (with a "rest pose"
 * entry), play / pause, time slider with a readout in seconds, the palette path in use, and Open / Frame
 * buttons. Elements carry ids for tests: `#sinew-model`, `#sinew-clip`, `#sinew-play`, `#sinew-time`,
 * `#sinew-time-readout`, `#sinew-palette`, `#sinew-file`, `#sinew-frame`.
 */
export class ControlsPanel {
  /** The panel element (`#sinew-panel`). */
  readonly element: HTMLElement;
  private readonly modelName: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly clipSelect: HTMLSelectElement;
  private readonly playButton: HTMLButtonElement;
  private readonly time: TimeSlider;
  private readonly palette: HTMLElement;

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

    const clipRow = el('label', { class: 'sinew-row' });
    clipRow.append('Clip ');
    this.clipSelect = el('select', { id: 'sinew-clip' }) as HTMLSelectElement;
    this.clipSelect.addEventListener('change', () => handlers.onClipChange(Number(this.clipSelect.value)));
    clipRow.append(this.clipSelect);

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

    this.element.append(header, this.summary, clipRow, timeRow, footer);
    parent.append(this.element);
    this.setPlaying(false);
  }

  /** Shows a newly loaded model. */
  setModel(info: PanelModelInfo): void {
    this.modelName.textContent = info.name;
    this.modelName.title = info.name;
    this.summary.textContent = info.summary;
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
