import type { PoseJob } from '../skeleton/pose-job.ts';

/**
 * What runs a model's spring bones (VRMC_springBone 1.0) on its local pose, one instance at a time: the portable
 * `SpringBoneJob` (the reference, f64) or the WebAssembly SIMD kernel in the pose kernel's memory (`pose/`), which
 * must agree with it. A {@link PoseJob}: `apply` runs after the clip, the blending, the avatar's expressions and
 * the node constraints, and before the matrix stages (`AnimatedModel.evaluate`), so the GPU palette and the CPU
 * reference see the same pose. Caller-owned; allocates nothing per frame.
 *
 * Time moves only by {@link step}: an `apply` with no step pending poses the spring joints from the current tails
 * without moving them, so evaluating the same frame twice (bounds, a picture) gives the same pose.
 */
export interface SpringSimulator extends PoseJob {
  /**
   * `Float64Array(16)`, column-major: the model's world matrix (model space → world space), identity by default.
   * Springs are simulated in world space, as three-vrm simulates them in the scene's: gravity and wind are world
   * directions, and a moved or turned model drags its hair. The owner writes it before each `apply`.
   */
  readonly world: Float64Array;
  /**
   * `Float64Array(3)`: a world vector added to every joint's gravity (`gravityDir · gravityPower`, VRMC_springBone
   * 1.0), in the same units (model units per second of tail displacement per second of step): the element's
   * `gravity` plus its `wind`. Zero by default.
   */
  readonly external: Float64Array;
  /** Whether `apply` runs; when false the joints keep the pose the clip gave them. True by default. */
  enabled: boolean;
  /**
   * Seconds the next `apply` advances the simulation by (accumulated until then). With a fixed rate
   * (`springHz`), whole steps of 1 / springHz run and the rest waits; without, one step of dt clamped to the
   * simulator's `maxDt`. dt ≤ 0 or not finite adds nothing.
   */
  step(dt: number): void;
  /**
   * Makes the next `apply` start again from the pose it is given: every tail at its joint's posed rest direction,
   * at rest (no velocity). Also what happens on the first `apply` and after a teleport (a chain's root moved more
   * than `teleportDistance` in one step).
   */
  reset(): void;
}
