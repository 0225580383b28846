import type { CameraMatrices, GpuModel, PalettePath, SkinnedRenderer } from '../gpu/passes/renderer.ts';
import type { SkinnedVertexSource } from '../gpu/skinning/skinned-vertex-source.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';

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
   * This frame's skinned vertices when the view skinned the model once for every pass (a stage said
   * {@link FrameStage.drawsSkinnedModel}): a stage drawing the model passes them to `SkinnedRenderer.draw`. Null:
   * skin in the draw.
   */
  skinnedVertices: SkinnedVertexSource | null;
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
   * once for the frame and hands the vertices over in `ViewFrame.skinnedVertices`. Absent: false.
   */
  drawsSkinnedModel?(): boolean;
}

/**
 * `frame` (or a new one the first time) rewritten in place for the frame about to be drawn: the view's model,
 * context, camera, skinning method and drawing-buffer size. Allocates only when `frame` is null.
 */
export function describeFrame(
  frame: ViewFrame | null, renderer: SkinnedRenderer, gpu: GpuModel,
  model: { readonly animated: AnimatedModel; readonly displayMatrix: Float32Array; readonly palettePath: PalettePath },
  camera: CameraMatrices, method: SkinningMethod, size: { readonly width: number; readonly height: number },
): ViewFrame {
  const out = frame ?? {
    gl: renderer.gl, renderer, gpu, animated: model.animated, displayMatrix: model.displayMatrix, camera, method,
    palettePath: model.palettePath, width: 0, height: 0, skinnedVertices: null,
  };
  out.gl = renderer.gl; out.renderer = renderer; out.gpu = gpu; out.animated = model.animated; out.displayMatrix = model.displayMatrix;
  out.camera = camera; out.method = method; out.palettePath = model.palettePath; out.width = size.width; out.height = size.height;
  return out;
}
