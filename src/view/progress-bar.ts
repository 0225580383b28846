/**
 * A thin download progress bar (`role="progressbar"`), shared by the viewer's panel and `<sinew-viewer>`:
 * determinate when the total is known (`aria-valuenow` / `aria-valuemax` in bytes, the fill's width the
 * fraction), indeterminate otherwise (`data-indeterminate`, no `aria-valuenow`; the styles sweep the fill).
 * Hidden until {@link show}. Its styles live with its users: class `sinew-progress`, fill
 * `sinew-progress-fill`.
 */
export class ProgressBar {
  /** The bar (`.sinew-progress`). */
  readonly element: HTMLDivElement;
  private readonly fill: HTMLDivElement;

  /** @param label its accessible name, e.g. "Downloading the model" */
  constructor(label: string) {
    this.element = document.createElement('div');
    this.element.className = 'sinew-progress';
    this.element.setAttribute('role', 'progressbar');
    this.element.setAttribute('aria-label', label);
    this.element.setAttribute('aria-valuemin', '0');
    this.fill = document.createElement('div');
    this.fill.className = 'sinew-progress-fill';
    this.element.append(this.fill);
    this.element.hidden = true;
  }

  /** Shows `loaded` of `total` bytes; a null (or zero) total shows the indeterminate bar. */
  show(loaded: number, total: number | null): void {
    const el = this.element;
    el.hidden = false;
    if (total === null || !(total > 0)) {
      el.dataset.indeterminate = '';
      el.removeAttribute('aria-valuenow');
      el.removeAttribute('aria-valuemax');
      this.fill.style.width = '';
      return;
    }
    delete el.dataset.indeterminate;
    const shown = Math.min(loaded, total);
    el.setAttribute('aria-valuemax', String(total));
    el.setAttribute('aria-valuenow', String(shown));
    this.fill.style.width = `${(100 * shown) / total}%`;
  }

  /** Hides the bar. */
  hide(): void {
    this.element.hidden = true;
  }
}
