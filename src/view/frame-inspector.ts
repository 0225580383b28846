import type { DrawStyle } from '../gpu/passes/renderer.ts';
import type { ViewFrame } from './view-frame.ts';

/**
 * Inspection views around a {@link ModelView}'s draw (the viewer page's debug views): `styleFor` picks the
 * renderer's {@link DrawStyle} for the frame, `overlay` draws on top (skeleton, bounds, normals) with the
 * renderer's `lastViewProjection`. Both run inside the frame and must not allocate once warmed up.
 */
export interface FrameInspector {
  /** The draw style of this frame, or undefined for the plain lit model. */
  styleFor(frame: ViewFrame): DrawStyle | undefined;
  /** Draws overlays after the model. */
  overlay(frame: ViewFrame): void;
}

/** Milliseconds spent on the last frame drawn by a {@link ModelView}, rewritten each frame. */
export interface FrameTimings {
  /** Posing: sampling the clips, local → model matrices, palettes (`AnimatedModel.evaluate`). */
  poseMs: number;
  /** The renderer's palette packing and upload (`SkinnedRenderer.lastPaletteMs`; submission, not GPU time). */
  uploadMs: number;
  /** The rest of the renderer's draw (state, textures and draw calls) and the view's frame stages (submission, not GPU time). */
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
