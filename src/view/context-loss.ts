import type { SkinnedRenderer } from '../gpu/passes/renderer.ts';

/** What the owner of a context does after the renderer has been told of a loss or a restore. */
export interface ContextLossHandlers {
  /** The context is lost: stop asking for frames, tell the views (their GL objects are dead). */
  lost(): void;
  /** The context is back and the renderer usable: tell the views to upload their models again. */
  restored(): void;
}

/**
 * The one listener for loss and restore of the WebGL2 context of `canvas`, installed by the context's owner
 * (`CanvasSurface` for the viewer page's own context, `ViewerHost` for the context every `<sinew-viewer>`
 * shares). On `webglcontextlost` it calls `preventDefault()` (without it the browser never restores the
 * context), tells `renderer` ({@link SkinnedRenderer.contextWasLost}), then `handlers.lost()`; on
 * `webglcontextrestored` it tells `renderer` ({@link SkinnedRenderer.contextWasRestored}: programs dropped,
 * generation bumped) before `handlers.restored()`, so the views' uploads land in the new generation.
 * @returns stops listening (call on dispose)
 */
export function watchContextLoss(canvas: HTMLCanvasElement, renderer: SkinnedRenderer, handlers: ContextLossHandlers): () => void {
  const onLost = (event: Event): void => {
    event.preventDefault();
    renderer.contextWasLost();
    handlers.lost();
  };
  const onRestored = (): void => {
    renderer.contextWasRestored();
    handlers.restored();
  };
  canvas.addEventListener('webglcontextlost', onLost);
  canvas.addEventListener('webglcontextrestored', onRestored);
  return () => {
    canvas.removeEventListener('webglcontextlost', onLost);
    canvas.removeEventListener('webglcontextrestored', onRestored);
  };
}
