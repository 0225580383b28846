import type { SpringColliderAsset } from '../asset/secondary-motion-asset.ts';
import { LineOverlay } from '../gpu/debug/line-overlay.ts';
import { ColliderLines } from './collider-lines.ts';
import type { FrameStage, ViewFrame } from './view-frame.ts';

/**
 * The "show colliders" view: a {@link FrameStage} drawing the outlines of the shown model's spring-bone colliders
 * ({@link ColliderLines}: spheres, capsules, planes; inside shapes in their own colour) over the model, placed each
 * frame by the collider nodes' matrices of the frame's pose (`AnimatedModel.modelMatrices`) and the display matrix,
 * with a {@link LineOverlay} (depth test off: seen through the mesh). Self-contained: add it to a view
 * (`ModelView.addStage`) and set {@link visible}; it follows whatever model the view shows (its outlines are built
 * again when the model changes) and draws nothing for a model without colliders. Allocates nothing per frame once
 * built for a model and a context.
 */
export class ColliderOverlay implements FrameStage {
  /** Whether the outlines are drawn (default false). */
  visible = false;
  private overlay: LineOverlay | null = null;
  private gl: WebGL2RenderingContext | null = null;
  private lines: ColliderLines | null = null;
  private colliders: readonly SpringColliderAsset[] | null = null;
  /** Line vertices drawn by the last frame (0 when hidden or nothing to draw): for tests and the panel. */
  lastVertexCount = 0;

  afterDraw(frame: ViewFrame): void {
    this.lastVertexCount = 0;
    if (!this.visible) return;
    const colliders = frame.animated.asset.secondaryMotion?.springBone?.colliders ?? null;
    if (colliders !== this.colliders) {
      this.colliders = colliders;
      this.lines = colliders && colliders.length > 0 ? new ColliderLines(colliders) : null;
    }
    const lines = this.lines;
    if (!lines) return;
    if (!this.overlay || this.gl !== frame.gl) {
      // Another context's overlay is freed (the overlay restores itself after a loss of this one).
      this.overlay?.dispose();
      this.overlay = new LineOverlay(frame.gl);
      this.gl = frame.gl;
    }
    const count = lines.update(frame.animated.modelMatrices, frame.displayMatrix);
    this.overlay.drawLines(frame.renderer.lastViewProjection, lines.positions, lines.colors, count);
    this.lastVertexCount = count;
  }

  /** Frees the GL objects (made again by the next frame drawn while {@link visible}). Idempotent. */
  dispose(): void {
    this.overlay?.dispose();
    this.overlay = null;
    this.gl = null;
  }
}
