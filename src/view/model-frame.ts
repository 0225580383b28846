import { createRenderItem, type RenderItem } from '../gpu/passes/render-item.ts';
import type { SceneLighting } from '../gpu/shading/scene-lighting.ts';
import type { GpuModel } from '../gpu/skinning/gpu-model.ts';
import type { PaletteRequest } from '../gpu/skinning/palette-path.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import type { CameraFraming } from './camera-framing.ts';
import type { FrameInspector, FrameTimings } from './frame-inspector.ts';
import type { LoadedModel } from './loaded-model.ts';
import type { RenderSurface, Rgba } from './render-surface.ts';
import { describeFrame, type FrameStage, type ViewFrame } from './view-frame.ts';
import { ViewStages } from './view-stages.ts';

/** How a {@link ModelFrame} draws its model: the view's palette request, skinning method and light. */
export interface FrameSettings {
  readonly paletteRequest: PaletteRequest;
  readonly method: SkinningMethod;
  /** The light of the frame (src/gpu/shading/scene-lighting.ts); null: the default. */
  readonly lighting: Readonly<SceneLighting> | null;
}

/** What a render item takes from a loaded model: its pose buffers and display matrix. */
export type ItemModel = Pick<LoadedModel, 'animated' | 'displayMatrix'>;

/**
 * The frames one {@link ModelView} draws on its surface: the model's {@link RenderItem} (one, rewritten in place
 * each frame), the passes of a frame in order — pose, light and skybox, the inspector's style, skin once when a
 * stage draws the model again ({@link ViewStages}), the renderer's draw, the stages, the inspector's overlays — and
 * where the frame's time went ({@link timings}). Frames allocate nothing once warmed up.
 */
export class ModelFrame {
  /** Where the last frame's time went (see {@link FrameTimings}), rewritten by each frame. */
  readonly timings: FrameTimings = { poseMs: 0, uploadMs: 0, drawMs: 0, inspectMs: 0 };
  /** Debug views drawn with each frame (the viewer page's), or null. */
  inspector: FrameInspector | null = null;
  /** Mesh instances not drawn (`RenderItem.hiddenInstances`; `ViewAvatar.setFirstPerson`), or null: all drawn. */
  hiddenInstances: Uint8Array | null = null;
  /**
   * Seconds of material time the frames draw at (`RenderItem.materialTime`; MToon's UV animation): the view
   * advances it by each frame's dt while playing (and by `step`), holds it while paused; snapshots draw at it.
   */
  materialTime = 0;
  /** Handed to the stages and the {@link inspector}, rewritten in place each frame. */
  private lastFrame: ViewFrame | null = null;
  private readonly stages = new ViewStages();
  /** What the main draw, the trial draws and the stages draw of the shown model (see {@link itemFor}). */
  private item: RenderItem | null = null;

  constructor(private readonly surface: RenderSurface, private readonly framing: CameraFraming, private readonly background: Rgba) {}

  /** The last frame drawn, or null before the first. */
  get last(): ViewFrame | null {
    return this.lastFrame;
  }

  /** Adds `stage` to every frame, after the model (in the order added); returns the function that removes it. */
  addStage(stage: FrameStage): () => void {
    return this.stages.add(stage);
  }

  /**
   * Draws one frame of `model` (its GPU side uploaded) at its animator's current time into the surface's drawing
   * buffer, and presents it.
   * @throws Error when the surface has no renderer, and as `SkinnedRenderer.draw` and the stages
   */
  draw(model: LoadedModel & { readonly gpu: GpuModel }, settings: FrameSettings): void {
    const surface = this.surface;
    const renderer = surface.renderer;
    if (!renderer) throw new Error(`${model.asset.name}: no renderer to draw with`);
    surface.resize();
    const t0 = performance.now();
    model.animated.evaluate(model.animated.animator);
    const t1 = performance.now();
    this.framing.update(surface.width, surface.height);
    surface.beginFrame(this.background);
    renderer.useLighting(settings.lighting, this.framing.matrices, surface.width, surface.height);
    const item = this.itemFor(model.gpu, model, settings.paletteRequest, settings.method);
    const frame = this.lastFrame = describeFrame(this.lastFrame, surface, item, model, this.framing.matrices);
    const inspector = this.inspector;
    item.style = inspector?.styleFor(frame) ?? null;
    const t2 = performance.now();
    const skinned = this.stages.skinOnce(frame);
    // The palette is packed and uploaded once a frame: by the skin-once pass, else by the main draw (not by stages).
    let paletteMs = skinned ? renderer.lastPaletteMs : 0;
    renderer.draw(item, this.framing.matrices);
    paletteMs += renderer.lastPaletteMs;
    this.stages.afterDraw(frame);
    const t3 = performance.now();
    if (inspector) inspector.overlay(frame);
    const t4 = performance.now();
    surface.present();
    this.timings.poseMs = t1 - t0;
    this.timings.uploadMs = paletteMs;
    this.timings.drawMs = Math.max(0, t3 - t2 - paletteMs);
    this.timings.inspectMs = t2 - t1 + (t4 - t3);
  }

  /**
   * Draws `gpu` once in `model`'s current pose, not shown, with `paletteRequest` and `method`: builds their shader
   * variants now (a failure throws before anything switches).
   * @throws Error when the surface has no renderer, and as `SkinnedRenderer.draw`
   */
  trialDraw(gpu: GpuModel, model: ItemModel, paletteRequest: PaletteRequest, method: SkinningMethod): void {
    const surface = this.surface;
    if (!surface.renderer) throw new Error(`${gpu.asset.name}: no renderer to draw with`);
    surface.resize();
    this.framing.update(surface.width, surface.height);
    surface.beginFrame(this.background);
    surface.renderer.draw(this.itemFor(gpu, model, paletteRequest, method), this.framing.matrices);
  }

  /** Deletes the skin-once buffers (made again when needed). */
  dispose(): void {
    this.stages.dispose();
  }

  /**
   * The view's render item (made on first use, then rewritten in place: no per-frame allocation) for `gpu` in
   * `model`'s pose and display matrix, with `paletteRequest` and `method`; no inspection view, skinned in the draw.
   */
  private itemFor(gpu: GpuModel, model: ItemModel, paletteRequest: PaletteRequest, method: SkinningMethod): RenderItem {
    const item = this.item ??= createRenderItem(gpu, model.animated);
    item.gpuModel = gpu;
    item.pose = model.animated;
    item.displayMatrix = model.displayMatrix;
    item.paletteRequest = paletteRequest;
    item.method = method;
    item.style = null;
    item.skinnedVertices = null;
    item.materialValues = model.animated.avatar?.materialValues ?? null;
    item.hiddenInstances = this.hiddenInstances;
    item.materialTime = this.materialTime;
    return item;
  }
}
