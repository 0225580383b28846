/**
 * A clip-time slider (`<input type=range>`, seconds) with a readout (`<output>`, "0.50 / 1.25 s"), shared by
 * the viewer's panel and the `<sinew-viewer>` control bar. Updating it every frame touches the DOM at most
 * every 100 ms and only when the shown millisecond changes, so the render loop does not churn the page.
 */
export class TimeSlider {
  /** The range input; its `input` event calls `onScrub`. */
  readonly slider: HTMLInputElement;
  /** The readout. */
  readonly readout: HTMLOutputElement;
  private shownMillis = -1;
  private shownDurationMillis = -1;
  private lastUpdateMs = -Infinity;

  /** @param onScrub called with the slider's seconds when the user moves it */
  constructor(onScrub: (seconds: number) => void) {
    this.slider = document.createElement('input');
    this.slider.type = 'range';
    this.slider.min = '0';
    this.slider.max = '0';
    this.slider.step = '0.001';
    this.slider.value = '0';
    this.slider.setAttribute('aria-label', 'Clip time (seconds)');
    this.slider.addEventListener('input', () => onScrub(Number(this.slider.value)));
    this.readout = document.createElement('output');
  }

  /**
   * Shows the clip time, seconds. While playing it is called every frame: the DOM is touched at most
   * every 100 ms of `nowMs` (and only when the shown millisecond changes) unless `force` is set.
   */
  setTime(seconds: number, duration: number, nowMs: number, force = false): void {
    if (!force && nowMs - this.lastUpdateMs < 100) return;
    this.lastUpdateMs = nowMs;
    const millis = Math.round(seconds * 1000);
    const durationMillis = Math.round(duration * 1000);
    if (millis === this.shownMillis && durationMillis === this.shownDurationMillis) return;
    if (durationMillis !== this.shownDurationMillis) {
      this.slider.max = String(duration);
      this.slider.disabled = !(duration > 0);
    }
    this.shownMillis = millis;
    this.shownDurationMillis = durationMillis;
    this.slider.value = String(seconds);
    this.readout.textContent = `${(millis / 1000).toFixed(2)} / ${(durationMillis / 1000).toFixed(2)} s`;
  }
}
