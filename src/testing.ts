/**
 * `sinew-gl/testing`: what Sinew offers for verifying its output rather than for showing models — kept out of the
 * `sinew-gl` root so that applications do not ship it. Browser only (WebGL2).
 *
 * - `captureSkinnedVerticesAsync` / `captureSkinnedVertices` / `TransformFeedbackCapture`: the vertices
 *   `shaders/skinned.vert` computes, read back with transform feedback, to hold against `skinVertices` (the CPU
 *   reference) on the same palette. The async forms read back after a fence (no pipeline stall); the
 *   synchronous ones read at once (Chromium logs a performance warning each time).
 * - `readFrame`: a drawn frame's coverage and luminance fingerprint, to tell whether two frames differ.
 */
export {
  captureSkinnedVertices, captureSkinnedVerticesAsync, TransformFeedbackCapture, type CapturedVertices, type SkinnedCaptureRequest,
} from './gpu/skinning/transform-feedback-capture.ts';
export { readFrame, type FrameStats } from './viewer/frame-readback.ts';
