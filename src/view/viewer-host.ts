import { SkinnedRenderer } from '../gpu/passes/renderer.ts';
import { GpuContext } from '../gpu/device/gpu-context.ts';
import { messageOf } from '../errors/message-of.ts';
import type { RenderSurface, Rgba, SurfaceClient } from './render-surface.ts';

/** Options of {@link ViewerHost}. */
export interface ViewerHostOptions {
  /** Called once, when the host has disposed itself (its last surface was disposed) or was disposed. */
  readonly onDisposed?: () => void;
  /**
   * How far outside the viewport an observed element counts as near ({@link ViewerHost.observeNearness}),
   * as an IntersectionObserver `rootMargin`. Default `'50%'`: half a viewport on every side.
   */
  readonly nearMargin?: string;
}

/** Growth step of the shared canvas, device pixels: fewer reallocations while elements resize. */
const CANVAS_STEP = 64;

/**
 * What every `<sinew-viewer>` of a page shares, so that a page of many viewers uses one WebGL2 context:
 *
 * - one off-screen canvas and its WebGL2 context (`alpha`, premultiplied, antialiased) and one
 *   {@link SkinnedRenderer} (compiled programs are shared; each view owns its model's GL objects);
 * - one requestAnimationFrame loop: each animation frame, every view that asked for a frame and is on screen
 *   draws into the bottom-left corner of the shared canvas, which is then copied (`drawImage`) into the
 *   view's own 2D canvas. The shared canvas grows to the largest view;
 * - an IntersectionObserver that keeps views out of the viewport from drawing (they keep their request and
 *   draw when they come into view), and one that tells lazily loading elements they are near it;
 * - the shared context's loss and restore: the host listens to its {@link GpuContext} (which restores every
 *   GL object); it stops the loop and tells every view, and once restored every view draws again.
 *
 * The caller owns it (the element keeps one per document) and gets a share with {@link attach}; the host
 * disposes itself when the last share is disposed. Frames allocate nothing.
 */
export class ViewerHost {
  /** The shared canvas (never in the DOM). */
  readonly canvas: HTMLCanvasElement;
  /** The shared context, or null when the browser has no WebGL2. */
  readonly gl: WebGL2RenderingContext | null;
  /** The shared renderer, or null when there is no context or it failed to start. */
  readonly renderer: SkinnedRenderer | null = null;
  /** Why nothing can be drawn, or null. */
  readonly startupError: string | null = null;

  private readonly surfaces: HostedSurface[] = [];
  private readonly byCanvas = new Map<Element, HostedSurface>();
  private readonly nearCallbacks = new Map<Element, (near: boolean) => void>();
  private readonly visibility: IntersectionObserver;
  private readonly nearness: IntersectionObserver;
  private readonly onDisposed: (() => void) | undefined;
  private readonly maxSize: number;
  private rafId = 0;
  private disposed = false;
  private unwatch: () => void = () => {};
  private readonly tick = (nowMs: number): void => this.onFrame(nowMs);

  /** Makes the shared canvas, context and renderer. Never throws: failures go to `startupError`. */
  constructor(options: ViewerHostOptions = {}) {
    this.onDisposed = options.onDisposed;
    this.canvas = document.createElement('canvas');
    this.gl = this.canvas.getContext('webgl2', {
      alpha: true, premultipliedAlpha: true, antialias: true, powerPreference: 'high-performance',
    });
    let maxSize = 4096;
    if (!this.gl) {
      this.startupError = 'This browser has no WebGL2: Sinew cannot draw here.';
    } else {
      try {
        this.renderer = new SkinnedRenderer(this.gl);
        this.unwatch = GpuContext.of(this.gl).listen({
          lost: () => this.onContextLost(),
          restored: () => this.onContextRestored(),
          failed: (message) => { for (const surface of [...this.surfaces]) surface.client.restoreFailed(message); },
        });
        const viewport = this.gl.getParameter(this.gl.MAX_VIEWPORT_DIMS) as Int32Array;
        maxSize = Math.min(viewport[0], viewport[1], this.gl.getParameter(this.gl.MAX_RENDERBUFFER_SIZE) as number);
      } catch (e) {
        this.startupError = `Could not start the renderer: ${messageOf(e)}`;
      }
    }
    this.maxSize = maxSize;
    this.visibility = new IntersectionObserver((entries) => this.onVisibility(entries));
    this.nearness = new IntersectionObserver((entries) => {
      for (const entry of entries) this.nearCallbacks.get(entry.target)?.(entry.isIntersecting);
    }, { rootMargin: options.nearMargin ?? '50%' });
  }

  /** True between a context loss and its restore. */
  get contextLost(): boolean {
    return this.renderer?.contextLost ?? false;
  }

  /** Whether the host has been disposed (then it cannot be attached to). */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Number of live shares. */
  get surfaceCount(): number {
    return this.surfaces.length;
  }

  /**
   * A share of the host for one view, drawing into `canvas` (which gets a 2D context; it must have none
   * yet). Frames are drawn while `canvas` intersects the viewport.
   * @throws Error when the host is disposed
   */
  attach(canvas: HTMLCanvasElement, client: SurfaceClient): RenderSurface {
    if (this.disposed) throw new Error('ViewerHost: attach after dispose');
    const surface = new HostedSurface(this, canvas, client);
    this.surfaces.push(surface);
    this.byCanvas.set(canvas, surface);
    this.visibility.observe(canvas);
    return surface;
  }

  /**
   * Calls `callback(near)` whenever `target` comes within the near margin of the viewport or leaves it
   * (first soon after this call).
   * @returns stops observing
   */
  observeNearness(target: Element, callback: (near: boolean) => void): () => void {
    if (this.disposed) return () => {};
    this.nearCallbacks.set(target, callback);
    this.nearness.observe(target);
    return () => {
      if (this.nearCallbacks.get(target) !== callback) return;
      this.nearCallbacks.delete(target);
      this.nearness.unobserve(target);
    };
  }

  /**
   * Stops the loop and the observers, deletes the renderer's programs and releases the context (browsers
   * cap live contexts, so not left to garbage collection). Shares still attached stop drawing. Idempotent.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.rafId !== 0) cancelAnimationFrame(this.rafId);
    this.rafId = 0;
    this.visibility.disconnect();
    this.nearness.disconnect();
    this.nearCallbacks.clear();
    this.byCanvas.clear();
    this.surfaces.length = 0;
    this.unwatch();
    this.renderer?.dispose();
    if (this.gl && !this.gl.isContextLost()) this.gl.getExtension('WEBGL_lose_context')?.loseContext();
    this.onDisposed?.();
  }

  /** @internal Marks `surface` as wanting a frame and makes sure one is coming. */
  schedule(surface: HostedSurface): void {
    surface.pending = true;
    if (this.rafId === 0 && !this.disposed && !this.contextLost && surface.visible) this.rafId = requestAnimationFrame(this.tick);
  }

  /**
   * @internal Grows the shared canvas to hold `width × height` device pixels (never shrinks: a resize clears
   * and reallocates it) and writes the size a view may use into `out`: the request, capped at the context's
   * limits.
   */
  reserve(width: number, height: number, out: { width: number; height: number }): void {
    const w = Math.min(width, this.maxSize);
    const h = Math.min(height, this.maxSize);
    const canvas = this.canvas;
    if (canvas.width < w) canvas.width = Math.min(Math.ceil(w / CANVAS_STEP) * CANVAS_STEP, this.maxSize);
    if (canvas.height < h) canvas.height = Math.min(Math.ceil(h / CANVAS_STEP) * CANVAS_STEP, this.maxSize);
    out.width = w;
    out.height = h;
  }

  /** @internal Removes a disposed share; the last one disposes the host. */
  detach(surface: HostedSurface): void {
    const index = this.surfaces.indexOf(surface);
    if (index < 0) return;
    this.surfaces.splice(index, 1);
    this.byCanvas.delete(surface.canvas);
    this.visibility.unobserve(surface.canvas);
    if (this.surfaces.length === 0) this.dispose();
  }

  private onFrame(nowMs: number): void {
    this.rafId = 0;
    if (this.disposed || this.contextLost) return;
    const surfaces = this.surfaces;
    for (let i = 0; i < surfaces.length; i++) {
      const surface = surfaces[i];
      if (!surface.pending || !surface.visible) continue;
      surface.pending = false;
      surface.client.frame(nowMs);
    }
    // A share removed during the loop shifts the rest: one may have been passed over with its request.
    if (this.rafId !== 0 || this.disposed) return;
    for (let i = 0; i < surfaces.length; i++) {
      if (surfaces[i].pending && surfaces[i].visible) {
        this.rafId = requestAnimationFrame(this.tick);
        return;
      }
    }
  }

  private onVisibility(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const surface = this.byCanvas.get(entry.target);
      if (!surface) continue;
      surface.visible = entry.isIntersecting;
      if (surface.visible && surface.pending) this.schedule(surface);
    }
  }

  private onContextLost(): void {
    if (this.rafId !== 0) cancelAnimationFrame(this.rafId);
    this.rafId = 0;
    for (const surface of [...this.surfaces]) surface.client.contextLost();
  }

  private onContextRestored(): void {
    for (const surface of [...this.surfaces]) surface.client.contextRestored();
  }
}

/** One view's share of a {@link ViewerHost}: its visible 2D canvas, its frame request and its visibility. */
class HostedSurface implements RenderSurface {
  width = 1;
  height = 1;
  /** Wants a frame. */
  pending = false;
  /** Intersects the viewport (true until the observer first says otherwise). */
  visible = true;
  readonly startupError: string | null;
  private readonly context: CanvasRenderingContext2D | null;
  private readonly size = { width: 1, height: 1 };
  private disposed = false;

  constructor(private readonly host: ViewerHost, readonly canvas: HTMLCanvasElement, readonly client: SurfaceClient) {
    this.context = canvas.getContext('2d');
    this.startupError = host.startupError ?? (this.context ? null : 'Could not make a 2D canvas to show the frame in.');
  }

  get gl(): WebGL2RenderingContext | null {
    return this.disposed ? null : this.host.gl;
  }

  get renderer(): SkinnedRenderer | null {
    return this.disposed ? null : this.host.renderer;
  }

  get contextLost(): boolean {
    return this.host.contextLost;
  }

  resize(): void {
    const dpr = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    this.host.reserve(Math.max(1, Math.round(canvas.clientWidth * dpr)), Math.max(1, Math.round(canvas.clientHeight * dpr)), this.size);
    const { width, height } = this.size;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    this.width = width;
    this.height = height;
  }

  beginFrame(clear: Rgba): void {
    if (!this.disposed) this.host.renderer?.beginFrame(this.width, this.height, clear);
  }

  present(): void {
    const context = this.context;
    if (!context || this.disposed || this.host.contextLost) return;
    // `copy`: the frame replaces the canvas's pixels, transparent ones included (a transparent background).
    // Resizing a canvas resets its context state, so it is set here rather than once.
    context.globalCompositeOperation = 'copy';
    const source = this.host.canvas;
    context.drawImage(source, 0, source.height - this.height, this.width, this.height, 0, 0, this.width, this.height);
  }

  requestFrame(): void {
    if (!this.disposed) this.host.schedule(this);
  }

  cancelFrame(): void {
    this.pending = false;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pending = false;
    this.host.detach(this);
  }
}
