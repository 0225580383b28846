import { paletteStride } from '../gpu/skinning/palette-path.ts';
import { addTimings, type FrameTimings } from '../view/frame-inspector.ts';
import type { ModelView } from '../view/model-view.ts';
import { pickableJoints } from './inspection.ts';
import type { PanelStats } from './viewer-panel.ts';

/** How long the panel's frame statistics average over before they are shown again. */
const REPORT_EVERY_MS = 500;

/**
 * Counts the viewer's drawn frames and their stage timings; twice a second hands the averages to the panel
 * ({@link frameStats}). Allocates only when it reports.
 */
export class FrameStatsCounter {
  private frames = 0;
  private sinceMs = -1;
  private readonly sums: FrameTimings = { poseMs: 0, uploadMs: 0, drawMs: 0, inspectMs: 0 };

  /**
   * Counts a frame drawn by `view` at `nowMs` (`performance.now()`); once `REPORT_EVERY_MS` have passed, calls
   * `report` with the frames, the milliseconds they took and their summed timings, and starts again.
   */
  count(view: ModelView, nowMs: number, report: (frames: number, elapsedMs: number, sums: FrameTimings) => void): void {
    if (this.sinceMs < 0) this.sinceMs = nowMs;
    this.frames++;
    addTimings(this.sums, view.timings);
    const elapsed = nowMs - this.sinceMs;
    if (elapsed < REPORT_EVERY_MS) return;
    report(this.frames, elapsed, this.sums);
    this.frames = 0;
    this.sinceMs = nowMs;
    this.sums.poseMs = this.sums.uploadMs = this.sums.drawMs = this.sums.inspectMs = 0;
  }
}

/**
 * The panel's statistics from `frames` frames over `elapsedMs` whose timings add up to `sums`, and the shown
 * model's draw calls (two a primitive with the wireframe on), joints, vertices and palette bytes.
 */
export function frameStats(view: ModelView, wireframe: boolean, frames: number, elapsedMs: number, sums: FrameTimings): PanelStats {
  const asset = view.asset;
  let drawCalls = 0, vertices = 0, paletteBytes = 0;
  const stride = paletteStride(view.state().method.skinning);
  if (asset) {
    for (const instance of asset.meshInstances) {
      for (const p of asset.meshes[instance.mesh].primitives) {
        drawCalls += wireframe ? 2 : 1;
        vertices += p.vertexCount;
      }
    }
    for (const skin of asset.skins) paletteBytes += 16 * stride * skin.joints.length;
  }
  return {
    fps: (1000 * frames) / elapsedMs, frameMs: elapsedMs / frames,
    poseMs: sums.poseMs / frames, uploadMs: sums.uploadMs / frames, drawMs: sums.drawMs / frames, inspectMs: sums.inspectMs / frames,
    drawCalls, joints: asset ? pickableJoints(asset).length : 0, vertices, paletteBytes, poseKernel: view.poseKernelBackend,
  };
}
