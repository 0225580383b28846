import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { HUMANOID_BONES, HUMANOID_BONE_NAMES, isHumanoidBoneName } from '../../humanoid/humanoid-bones.ts';

export { HUMANOID_BONE_NAMES, isHumanoidBoneName };

/** The 15 bones every VRM humanoid has (VRMC_vrm-1.0 `humanoid.md`, "Required"; the humanoid room's table). */
export const REQUIRED_HUMANOID_BONES: readonly HumanoidBoneName[] = HUMANOID_BONES.filter((b) => b.required).map((b) => b.name);

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
