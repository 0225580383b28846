import type { HumanoidBoneName } from '../asset/avatar-asset.ts';

/**
 * One humanoid bone of VRM 1.0 (VRMC_vrm-1.0 `humanoid.md`, "Humanoid Bones"): its name, the humanoid bone it hangs
 * from in the specification's hierarchy (null for `hips`), and whether every VRM must map it.
 */
export interface HumanoidBone {
  readonly name: HumanoidBoneName;
  readonly parent: HumanoidBoneName | null;
  readonly required: boolean;
}

type Side = 'left' | 'right';
const SIDES: readonly Side[] = ['left', 'right'];

function bone(name: string, parent: string | null, required = false): HumanoidBone {
  return { name: name as HumanoidBoneName, parent: parent as HumanoidBoneName | null, required };
}

/** `left`/`right` + a capitalised part: `sided('left', 'UpperArm')` → `leftUpperArm`. */
function sided(side: Side, part: string): string {
  return side + part;
}

function limbs(): HumanoidBone[] {
  const out: HumanoidBone[] = [];
  for (const s of SIDES) {
    out.push(bone(sided(s, 'UpperLeg'), 'hips', true), bone(sided(s, 'LowerLeg'), sided(s, 'UpperLeg'), true),
      bone(sided(s, 'Foot'), sided(s, 'LowerLeg'), true), bone(sided(s, 'Toes'), sided(s, 'Foot')));
  }
  for (const s of SIDES) {
    out.push(bone(sided(s, 'Shoulder'), 'upperChest'), bone(sided(s, 'UpperArm'), sided(s, 'Shoulder'), true),
      bone(sided(s, 'LowerArm'), sided(s, 'UpperArm'), true), bone(sided(s, 'Hand'), sided(s, 'LowerArm'), true));
  }
  return out;
}

function fingers(): HumanoidBone[] {
  const out: HumanoidBone[] = [];
  for (const s of SIDES) {
    const hand = sided(s, 'Hand');
    out.push(bone(sided(s, 'ThumbMetacarpal'), hand), bone(sided(s, 'ThumbProximal'), sided(s, 'ThumbMetacarpal')),
      bone(sided(s, 'ThumbDistal'), sided(s, 'ThumbProximal')));
    for (const finger of ['Index', 'Middle', 'Ring', 'Little']) {
      const f = sided(s, finger);
      out.push(bone(`${f}Proximal`, hand), bone(`${f}Intermediate`, `${f}Proximal`), bone(`${f}Distal`, `${f}Intermediate`));
    }
  }
  return out;
}

/**
 * The 55 humanoid bones of VRM 1.0 (VRMC_vrm-1.0 `humanoid.md`), parents before children, in the order of the
 * specification's table (torso, head, legs, arms, fingers; left before right) — three-vrm's `VRMHumanBoneList`
 * order, with its `VRMHumanBoneParentMap` as `parent`. Required (15): hips, spine, head, upper and lower legs,
 * feet, upper and lower arms, hands. VRM 0.x also required chest and neck; Sinew follows 1.0, where they are
 * optional. A bone's parent may be absent from a rig: its nearest present ancestor is {@link humanoidParentOf}.
 */
export const HUMANOID_BONES: readonly HumanoidBone[] = [
  bone('hips', null, true), bone('spine', 'hips', true), bone('chest', 'spine'), bone('upperChest', 'chest'),
  bone('neck', 'upperChest'), bone('head', 'neck', true),
  bone('leftEye', 'head'), bone('rightEye', 'head'), bone('jaw', 'head'),
  ...limbs(),
  ...fingers(),
];

/** The names of {@link HUMANOID_BONES}, in its order (a humanoid bone's index is its position here). */
export const HUMANOID_BONE_NAMES: readonly HumanoidBoneName[] = HUMANOID_BONES.map((b) => b.name);

const INDEX = new Map<string, number>(HUMANOID_BONE_NAMES.map((name, i) => [name, i]));

/** A humanoid bone's index in {@link HUMANOID_BONES}, or −1 for a name that is not a VRM 1.0 humanoid bone. */
export function humanoidBoneIndex(name: string): number {
  return INDEX.get(name) ?? -1;
}

/** Whether `name` is one of the 55 VRM 1.0 humanoid bone names. */
export function isHumanoidBoneName(name: string): name is HumanoidBoneName {
  return INDEX.has(name);
}

/**
 * The nearest humanoid ancestor of `bone` that `present` holds (VRMC_vrm-1.0 `humanoid.md`: a missing optional
 * bone is skipped, so `neck` hangs from `chest` when there is no `upperChest`), or null when none is.
 */
export function humanoidParentOf(bone: HumanoidBoneName, present: Readonly<Partial<Record<HumanoidBoneName, unknown>>>): HumanoidBoneName | null {
  for (let p = HUMANOID_BONES[INDEX.get(bone)!].parent; p !== null; p = HUMANOID_BONES[INDEX.get(p)!].parent) {
    if (present[p] !== undefined) return p;
  }
  return null;
}
