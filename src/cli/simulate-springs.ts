import { InvalidArgumentError } from 'commander';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { PoseSource } from '../scene/pose-source.ts';
import { DEFAULT_SPRING_MAX_DT, SpringBoneJob } from '../secondary/spring-bone-job.ts';

/** Most fixed steps `sinew eval --springs HZ --time T` runs (round(T·HZ)); more is a usage error. */
export const MAX_EVAL_SPRING_STEPS = 1_000_000;

/**
 * `--springs HZ`: the fixed simulation rate, steps per second, a finite number > 0 and at most 10 000.
 * @throws InvalidArgumentError (a usage error) for any other text
 */
export function parseSpringHz(value: string): number {
  const hz = Number(value);
  if (value.trim() === '' || !Number.isFinite(hz) || hz <= 0 || hz > 10_000) {
    throw new InvalidArgumentError('It must be a rate in steps per second greater than 0 and at most 10000, e.g. 60.');
  }
  return hz;
}

/** The steps `--springs HZ --time T` runs: round(T·HZ), none for T ≤ 0. @throws InvalidArgumentError past {@link MAX_EVAL_SPRING_STEPS} */
export function springStepCount(hz: number, seconds: number): number {
  const steps = Math.max(0, Math.round(seconds * hz));
  if (steps > MAX_EVAL_SPRING_STEPS) {
    throw new InvalidArgumentError(`--springs ${hz} --time ${seconds} is ${steps} steps; at most ${MAX_EVAL_SPRING_STEPS} (a lower rate or a shorter time)`);
  }
  return steps;
}

/**
 * Evaluates `animated` at `seconds` with its secondary motion simulated at a fixed rate from t = 0, in the order
 * three-vrm's `vrm.update(delta)` uses (the clip posed first, then the springs advanced by delta on that pose):
 * 1. the springs are reset and the model is evaluated at the pose of t = 0 (`poseAt(0)`): the tails start there;
 * 2. for each k = 1 … round(seconds·hz): the secondary motion is stepped by 1/hz (`SecondaryMotion.step`) and the
 *    model evaluated at the pose of k/hz (`poseAt(k / hz)`), which runs the springs one step of 1/hz.
 * A rate below 20 Hz would have its steps clamped by the spring job's default `maxDt`
 * (`DEFAULT_SPRING_MAX_DT`): the springs then run a portable job whose `maxDt` is 1/hz, so every step is 1/hz.
 * After it, `animated` holds the pose of the last step (k = round(seconds·hz), t = k/hz).
 * @param poseAt the pose source at t seconds (the clip sample with the avatar inputs applied)
 * @returns the number of steps run
 * @throws Error when the model has no spring bones; InvalidArgumentError from {@link springStepCount}
 */
export function simulateSprings(animated: AnimatedModel, poseAt: (seconds: number) => PoseSource, hz: number, seconds: number): number {
  const motion = animated.secondaryMotion, springBone = animated.asset.secondaryMotion?.springBone;
  if (!motion?.springs || !springBone) throw new Error(`${animated.asset.name}: no spring bones to simulate`);
  const steps = springStepCount(hz, seconds);
  if (1 / hz > DEFAULT_SPRING_MAX_DT) {
    motion.springs = new SpringBoneJob(springBone, animated.asset.skeleton, animated.asset.restPose, { maxDt: 1 / hz });
  }
  motion.enabled = true;
  motion.springs.enabled = true;
  motion.reset();
  animated.evaluate(poseAt(0));
  for (let k = 1; k <= steps; k++) {
    motion.step(1 / hz);
    animated.evaluate(poseAt(k / hz));
  }
  return steps;
}
