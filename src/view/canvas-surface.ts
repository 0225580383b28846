import { SkinnedRenderer } from '../gpu/passes/renderer.ts';
import { GpuContext } from '../gpu/device/gpu-context.ts';
import { messageOf } from '../errors/message-of.ts';
import type { RenderSurface, Rgba, SurfaceClient } from './render-surface.ts';

/**
 * A {@link RenderSurface} that is a canvas with its own WebGL2 context (`alpha: false`) and renderer, and its
 * own requestAnimationFrame: the viewer page's. It listens to its context's {@link GpuContext} (which restores
 * every GL object): on loss it stops its frame request and tells the client; once restored it tells the
 * client, which draws again.
 */
export class CanvasSurface implements RenderSurface {
  readonly gl: WebGL2RenderingContext | null;
  readonly renderer: SkinnedRenderer | null = null;
  readonly startupError: string | null = null;
  width = 1;
  height = 1;
  /** Drawing-buffer pixels per device pixel (1; larger for a high-resolution screenshot of one frame). */
  pixelScale = 1;
  private rafId = 0;
  private disposed = false;
  private unwatch: () => void = () => {};
  private readonly tick = (nowMs: number): void => {
    this.rafId = 0;
    this.client.frame(nowMs);
  };

  /**
   * Makes the context and renderer on `canvas`. Never throws: without WebGL2 (or when the renderer fails)
   * `startupError` says why.
   * @param contextAttributes beside `alpha: false` (e.g. `preserveDrawingBuffer`)
   */
  constructor(private readonly canvas: HTMLCanvasElement, private readonly client: SurfaceClient, contextAttributes: WebGLContextAttributes = {}) {
    this.gl = canvas.getContext('webgl2', { antialias: true, powerPreference: 'high-performance', ...contextAttributes, alpha: false });
    if (!this.gl) {
      this.startupError = 'This browser has no WebGL2: Sinew cannot draw here.';
      return;
    }
    try {
      this.renderer = new SkinnedRenderer(this.gl);
    } catch (e) {
      this.startupError = `Could not start the renderer: ${messageOf(e)}`;
      return;
    }
    this.unwatch = GpuContext.of(this.gl).listen({
      lost: () => {
        this.cancelFrame();
        client.contextLost();
      },
      restored: () => client.contextRestored(),
      failed: (message) => client.restoreFailed(message),
    });
  }

  get contextLost(): boolean {
    return this.renderer?.contextLost ?? false;
  }

  resize(): void {
    const dpr = (window.devicePixelRatio || 1) * this.pixelScale;
    const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
    this.width = w;
    this.height = h;
  }

  beginFrame(clear: Rgba): void {
    this.renderer?.beginFrame(this.width, this.height, clear);
  }

  present(): void {
    // The drawing buffer is the visible canvas: the browser shows it.
  }

  requestFrame(): void {
    if (this.rafId === 0 && !this.disposed) this.rafId = requestAnimationFrame(this.tick);
  }

  cancelFrame(): void {
    if (this.rafId !== 0) cancelAnimationFrame(this.rafId);
    this.rafId = 0;
  }

  /** Also deletes the renderer's programs and releases the context now (browsers cap live contexts). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancelFrame();
    this.unwatch();
    this.renderer?.dispose();
    if (this.gl && !this.gl.isContextLost()) this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }

  /**
   * Draws with `draw` at `scale` × the drawing-buffer size (≥ 1; the browser may clamp it), returns the picture
   * as a PNG data URL, then draws again at the normal size.
   */
  capture(scale: number, draw: () => void): string {
    this.pixelScale = Math.max(1, scale);
    try {
      draw();
      return this.canvas.toDataURL('image/png');
    } finally {
      this.pixelScale = 1;
      draw();
    }
  }
}
