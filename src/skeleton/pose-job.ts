import type { LocalPose } from './local-pose.ts';
import type { Skeleton } from './skeleton.ts';

/**
 * A job that rewrites a local pose after sampling and blending, before the matrix stages (ozz-animation's
 * runtime jobs: inputs set up once, caller-owned state, run every frame): inverse kinematics, procedural
 * corrections. `AnimatedModel.evaluate` runs its `poseJobs` in order on the pose it just sampled, so the
 * model-space matrices, the skinning matrices, the GPU palette and the CPU reference all see the corrected
 * pose, and blending, layers and the GPU path stay as they are.
 */
export interface PoseJob {
  /**
   * Rewrites `pose` (over `skeleton`, the pose's model space: the roots' space, no model origin subtracted)
   * in place. Must not allocate, must not throw for any input it accepted when it was set up, and must leave
   * no NaN in the pose.
   */
  apply(pose: LocalPose, skeleton: Skeleton): void;
}
