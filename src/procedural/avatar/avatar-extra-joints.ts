import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES, avatarBoneIndex } from './avatar-bones.ts';
import { AVATAR_CONSTRAINT_JOINTS } from './avatar-constraints.ts';
import { AVATAR_SPRING_JOINTS, type AvatarExtraJoint } from './avatar-springs.ts';

/**
 * The joints the generated VRM avatars add after the 55 humanoid bones, parents first: the spring chains' joints
 * ({@link AVATAR_SPRING_JOINTS}), then the constraints' ({@link AVATAR_CONSTRAINT_JOINTS}). Skin joint
 * `AVATAR_BONES.length + i` is extra joint i.
 */
export const AVATAR_EXTRA_JOINTS: readonly AvatarExtraJoint[] = [...AVATAR_SPRING_JOINTS, ...AVATAR_CONSTRAINT_JOINTS];

/**
 * Skin joint index of a humanoid bone or an extra joint, by glTF node name.
 * @throws Error if no joint has that name
 */
export function avatarJointIndex(name: string): number {
  const extra = AVATAR_EXTRA_JOINTS.findIndex((joint) => joint.name === name);
  if (extra >= 0) return AVATAR_BONES.length + extra;
  return avatarBoneIndex(name as HumanoidBoneName);
}

/** Model-space rest position of a humanoid bone or extra joint, metres. @throws Error if no joint has that name */
export function avatarJointPosition(name: string): readonly [number, number, number] {
  const index = avatarJointIndex(name);
  return index < AVATAR_BONES.length ? AVATAR_BONES[index].position : AVATAR_EXTRA_JOINTS[index - AVATAR_BONES.length].position;
}
