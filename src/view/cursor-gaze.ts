import { createRay } from '../scene/pick-model.ts';
import type { ModelView } from './model-view.ts';
import { cssToBuffer, PixelRays } from './pixel-ray.ts';

/**
 * Where an avatar looks when its gaze follows the pointer (the element's `look-at="cursor"`, the viewer's VRM panel):
 * the point halfway along the ray through the pointer (in the view's last frame) to the plane through the look-at
 * origin (the head bone's `offsetFromHeadBone`, VRMC_vrm-1.0 `lookAt.md`) facing the camera. Seen from the eyes
 * that point lies where the pointer lies seen from the camera, so the gaze turns by the pointer's angle from the
 * view's centre; the plane itself would put every point beside the head at ±90°, past every range map.
 * Caller-owned scratch; nothing is allocated per call.
 */
export class CursorGaze {
  private readonly rays = new PixelRays();
  private readonly ray = createRay();
  private readonly at = new Float64Array(2);
  private readonly head = new Float64Array(16);

  /**
   * Writes the gaze target (world space, metres) for the pointer at (`clientX`, `clientY`) CSS pixels into `out`.
   * @returns false, leaving `out` as it was, when no avatar with look-at is drawn, or the ray is parallel to the
   *   plane or points away from it
   */
  targetAt(out: Float64Array | number[], view: ModelView, clientX: number, clientY: number): boolean {
    const rect = view.canvas.getBoundingClientRect();
    return view.inspect((frame) => {
      const model = frame.animated, lookAt = model.avatar?.lookAt;
      if (!lookAt) return false;
      cssToBuffer(this.at, clientX - rect.left, clientY - rect.top, Math.max(rect.width, 1), Math.max(rect.height, 1), frame.width, frame.height);
      this.rays.through(this.ray, frame.camera, frame.width, frame.height, this.at[0], this.at[1]);
      // jointMatrix includes the model's world placement: the look-at origin in world space.
      const h = model.jointMatrix(lookAt.head, this.head), o = lookAt.lookAt.offsetFromHeadBone, eye = view.camera.eye;
      const ox = h[0] * o[0] + h[4] * o[1] + h[8] * o[2] + h[12];
      const oy = h[1] * o[0] + h[5] * o[1] + h[9] * o[2] + h[13];
      const oz = h[2] * o[0] + h[6] * o[1] + h[10] * o[2] + h[14];
      const nx = eye[0] - ox, ny = eye[1] - oy, nz = eye[2] - oz;
      const { origin: r, direction: d } = this.ray;
      const denominator = nx * d[0] + ny * d[1] + nz * d[2];
      const t = (nx * (ox - r[0]) + ny * (oy - r[1]) + nz * (oz - r[2])) / denominator;
      if (!(Math.abs(denominator) > 1e-12) || !(t > 0) || !Number.isFinite(t)) return false;
      for (let k = 0; k < 3; k++) out[k] = r[k] + 0.5 * t * d[k];
      return true;
    }) ?? false;
  }
}
