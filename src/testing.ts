/**
 * `sinew/testing`: what Sinew offers for verifying its output rather than for showing models — kept out of the
 * `sinew` root so that applications do not ship it. Browser only (WebGL2).
 *
 * - `captureSkinnedVertices` / `TransformFeedbackCapture`: the vertices `shaders/skinned.vert` computes, read
 *   back with transform feedback, to hold against `skinVertices` (the CPU reference) on the same palette.
 * - `readFrame`: a drawn frame's coverage and luminance fingerprint, to tell whether two frames differ.
 */
export {
  captureSkinnedVertices, TransformFeedbackCapture, type CapturedVertices,
} from './gl/transform-feedback-capture.ts';
export { readFrame, type FrameStats } from './viewer/frame-readback.ts';
