import { TimeSlider } from '../view/time-slider.ts';

/** What the `<sinew-viewer>` control bar asks the element to do. */
export interface ElementControlsHandlers {
  /** The play / pause button was pressed. */
  onPlayToggle(): void;
  /** The time slider moved, seconds. */
  onScrub(seconds: number): void;
  /** A clip was chosen: its index, or −1 for the rest pose. */
  onClipChange(clipIndex: number): void;
}

/**
 * The `<sinew-viewer>` mini control bar along the bottom of the element: play / pause, time slider with a
 * readout in seconds, and a clip menu (hidden when the model has fewer than two clips); while a model loads,
 * a status ("loading Fox.glb…") takes the readout's place. Its parts carry `part` names for styling from the
 * page: `controls`, `play`, `time`, `time-readout`, `status`, `clip`.
 */
export class ElementControls {
  /** The bar (`part="controls"`). */
  readonly element: HTMLDivElement;
  private readonly playButton: HTMLButtonElement;
  private readonly time: TimeSlider;
  private readonly clipSelect: HTMLSelectElement;
  private readonly status: HTMLSpanElement;

  constructor(handlers: ElementControlsHandlers) {
    this.element = document.createElement('div');
    this.element.setAttribute('part', 'controls');
    this.element.className = 'controls';
    this.playButton = document.createElement('button');
    this.playButton.type = 'button';
    this.playButton.setAttribute('part', 'play');
    this.playButton.addEventListener('click', () => handlers.onPlayToggle());
    this.time = new TimeSlider((s) => handlers.onScrub(s));
    this.time.slider.setAttribute('part', 'time');
    this.time.readout.setAttribute('part', 'time-readout');
    this.clipSelect = document.createElement('select');
    this.clipSelect.setAttribute('part', 'clip');
    this.clipSelect.setAttribute('aria-label', 'Clip');
    this.clipSelect.addEventListener('change', () => handlers.onClipChange(Number(this.clipSelect.value)));
    this.status = document.createElement('span');
    this.status.setAttribute('part', 'status');
    this.status.className = 'status';
    this.status.setAttribute('role', 'status');
    this.status.hidden = true;
    this.element.append(this.playButton, this.time.slider, this.time.readout, this.status, this.clipSelect);
    this.setPlaying(false);
  }

  /** Says "loading NAME…" in place of the time readout while `name` is a string; null restores the readout. */
  setLoading(name: string | null): void {
    this.status.textContent = name === null ? '' : `loading ${name}…`;
    this.status.hidden = name === null;
    this.time.readout.hidden = name !== null;
  }

  /** Shows a newly loaded model's clips and the selected one (−1: rest pose). */
  setModel(clipNames: readonly string[], clipIndex: number): void {
    this.clipSelect.replaceChildren();
    const rest = document.createElement('option');
    rest.value = '-1';
    rest.textContent = '(rest pose)';
    this.clipSelect.append(rest);
    clipNames.forEach((name, i) => {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = name || `clip ${i}`;
      this.clipSelect.append(option);
    });
    this.clipSelect.hidden = clipNames.length < 2;
    this.setClip(clipIndex);
  }

  /** Shows the selected clip (−1: rest pose). */
  setClip(clipIndex: number): void {
    this.clipSelect.value = String(clipIndex);
  }

  /** Shows whether the clip is playing (the button then offers Pause). */
  setPlaying(playing: boolean): void {
    this.playButton.textContent = playing ? '❚❚' : '▶';
    this.playButton.title = playing ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  }

  /** Shows the clip time, seconds (throttled while playing; see {@link TimeSlider.setTime}). */
  setTime(seconds: number, duration: number, nowMs: number, force = false): void {
    this.time.setTime(seconds, duration, nowMs, force);
  }
}
