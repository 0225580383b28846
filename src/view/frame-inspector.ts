import type { CameraMatrices, DrawStyle, GpuModel, PalettePath, SkinnedRenderer } from '../gl/renderer.ts';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';

/**
 * What a {@link ModelView} hands its {@link FrameInspector} each frame: one object, rewritten in place
 * (no per-frame allocation), valid during the call only.
 */
export interface InspectedFrame {
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
}

/**
 * Inspection views around a {@link ModelView}'s draw (the viewer page's debug views): `styleFor` picks the
 * renderer's {@link DrawStyle} for the frame, `overlay` draws on top (skeleton, bounds, normals) with the
 * renderer's `lastViewProjection`. Both run inside the frame and must not allocate once warmed up.
 */
export interface FrameInspector {
  /** The draw style of this frame, or undefined for the plain lit model. */
  styleFor(frame: InspectedFrame): DrawStyle | undefined;
  /** Draws overlays after the model. */
  overlay(frame: InspectedFrame): void;
}

/** Milliseconds spent on the last frame drawn by a {@link ModelView}, rewritten each frame. */
export interface FrameTimings {
  /** Posing: sampling the clips, local → model matrices, palettes (`AnimatedModel.evaluate`). */
  poseMs: number;
  /** The renderer's palette packing and upload (`SkinnedRenderer.lastPaletteMs`; submission, not GPU time). */
  uploadMs: number;
  /** The rest of the renderer's draw: state, textures and draw calls (submission, not GPU time). */
  drawMs: number;
  /** The inspector's style and overlays (0 without one). */
  inspectMs: number;
}

/** Adds each of `t`'s timings to `sums`'. */
export function addTimings(sums: FrameTimings, t: Readonly<FrameTimings>): void {
  sums.poseMs += t.poseMs;
  sums.uploadMs += t.uploadMs;
  sums.drawMs += t.drawMs;
  sums.inspectMs += t.inspectMs;
}
