import type { PoseKernelBackend } from '../pose/pose-kernel.ts';
import { POSE_KERNEL_WORDS } from './panel-words.ts';

/** The frame statistics the Stats folder shows. */
export interface PanelStats {
  /** Frames per second over the last second. */
  readonly fps: number;
  /** Mean milliseconds between frames. */
  readonly frameMs: number;
  /** Mean milliseconds per frame of each part (`FrameTimings`, src/view/frame-inspector.ts). */
  readonly poseMs: number;
  readonly uploadMs: number;
  readonly drawMs: number;
  readonly inspectMs: number;
  readonly drawCalls: number;
  /** Joints of the model's skins (distinct; every node for a model without skins), as the summary counts them. */
  readonly joints: number;
  readonly vertices: number;
  /** Palette bytes sent to the GPU per frame. */
  readonly paletteBytes: number;
  /** How the pose's matrix stages compute (`PoseKernel.backend`), or null with no model. */
  readonly poseKernel: PoseKernelBackend | null;
}

/** The Stats folder's text: rate, each stage's milliseconds, draw calls, joints, vertices and palette bytes. */
export function formatPanelStats(s: PanelStats): string {
  return [
    `${s.fps.toFixed(0)} fps · ${s.frameMs.toFixed(1)} ms / frame`,
    `pose (CPU${s.poseKernel ? `, matrices: ${POSE_KERNEL_WORDS[s.poseKernel]}` : ''}) ${s.poseMs.toFixed(2)} ms`,
    `palette upload ${s.uploadMs.toFixed(2)} ms`,
    `draw calls ${s.drawMs.toFixed(2)} ms`,
    `debug views ${s.inspectMs.toFixed(2)} ms`,
    `${s.drawCalls} draw calls · ${s.joints} joints`,
    `${s.vertices} vertices · palette ${formatBytes(s.paletteBytes)} / frame`,
  ].join('\n');
}

/** Bytes in B below 1 KiB, else KiB to one decimal. */
function formatBytes(bytes: number): string {
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
}
