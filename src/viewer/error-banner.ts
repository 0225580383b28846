/** How a banner message reads: an error, a warning, or plain status. */
export type BannerKind = 'error' | 'warning' | 'info';

/**
 * The status / error banner along the bottom of the viewer. Shows one message at a time; errors and
 * warnings stay until dismissed (× button) or replaced, info messages can be cleared by the app.
 * The element carries `data-kind` (`error`, `warning`, `info`) and is hidden when empty.
 */
export class ErrorBanner {
  /** The banner element (`#sinew-banner`). */
  readonly element: HTMLDivElement;
  private readonly text: HTMLSpanElement;
  private kindValue: BannerKind | null = null;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.id = 'sinew-banner';
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
    this.text = document.createElement('span');
    this.text.className = 'sinew-banner-text';
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'sinew-banner-close';
    close.title = 'Dismiss';
    close.textContent = '×';
    close.addEventListener('click', () => this.clear());
    this.element.append(this.text, close);
    this.element.hidden = true;
    parent.append(this.element);
  }

  /** The kind of the message shown, or null when hidden. */
  get kind(): BannerKind | null {
    return this.kindValue;
  }

  /** The message shown ('' when hidden). */
  get message(): string {
    return this.element.hidden ? '' : (this.text.textContent ?? '');
  }

  /** Shows `message`, replacing what was shown. */
  show(message: string, kind: BannerKind): void {
    this.kindValue = kind;
    this.text.textContent = message;
    this.element.dataset.kind = kind;
    this.element.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    this.element.hidden = false;
  }

  /** Hides the banner. */
  clear(): void {
    this.kindValue = null;
    this.text.textContent = '';
    delete this.element.dataset.kind;
    this.element.hidden = true;
  }
}
