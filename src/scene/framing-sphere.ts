import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimatedModel } from './animated-model.ts';
import { forEachModelVertex } from './model-bounds.ts';
import { ModelVertexSkinner } from './model-vertex-skinner.ts';

/** What `<model-viewer>`'s framing measures of a model around the orbit target (its `ModelScene.updateFraming`). */
export interface FramingSphere {
  /** Metres: the largest distance from the target to a vertex. */
  readonly radius: number;
  /**
   * The width / height below which the framed field of view must widen so that no vertex leaves the picture at
   * any yaw: `max(radiusXZ / (idealDistance − |y|)) / tan(fov / 2)` over the vertices, relative to the target.
   */
  readonly idealAspect: number;
}

/**
 * Measures a model at its current pose as `<model-viewer>` frames it (ModelScene.ts, `updateFraming` and
 * `idealCameraDistance`): the sphere around `center` that holds every vertex, and the aspect ratio that keeps
 * the model inside a vertical field of view `framedFov` at the distance `radius / sin(framedFov / 2)` from any
 * side. Two passes over the vertices, one skinning kernel per skinned primitive for both ({@link forEachModelVertex}):
 * for framing, not per frame.
 * @param center the orbit target in display space, metres
 * @param framedFov the framed vertical field of view, radians (model-viewer's `field-of-view`, 30° for `auto`)
 * @returns radius 1 and aspect 0 for a model without finite vertices
 */
export function measureFramingSphere(
  asset: ModelAsset, animated: AnimatedModel, displayMatrix: Float32Array | undefined,
  center: ArrayLike<number>, framedFov: number,
): FramingSphere {
  const cx = center[0], cy = center[1], cz = center[2];
  let radiusSq = 0;
  const skinner = new ModelVertexSkinner();
  forEachModelVertex(asset, animated, displayMatrix, (x, y, z) => {
    const dx = x - cx, dy = y - cy, dz = z - cz;
    radiusSq = Math.max(radiusSq, dx * dx + dy * dy + dz * dz);
  }, skinner);
  const radius = radiusSq > 0 ? Math.sqrt(radiusSq) : 1;
  const idealDistance = radius / Math.sin(framedFov / 2);
  let maxTan = 0;
  forEachModelVertex(asset, animated, displayMatrix, (x, y, z) => {
    const dx = x - cx, dz = z - cz;
    maxTan = Math.max(maxTan, Math.hypot(dx, dz) / (idealDistance - Math.abs(y - cy)));
  }, skinner);
  return { radius, idealAspect: maxTan / Math.tan(framedFov / 2) };
}
