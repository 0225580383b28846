import { hasOutlines } from '../gpu/passes/outline-material.ts';
import { SkinnedVertexBuffers } from '../gpu/skinning/skinned-vertex-buffers.ts';
import type { SkinnedVertexSource } from '../gpu/skinning/skinned-vertex-source.ts';
import type { FrameStage, ViewFrame } from './view-frame.ts';

/**
 * The frame stages of one {@link ModelView} (`addStage`) and what they share: when a stage draws the skinned
 * model again ({@link FrameStage.drawsSkinnedModel}, e.g. a contact shadow), or the model has a material with an
 * MToon outline (its surface and its inverted hull both draw the skinned vertices), the view skins it once per frame
 * into {@link SkinnedVertexBuffers} by transform feedback and every pass — the main draw and the stages — draws
 * those (docs/explanation/performance.md "Skin once or skin per pass"); with no such stage the main draw skins in its vertex shader as
 * always. The buffers are made for the shown model on first need and again for another model or context.
 */
export class ViewStages {
  private readonly stages: FrameStage[] = [];
  private buffers: SkinnedVertexBuffers | null = null;

  /** Adds `stage`; returns the function that removes it. */
  add(stage: FrameStage): () => void {
    this.stages.push(stage);
    return () => {
      const i = this.stages.indexOf(stage);
      if (i >= 0) this.stages.splice(i, 1);
    };
  }

  /**
   * Skins `frame`'s model once for this frame when a stage will draw it again or it has MToon outlines (and the
   * draw is not an inspection view, `frame.item.style`): the skin-once pass (`SkinnedRenderer.skinInto`); sets and returns
   * `frame.item.skinnedVertices` (null: each pass skins).
   * @throws as `SkinnedRenderer.skinInto`
   */
  skinOnce(frame: ViewFrame): SkinnedVertexSource | null {
    const item = frame.item;
    item.skinnedVertices = null;
    if (item.style || !(this.anyDrawsSkinnedModel() || hasOutlines(frame.gpu.asset))) return null;
    let buffers = this.buffers;
    if (!buffers || buffers.gpuModel !== frame.gpu) {
      buffers?.dispose();
      buffers = this.buffers = new SkinnedVertexBuffers(frame.gl, frame.gpu);
    }
    frame.renderer.skinInto(buffers, item);
    item.skinnedVertices = buffers;
    return buffers;
  }

  /** Runs every stage's `afterDraw(frame)`, in the order they were added. */
  afterDraw(frame: ViewFrame): void {
    for (let i = 0; i < this.stages.length; i++) this.stages[i].afterDraw(frame);
  }

  /** Deletes the skinned-vertex buffers (made again when needed). */
  dispose(): void {
    this.buffers?.dispose();
    this.buffers = null;
  }

  private anyDrawsSkinnedModel(): boolean {
    for (let i = 0; i < this.stages.length; i++) if (this.stages[i].drawsSkinnedModel?.() === true) return true;
    return false;
  }
}
