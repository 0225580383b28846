import type { HumanoidBoneName, HumanoidMap } from '../asset/avatar-asset.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { JointMatch } from './match-joints.ts';

/**
 * Pairs each target joint with a source joint through the two sides' humanoid maps (VRMC_vrm-1.0 `humanoid.md`,
 * VRMC_vrm_animation-1.0 `humanoid`): the target joint of humanoid bone B is driven by the source joint of B, for
 * every bone both maps have; every other target joint is unmatched and keeps its rest pose. Names play no part
 * (three-vrm's `createVRMAnimationClip` drives only the humanoid's bones, too). Map entries that are not joints of
 * their skeleton (out of range) are skipped. Set-up, not per frame.
 * @returns a {@link JointMatch} as `matchJoints` gives, for retargetMatchedClip
 */
export function matchByHumanoid(sourceHumanoid: HumanoidMap, source: Skeleton, targetHumanoid: HumanoidMap, target: Skeleton): JointMatch {
  const sourceOf = new Int32Array(target.jointCount).fill(-1);
  for (const [bone, joint] of Object.entries(targetHumanoid.bones) as [HumanoidBoneName, number | undefined][]) {
    const s = sourceHumanoid.bones[bone];
    if (joint === undefined || s === undefined) continue;
    if (joint >= 0 && joint < target.jointCount && s >= 0 && s < source.jointCount) sourceOf[joint] = s;
  }
  const matched: string[] = [];
  const unmatched: string[] = [];
  for (let j = 0; j < target.jointCount; j++) {
    const name = target.names[j] || `#${j}`;
    (sourceOf[j] < 0 ? unmatched : matched).push(name);
  }
  return { sourceOf, matched, unmatched };
}
