import type { CameraMatrices, GpuModel, PalettePath, SkinnedRenderer } from '../gpu/passes/renderer.ts';
import type { RenderItem } from '../gpu/passes/render-item.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/**
 * The frame a {@link ModelView} draws, as it hands it to its {@link FrameStage}s and its inspector: one object,
 * rewritten in place each frame (no per-frame allocation); read it during the call only, or through
 * `ModelView.inspect` between frames.
 */
export interface ViewFrame {
  gl: WebGL2RenderingContext;
  renderer: SkinnedRenderer;
  gpu: GpuModel;
  /** The model's pose buffers, evaluated for this frame. */
  animated: AnimatedModel;
  /** `Float32Array(16)`: model space → display space. */
  displayMatrix: Float32Array;
  camera: CameraMatrices;
  method: SkinningMethod;
  palettePath: PalettePath;
  /** Drawing buffer size, pixels. */
  width: number;
  height: number;
  /**
   * The model as the main draw drew it (`SkinnedRenderer.draw`): a stage drawing the model again (a shadow pass)
   * draws this item, with this frame's skinned vertices when the view skinned the model once for every pass
   * (`item.skinnedVertices`, a stage said {@link FrameStage.drawsSkinnedModel}).
   */
  item: RenderItem;
}

/**
 * Work a {@link ModelView} runs in every frame it draws, after the model (`ModelView.addStage`): drawing props
 * on joints, placing hotspots, overlays. Runs in the frame's task with the frame's context bound, so what it
 * draws lands in the same picture as the model, with no frame of lag. Must not allocate once warmed up and
 * must not throw (a throw stops the view's loop with the `failed` message).
 */
export interface FrameStage {
  /** Called once per frame drawn, right after the model. */
  afterDraw(frame: ViewFrame): void;
  /**
   * Whether this frame's `afterDraw` will draw the skinned model again (a shadow pass): then the view skins it
   * once for the frame and hands the vertices over in `ViewFrame.item.skinnedVertices`. Absent: false.
   */
  drawsSkinnedModel?(): boolean;
}

/**
 * `frame` (or a new one the first time) rewritten in place for the frame about to be drawn: the view's model and
 * its render item, context, camera, skinning method and drawing-buffer size. Allocates only when `frame` is null.
 * @param surface the renderer drawn with and the drawing buffer's size, pixels
 * @param model the shown model: its pose buffers (`item.pose`) and palette path
 * @throws Error when the surface has no renderer
 */
export function describeFrame(
  frame: ViewFrame | null, surface: { readonly renderer: SkinnedRenderer | null; readonly width: number; readonly height: number },
  item: RenderItem, model: { readonly animated: AnimatedModel; readonly palettePath: PalettePath }, camera: CameraMatrices,
): ViewFrame {
  const renderer = surface.renderer;
  if (!renderer) throw new Error('describeFrame: the surface has no renderer');
  const displayMatrix = item.displayMatrix ?? IDENTITY;
  const out = frame ?? {
    gl: renderer.gl, renderer, gpu: item.gpuModel, animated: model.animated, displayMatrix, camera, method: item.method,
    palettePath: model.palettePath, width: 0, height: 0, item,
  };
  out.gl = renderer.gl; out.renderer = renderer; out.gpu = item.gpuModel; out.animated = model.animated; out.displayMatrix = displayMatrix;
  out.camera = camera; out.method = item.method; out.palettePath = model.palettePath; out.width = surface.width; out.height = surface.height;
  out.item = item;
  return out;
}
