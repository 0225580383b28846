import type { SkinnedRenderer } from '../gpu/passes/renderer.ts';

/** RGBA in [0, 1] (sRGB, not premultiplied): a clear colour. */
export type Rgba = readonly [number, number, number, number];

/**
 * What a {@link RenderSurface} calls back on its view. None of these may throw. The surface owns its
 * context's loss and restore (it is the one listener, and tells the renderer before the view); the view
 * owns its model's GL objects and uploads them again when told.
 */
export interface SurfaceClient {
  /** An animation frame came for this view (it asked with {@link RenderSurface.requestFrame}). */
  frame(nowMs: number): void;
  /** The WebGL context was lost (draws are no-ops until it is restored): stop drawing. */
  contextLost(): void;
  /**
   * The context was restored and every GL object with it (src/gpu/device/gpu-context.ts): draw again, and redo
   * CPU→GPU work that is not a resource.
   */
  contextRestored(): void;
  /** A GL object could not be restored (its message); the others were, and `contextRestored` follows. */
  restoreFailed(message: string): void;
}

/**
 * Where a `ModelView` draws: a WebGL2 context and renderer, a visible canvas, and a source of animation
 * frames. Either the view's own canvas and context (`CanvasSurface`, the viewer page) or a share of a page's
 * `ViewerHost` (one context for every `<sinew-viewer>`, drawn off-screen and copied into each element's
 * canvas). A frame is `resize()`, `beginFrame()`, renderer draws, `present()`, all in one task.
 */
export interface RenderSurface {
  /** The WebGL2 context drawn with, or null when there is none. */
  readonly gl: WebGL2RenderingContext | null;
  /** The renderer (programs) of that context, or null when there is none. */
  readonly renderer: SkinnedRenderer | null;
  /** Why nothing can be drawn (no WebGL2, the renderer failed to start), or null. */
  readonly startupError: string | null;
  /** True between a context loss and its restore. */
  readonly contextLost: boolean;
  /** Device pixels of the frame, as of the last {@link resize} (at least 1 × 1). */
  readonly width: number;
  readonly height: number;
  /** Sizes the frame to the visible canvas's CSS box × devicePixelRatio. */
  resize(): void;
  /**
   * Starts a frame of `width × height` in the renderer's default framebuffer (bottom-left corner), cleared
   * to `clear`. No-op without a renderer or while the context is lost.
   */
  beginFrame(clear: Rgba): void;
  /** Shows the frame drawn since {@link beginFrame} in the visible canvas. Allocates nothing. */
  present(): void;
  /** Asks for one {@link SurfaceClient.frame} call on a coming animation frame (repeated asks coalesce). */
  requestFrame(): void;
  /** Withdraws a {@link requestFrame} not yet answered. */
  cancelFrame(): void;
  /** Stops every callback and gives the surface's share of GL resources back. Idempotent. */
  dispose(): void;
}
