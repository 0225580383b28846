import type { ModelAsset } from '../asset/model-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { NodeConstraintJob } from './node-constraint-job.ts';
import { SpringBoneJob, type SpringBoneJobOptions } from './spring-bone-job.ts';
import type { SpringSimulator } from './spring-simulator.ts';

/**
 * Largest change of a spring joint's rotation quaternion component between two applies below which
 * {@link SecondaryMotion.moving} is false: the springs have come to rest.
 */
export const SPRING_REST_TOLERANCE = 1e-5;

/**
 * One model instance's secondary motion (`AnimatedModel.secondaryMotion`): its node constraints, then its spring
 * bones, as one pose job run after the clip, the blending and the avatar's expressions and look-at and before the
 * matrix stages (VRMC_node_constraint 1.0 "Order of evaluation" and three-vrm's `VRM.update`: constraints before
 * springs). Time moves only by {@link step}; {@link apply} without a step re-poses the spring joints from their
 * tails, so evaluating a frame twice gives the same pose.
 *
 * The springs run behind the {@link SpringSimulator} interface: the portable {@link SpringBoneJob} by default, or
 * the WebAssembly kernel assigned to {@link springs}. {@link world} and {@link external} are copied into whichever
 * simulator runs, before each apply.
 */
export class SecondaryMotion implements PoseJob {
  /** Whether {@link apply} runs at all (constraints and springs); off, the pose stays as the clip made it. */
  enabled = true;
  /** The spring simulator, or null when the model has no spring bones. Replaceable (the WebAssembly kernel). */
  springs: SpringSimulator | null;
  /** The node constraints, or null when the model has none. */
  constraints: NodeConstraintJob | null;
  /**
   * `Float64Array(16)`, column-major: the model's world matrix (its pose's model space → world space), identity
   * by default; `AnimatedModel.evaluate` writes its `world` here. Springs simulate in world space.
   */
  readonly world = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  /**
   * `Float64Array(3)`: a world vector (model units per second², as `gravityDir · gravityPower` reads per second of
   * step) added to every spring joint's gravity: the element's `gravity` plus its `wind`. Zero by default.
   */
  readonly external = new Float64Array(3);
  /** `Int32Array`: the joints the springs rotate (each once). */
  private readonly springJoints: Int32Array;
  /** `Float32Array(4·springJoints.length)`: their rotations after the last apply. */
  private readonly lastRotations: Float32Array;
  private movingValue = false;

  /**
   * Builds the jobs of `asset.secondaryMotion` (none when it has none: {@link springs} and {@link constraints} null).
   * @param options the portable spring job's time options ({@link SpringBoneJobOptions})
   * @throws RangeError from the jobs for joint indices outside the skeleton or bad options
   */
  constructor(asset: ModelAsset, options: SpringBoneJobOptions = {}) {
    const motion = asset.secondaryMotion;
    const springBone = motion?.springBone ?? null;
    this.springs = springBone && springBone.springs.length > 0 ? new SpringBoneJob(springBone, asset.skeleton, asset.restPose, options) : null;
    this.constraints = motion && motion.nodeConstraints.length > 0 ? new NodeConstraintJob(motion.nodeConstraints, asset.skeleton, asset.restPose) : null;
    const joints = new Set<number>();
    for (const spring of springBone?.springs ?? []) {
      const simulated = spring.virtualTail ? spring.joints.length : spring.joints.length - 1;
      for (let k = 0; k < simulated; k++) joints.add(spring.joints[k].node);
    }
    this.springJoints = Int32Array.from(joints);
    this.lastRotations = new Float32Array(4 * joints.size);
  }

  /** Whether the model has anything to run (spring bones or node constraints). */
  get present(): boolean {
    return this.springs !== null || this.constraints !== null;
  }

  /**
   * Whether the last apply turned a spring joint by more than {@link SPRING_REST_TOLERANCE} (per quaternion
   * component): the springs are still settling, so a paused view keeps drawing frames.
   */
  get moving(): boolean {
    return this.movingValue;
  }

  /** Adds `dt` seconds for the springs' next apply (`SpringSimulator.step`). dt ≤ 0 or not finite adds nothing. */
  step(dt: number): void {
    if (this.enabled) this.springs?.step(dt);
  }

  /** The springs start again from the pose of the next apply (`SpringSimulator.reset`). */
  reset(): void {
    this.springs?.reset();
  }

  apply(pose: LocalPose, skeleton: Skeleton): void {
    if (!this.enabled) { this.movingValue = false; this.springs?.reset(); return; }
    this.constraints?.apply(pose, skeleton);
    const springs = this.springs;
    if (!springs) return;
    springs.world.set(this.world);
    springs.external.set(this.external);
    springs.apply(pose, skeleton);
    const joints = this.springJoints, last = this.lastRotations, R = pose.rotations;
    let moving = false;
    for (let i = 0; i < joints.length; i++) {
      const o = 4 * joints[i], l = 4 * i;
      for (let k = 0; k < 4; k++) {
        if (!(Math.abs(R[o + k] - last[l + k]) <= SPRING_REST_TOLERANCE)) moving = true;
        last[l + k] = R[o + k];
      }
    }
    this.movingValue = moving && springs.enabled;
  }
}
