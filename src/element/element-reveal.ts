import { readAttribute } from './element-attributes.ts';

/**
 * When `<sinew-viewer>` shows its model rather than its poster: `<model-viewer>`'s `reveal` (`auto` | `manual`),
 * `dismissPoster()`, `showPoster()` and `modelIsVisible`, with its `poster-dismissed` and `model-visibility`
 * events (features/loading.ts and model-viewer-base.ts of model-viewer 4.4).
 *
 * - `auto`: the model is revealed as soon as it is drawn; the poster goes with the first frame.
 * - `manual`: the poster (or, without one, the empty background) stays and the canvas and hotspots are hidden
 *   until `dismissPoster()`; the model is not even fetched before then unless `loading="eager"`.
 * - `showPoster()` hides the model again until the next `dismissPoster()`, whatever `reveal` says.
 */

/** What {@link ElementReveal} needs from its `<sinew-viewer>`. */
export interface ElementRevealOwner {
  readonly element: HTMLElement;
  /** Whether the model of the current `src` is shown (the element's `loaded`). */
  loaded(): boolean;
  /** The layers that show the model (canvas, hotspots), hidden while it is not revealed; null while disconnected. */
  modelLayers(): ReadonlyArray<HTMLElement | null>;
  /** A load held by {@link ElementReveal.holdsLoad} may start now. */
  releaseLoad(): void;
  /** Where malformed attributes go. */
  report(message: string): void;
}

/** Elements watched for intersecting the viewport → their callbacks; one observer for the page. */
const viewportCallbacks = new Map<Element, (inViewport: boolean) => void>();
let viewportObserver: IntersectionObserver | null = null;

/** A slight positive threshold, as model-viewer: an element that only touches the viewport's edge is not in it. */
const IN_VIEWPORT_THRESHOLD = 0.00001;

/**
 * One `<sinew-viewer>`'s reveal (`<model-viewer>`'s loading feature): the `reveal` attribute (`auto` | `manual`),
 * the poster image (part `poster`), `dismissPoster()` / `showPoster()`, `modelIsVisible` (loaded, revealed and
 * intersecting the viewport, one IntersectionObserver for the page) and the `poster-dismissed` /
 * `model-visibility` events. With `reveal="manual"` the first load waits for `dismissPoster()` unless
 * `loading="eager"`.
 */
export class ElementReveal {
  /** The poster image (part `poster`), for the owner to place in its shadow root over the canvas. */
  readonly poster: HTMLImageElement;
  private readonly owner: ElementRevealOwner;
  /** The model may be shown: `reveal="auto"`, or `dismissPoster()` was called (and not undone by `showPoster()`). */
  private revealed = false;
  /** Set once the first connection read `reveal`. */
  private started = false;
  /** A frame has been drawn (the poster goes for good in `auto`, unless `showPoster()`). */
  private drawn = false;
  private inViewport = false;
  /** The last `modelIsVisible` announced by `model-visibility`. */
  private announcedVisible = false;
  /** `poster-dismissed` fired since the model was last hidden (it fires once the revealed model is loaded). */
  private dismissAnnounced = false;

  constructor(owner: ElementRevealOwner) {
    this.owner = owner;
    const poster = document.createElement('img');
    poster.className = 'poster';
    poster.setAttribute('part', 'poster');
    poster.alt = '';
    poster.hidden = true;
    poster.addEventListener('error', () => (poster.hidden = true));
    this.poster = poster;
  }

  /** `<model-viewer>`'s `modelIsVisible`: the model is loaded, revealed, and the element intersects the viewport. */
  get modelIsVisible(): boolean {
    return this.revealed && this.inViewport && this.owner.loaded();
  }

  /** Whether the element's load waits for `dismissPoster()`: `reveal="manual"` not yet dismissed, and not `loading="eager"`. */
  holdsLoad(): boolean {
    return !this.revealed && readAttribute(this.owner.element, 'loading', null).value !== 'eager';
  }

  /** The element connected: reads `reveal` the first time, and watches the viewport. */
  connect(): void {
    if (!this.started) {
      this.started = true;
      this.revealed = readAttribute(this.owner.element, 'reveal', null).value === 'auto';
    }
    const element = this.owner.element;
    viewportObserver ??= new IntersectionObserver((entries) => {
      for (const entry of entries) viewportCallbacks.get(entry.target)?.(entry.isIntersecting);
    }, { threshold: IN_VIEWPORT_THRESHOLD });
    viewportCallbacks.set(element, (inViewport) => {
      this.inViewport = inViewport;
      this.update();
    });
    viewportObserver.observe(element);
    this.update();
  }

  /** The element disconnected: stops watching the viewport (the model is no longer visible). */
  disconnect(): void {
    const element = this.owner.element;
    viewportCallbacks.delete(element);
    viewportObserver?.unobserve(element);
    this.inViewport = false;
    this.update();
  }

  /**
   * `reveal` changed: `auto` reveals a model not yet revealed (starting a held load); `manual` hides one not yet
   * loaded. A malformed value is reported and read as `auto`.
   */
  revealChanged(): void {
    const mode = readAttribute(this.owner.element, 'reveal', this.owner.report).value;
    if (mode === 'auto' && !this.revealed) this.dismissPoster();
    else if (mode === 'manual' && this.revealed && !this.owner.loaded()) this.revealed = this.dismissAnnounced = false;
    this.update();
  }

  /** `<model-viewer>`'s `dismissPoster()`: reveals the model, loading it first when it was held. */
  dismissPoster(): void {
    if (this.revealed) return;
    this.revealed = true;
    this.owner.releaseLoad();
    this.update();
  }

  /** `<model-viewer>`'s `showPoster()`: hides the model behind the poster until the next {@link dismissPoster}. */
  showPoster(): void {
    this.revealed = false;
    this.dismissAnnounced = false;
    this.update();
  }

  /** A frame was drawn (called every frame: allocates nothing after the first). */
  frameDrawn(): void {
    if (this.drawn) return;
    this.drawn = true;
    this.update();
  }

  /**
   * Brings the poster and the model's layers up to date, and fires `poster-dismissed` (the revealed model is
   * loaded, once per reveal) and `model-visibility` (`modelIsVisible` changed): after `poster`, `src` or the
   * loaded model changed, and on every change of the reveal state. Allocates only when an event fires.
   */
  update(): void {
    const url = this.owner.element.getAttribute('poster');
    const poster = this.poster;
    if (url && (!this.revealed || !this.drawn)) {
      if (poster.getAttribute('src') !== url) poster.src = url;
      poster.hidden = false;
    } else {
      poster.hidden = true;
      if (!url) poster.removeAttribute('src');
    }
    const visibility = this.revealed ? '' : 'hidden';
    for (const layer of this.owner.modelLayers()) if (layer) layer.style.visibility = visibility;
    const element = this.owner.element;
    if (this.revealed && !this.dismissAnnounced && this.owner.loaded()) {
      this.dismissAnnounced = true;
      element.dispatchEvent(new CustomEvent('poster-dismissed', { bubbles: true, composed: true }));
    }
    const visible = this.modelIsVisible;
    if (visible !== this.announcedVisible) {
      this.announcedVisible = visible;
      element.dispatchEvent(new CustomEvent('model-visibility', { detail: { visible }, bubbles: true, composed: true }));
    }
  }
}
