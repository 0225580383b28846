import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import type { AnimatedModel } from './animated-model.ts';
import { createRay, createSurfaceHit, pickModel, PickContext, type Ray, type SurfaceHit } from './pick-model.ts';

/**
 * Default tolerance of {@link PointOcclusion.crossings}: a fraction of the eye–point distance around the point
 * within which a surface does not count, so that a point on the surface is not hidden by its own triangle.
 */
export const OCCLUSION_TOLERANCE = 1e-3;

/**
 * How far past each crossing the next search starts (fraction of the eye–point distance): a triangle met there
 * again, or its neighbour across an edge the ray passes through, is not counted twice.
 */
const STEP = 1e-5;

/**
 * Whether the model hides a point from an eye, by the CPU: picking rays ({@link pickModel}) against the model's
 * surface as posed by its last `evaluate`, so it is exact for that pose and never reads the GPU back (no
 * pipeline stall). Caller-owned scratch for one model (its {@link PickContext}); allocates nothing per call.
 */
export class PointOcclusion {
  readonly model: AnimatedModel;
  private readonly context: PickContext;
  private readonly ray: Ray = createRay();
  private readonly hit: SurfaceHit = createSurfaceHit();

  constructor(model: AnimatedModel) {
    this.model = model;
    this.context = new PickContext(model);
  }

  /**
   * How many times the segment from `eye` to `point` (world space, `AnimatedModel.world`'s target) passes
   * through the model's surface before reaching the point, counting at most `limit`; surfaces within
   * `tolerance` × the segment's length of the point do not count. A point outside the model is in plain
   * view at 0; a point inside it (a joint in its limb) at 1, when only its own skin lies in front. Each count
   * costs one `pickModel`.
   * @param eye `ArrayLike<number>(3)`: the camera's position
   * @param point `ArrayLike<number>(3)`
   * @param method the skinning the frame was drawn with
   */
  crossings(eye: ArrayLike<number>, point: ArrayLike<number>, limit: number, method: SkinningMethod = DEFAULT_SKINNING_METHOD, tolerance = OCCLUSION_TOLERANCE): number {
    const { origin, direction } = this.ray;
    for (let a = 0; a < 3; a++) direction[a] = point[a] - eye[a];
    // With direction = point − eye, the ray parameter is the fraction of the segment: the point is at t = 1.
    let start = 0, count = 0;
    while (count < limit) {
      for (let a = 0; a < 3; a++) origin[a] = eye[a] + start * direction[a];
      const hit = pickModel(this.model, this.ray, this.hit, this.context, method);
      if (!hit) break;
      const t = start + hit.distance;
      if (!(t < 1 - tolerance)) break;
      count++;
      start = t + STEP;
    }
    return count;
  }
}
