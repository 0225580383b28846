import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';

/**
 * One joint of the generated avatar's skeleton: a VRM 1.0 humanoid bone, its parent and where it sits in the
 * bind pose.
 */
export interface AvatarBone {
  readonly name: HumanoidBoneName;
  /** Index of the parent in {@link AVATAR_BONES}, or −1 for the root (`hips`). Parents come first. */
  readonly parent: number;
  /** Model-space position in the T-pose, metres, facing +Z with the avatar's left on +X (VRM 1.0). */
  readonly position: readonly [number, number, number];
  /**
   * Where the bone's limb part ends, metres, model space: the child it points at, or a tip for end bones
   * (finger tips, toe tips, the top of the head); null for bones with no limb part of their own (eyes, jaw).
   */
  readonly tail: readonly [number, number, number] | null;
}

type Vec3 = readonly [number, number, number];
type Side = 'left' | 'right';

const FINGERS = ['Index', 'Middle', 'Ring', 'Little'] as const;

/** Finger bases relative to the hand joint (left side), metres: index forward (+Z) to little backward. */
const FINGER_BASE: Record<(typeof FINGERS)[number], Vec3> = {
  Index: [0.085, 0, 0.03], Middle: [0.09, 0, 0.01], Ring: [0.085, 0, -0.01], Little: [0.075, 0, -0.03],
};
/** Proximal, intermediate and distal phalanx lengths, metres. */
const PHALANGES: Record<(typeof FINGERS)[number], readonly [number, number, number]> = {
  Index: [0.035, 0.025, 0.02], Middle: [0.04, 0.028, 0.022], Ring: [0.036, 0.025, 0.02], Little: [0.028, 0.02, 0.018],
};

function buildBones(): AvatarBone[] {
  const bones: AvatarBone[] = [];
  const indexOf = (name: HumanoidBoneName): number => bones.findIndex((bone) => bone.name === name);
  const add = (name: HumanoidBoneName, parent: HumanoidBoneName | null, position: Vec3, tail: Vec3 | null): void => {
    bones.push({ name, parent: parent === null ? -1 : indexOf(parent), position, tail });
  };
  add('hips', null, [0, 0.92, 0], [0, 1.0, 0]);
  add('spine', 'hips', [0, 1.0, 0], [0, 1.1, 0]);
  add('chest', 'spine', [0, 1.1, 0], [0, 1.22, 0]);
  add('upperChest', 'chest', [0, 1.22, 0], [0, 1.36, 0]);
  add('neck', 'upperChest', [0, 1.36, 0], [0, 1.44, 0]);
  add('head', 'neck', [0, 1.44, 0], [0, 1.62, 0]);
  add('leftEye', 'head', [0.032, 1.535, 0.078], null);
  add('rightEye', 'head', [-0.032, 1.535, 0.078], null);
  add('jaw', 'head', [0, 1.47, 0.03], null);
  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    const at = (x: number, y: number, z: number): Vec3 => [s * x, y, z];
    add(`${side}UpperLeg`, 'hips', at(0.09, 0.88, 0), at(0.09, 0.48, 0));
    add(`${side}LowerLeg`, `${side}UpperLeg`, at(0.09, 0.48, 0), at(0.09, 0.08, 0));
    add(`${side}Foot`, `${side}LowerLeg`, at(0.09, 0.08, 0), at(0.09, 0.03, 0.12));
    add(`${side}Toes`, `${side}Foot`, at(0.09, 0.03, 0.12), at(0.09, 0.03, 0.18));
  }
  for (const side of ['left', 'right'] as const) addArm(side, add);
  return bones;
}

/** The shoulder, arm, hand and finger bones of one side, in T-pose (arm along ±X). */
function addArm(side: Side, add: (name: HumanoidBoneName, parent: HumanoidBoneName | null, position: Vec3, tail: Vec3 | null) => void): void {
  const s = side === 'left' ? 1 : -1;
  const at = (x: number, y: number, z: number): Vec3 => [s * x, y, z];
  const handX = 0.66, armY = 1.32;
  add(`${side}Shoulder`, 'upperChest', at(0.03, armY, 0), at(0.16, armY, 0));
  add(`${side}UpperArm`, `${side}Shoulder`, at(0.16, armY, 0), at(0.42, armY, 0));
  add(`${side}LowerArm`, `${side}UpperArm`, at(0.42, armY, 0), at(handX, armY, 0));
  add(`${side}Hand`, `${side}LowerArm`, at(handX, armY, 0), at(handX + 0.075, armY, 0));
  // The thumb leaves the hand forward (+Z) and outward, slightly below the palm's plane.
  const thumb: Vec3[] = [[handX + 0.025, armY - 0.01, 0.03], [handX + 0.05, armY - 0.018, 0.055], [handX + 0.075, armY - 0.02, 0.07], [handX + 0.095, armY - 0.02, 0.08]];
  add(`${side}ThumbMetacarpal`, `${side}Hand`, at(...thumb[0]), at(...thumb[1]));
  add(`${side}ThumbProximal`, `${side}ThumbMetacarpal`, at(...thumb[1]), at(...thumb[2]));
  add(`${side}ThumbDistal`, `${side}ThumbProximal`, at(...thumb[2]), at(...thumb[3]));
  for (const finger of FINGERS) {
    const [bx, , bz] = FINGER_BASE[finger];
    const [l0, l1, l2] = PHALANGES[finger];
    const x0 = handX + bx, x1 = x0 + l0, x2 = x1 + l1, x3 = x2 + l2;
    add(`${side}${finger}Proximal`, `${side}Hand`, at(x0, armY, bz), at(x1, armY, bz));
    add(`${side}${finger}Intermediate`, `${side}${finger}Proximal`, at(x1, armY, bz), at(x2, armY, bz));
    add(`${side}${finger}Distal`, `${side}${finger}Intermediate`, at(x2, armY, bz), at(x3, armY, bz));
  }
}

/**
 * The generated avatar's skeleton: every VRM 1.0 humanoid bone (VRMC_vrm-1.0 `humanoid.md`), the 55 required and
 * optional ones, parents before children, in a T-pose facing +Z (the avatar's left on +X), about 1.62 m tall,
 * metres. The skin's joint i is bone i.
 */
export const AVATAR_BONES: readonly AvatarBone[] = buildBones();

/** Index of a humanoid bone in {@link AVATAR_BONES}. @throws Error if the name is not a bone of the avatar. */
export function avatarBoneIndex(name: HumanoidBoneName): number {
  const index = AVATAR_BONES.findIndex((bone) => bone.name === name);
  if (index < 0) throw new Error(`avatar-bones: no bone named ${name}`);
  return index;
}
