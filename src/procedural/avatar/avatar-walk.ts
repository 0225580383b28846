import { quat } from 'gl-matrix';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';

/** Seconds per walk cycle (two steps). */
export const WALK_PERIOD = 1.2;

/** The bones {@link walkPose} turns, in a fixed order. */
export const WALK_BONES: readonly HumanoidBoneName[] = [
  'hips', 'spine', 'chest', 'neck', 'head', 'leftUpperArm', 'rightUpperArm', 'leftLowerArm', 'rightLowerArm',
  'leftUpperLeg', 'rightUpperLeg', 'leftLowerLeg', 'rightLowerLeg', 'leftFoot', 'rightFoot',
];

const DEG = Math.PI / 180;

/**
 * A walk in place, as normalised humanoid rotations: each bone's rotation relative to its parent in frames aligned
 * with the model's axes (identity = the T-pose facing +Z), the convention of VRM 1.0's normalised bones and of
 * VRMA tracks. Arms drop to the sides (70° from the T-pose) and swing forward and back, legs swing opposite them,
 * knees bend on the forward swing, the hips bob and yaw. A closed loop: `walkPose(t) = walkPose(t + WALK_PERIOD)`.
 * @param rotations written: each of {@link WALK_BONES} → a unit quaternion (x, y, z, w)
 * @param hipsOffset written: the hips' offset from their rest position, metres
 * @param time seconds
 */
export function walkPose(rotations: Map<HumanoidBoneName, quat>, hipsOffset: Float32Array, time: number): void {
  const phase = 2 * Math.PI * time / WALK_PERIOD;
  const s = Math.sin(phase), c2 = Math.cos(2 * phase);
  const set = (bone: HumanoidBoneName, ...turns: [axis: [number, number, number], degrees: number][]): void => {
    const q = quat.identity(rotations.get(bone) ?? quat.create());
    const step = quat.create();
    // Applied in order, each about a model axis: q = qn … q1.
    for (const [axis, degrees] of turns) quat.multiply(q, quat.setAxisAngle(step, axis, degrees * DEG), q);
    rotations.set(bone, q);
  };
  hipsOffset[0] = 0; hipsOffset[1] = 0.02 * c2 - 0.02; hipsOffset[2] = 0;
  set('hips', [[0, 1, 0], 6 * s]);
  set('spine', [[0, 1, 0], -4 * s]);
  set('chest', [[0, 1, 0], -3 * s], [[1, 0, 0], 2]);
  set('neck', [[0, 1, 0], 2 * s]);
  set('head', [[1, 0, 0], 4 * c2], [[0, 1, 0], 3 * s]);
  // Left arm on +X: down is −70° about Z; forward (+Z) swing about X of the lowered arm.
  set('leftUpperArm', [[0, 0, 1], -70], [[1, 0, 0], -25 * s]);
  set('rightUpperArm', [[0, 0, 1], 70], [[1, 0, 0], 25 * s]);
  set('leftLowerArm', [[0, 1, 0], 15 + 10 * s]);
  set('rightLowerArm', [[0, 1, 0], -15 + 10 * s]);
  // Legs along −Y: a negative turn about X swings the foot forward (+Z).
  set('leftUpperLeg', [[1, 0, 0], -25 * s]);
  set('rightUpperLeg', [[1, 0, 0], 25 * s]);
  set('leftLowerLeg', [[1, 0, 0], 30 * Math.max(0, s)]);
  set('rightLowerLeg', [[1, 0, 0], 30 * Math.max(0, -s)]);
  set('leftFoot', [[1, 0, 0], -10 * s]);
  set('rightFoot', [[1, 0, 0], 10 * s]);
}
