import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';

/**
 * Every VRM 1.0 humanoid bone (VRMC_vrm-1.0 `humanoid.md` "List of Humanoid Bones"), torso first, then legs,
 * arms and fingers: the 55 keys `humanoid.humanBones` may have.
 */
export const HUMANOID_BONE_NAMES: readonly HumanoidBoneName[] = [
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head', 'leftEye', 'rightEye', 'jaw',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftThumbMetacarpal', 'leftThumbProximal', 'leftThumbDistal', 'leftIndexProximal', 'leftIndexIntermediate', 'leftIndexDistal',
  'leftMiddleProximal', 'leftMiddleIntermediate', 'leftMiddleDistal', 'leftRingProximal', 'leftRingIntermediate', 'leftRingDistal',
  'leftLittleProximal', 'leftLittleIntermediate', 'leftLittleDistal',
  'rightThumbMetacarpal', 'rightThumbProximal', 'rightThumbDistal', 'rightIndexProximal', 'rightIndexIntermediate', 'rightIndexDistal',
  'rightMiddleProximal', 'rightMiddleIntermediate', 'rightMiddleDistal', 'rightRingProximal', 'rightRingIntermediate', 'rightRingDistal',
  'rightLittleProximal', 'rightLittleIntermediate', 'rightLittleDistal',
];

/** The 15 bones every VRM humanoid has (VRMC_vrm-1.0 `humanoid.md`, "Required" column; VRM 0.x the same). */
export const REQUIRED_HUMANOID_BONES: readonly HumanoidBoneName[] = [
  'hips', 'spine', 'head', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot',
  'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm', 'rightHand',
];

/**
 * VRM 0.x (and 1.0-beta) thumb names → VRM 1.0's: 0.x counts the thumb from its proximal bone, 1.0 from the
 * metacarpal, so each 0.x thumb bone is the 1.0 bone one step up the name list (three-vrm's humanoid loader
 * renames them the same way). 0.x `thumbDistal` stays `thumbDistal`.
 */
export const VRM0_THUMB_NAMES: Readonly<Record<string, HumanoidBoneName>> = {
  leftThumbProximal: 'leftThumbMetacarpal',
  leftThumbIntermediate: 'leftThumbProximal',
  rightThumbProximal: 'rightThumbMetacarpal',
  rightThumbIntermediate: 'rightThumbProximal',
};

const BONE_SET: ReadonlySet<string> = new Set(HUMANOID_BONE_NAMES);

/** True when `name` is a VRM 1.0 humanoid bone name. */
export function isHumanoidBoneName(name: string): name is HumanoidBoneName {
  return BONE_SET.has(name);
}
