import type { HumanoidBoneName } from '../asset/avatar-asset.ts';

/**
 * How one family of rigs names the humanoid bones, for {@link matchHumanoid}'s name table.
 * - `rig`: the family's id, as `matchHumanoid` reports it;
 * - `prefixes`: name keys (see `humanoidNameKey`) the rig puts before a bone's key, tried in order, `''` for none
 *   (Rigify's deforming `DEF-` bones before its `ORG-` ones);
 * - `bones`: per humanoid bone, the keys of the rig's joint names for it, best first.
 */
export interface HumanoidRigNames {
  readonly rig: string;
  readonly prefixes: readonly string[];
  readonly bones: Readonly<Partial<Record<HumanoidBoneName, readonly string[]>>>;
}

type Side = 'left' | 'right';
type BoneKeys = Partial<Record<HumanoidBoneName, string[]>>;
const FINGERS = ['Index', 'Middle', 'Ring', 'Little'] as const;
const LIMBS = ['Shoulder', 'UpperArm', 'LowerArm', 'Hand', 'UpperLeg', 'LowerLeg', 'Foot', 'Toes'] as const;
const THUMB = ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal'] as const;
const PHALANGES = ['Proximal', 'Intermediate', 'Distal'] as const;

/**
 * A table for both sides from one side's pattern: `name(side, part)` gives the keys of `side + part` (parts as
 * in VRM's names: `UpperArm`, `ThumbMetacarpal`, `IndexProximal`, …); an empty list leaves the bone out.
 */
function bothSides(torso: BoneKeys, name: (side: Side, part: string) => string[]): BoneKeys {
  const out: BoneKeys = { ...torso };
  for (const side of ['left', 'right'] as const) {
    const parts = [...LIMBS, ...THUMB, ...FINGERS.flatMap((f) => PHALANGES.map((p) => f + p)), 'Eye'];
    for (const part of parts) {
      const keys = name(side, part);
      if (keys.length > 0) out[(side + part) as HumanoidBoneName] = keys;
    }
  }
  return out;
}

/** A finger part's joint number along the finger, 1 to 3 (`ThumbMetacarpal` and `IndexProximal` are 1). */
function phalanx(part: string): number {
  if (part.endsWith('Metacarpal')) return 1;
  if (part.endsWith('Proximal')) return part.startsWith('Thumb') ? 2 : 1;
  return part.endsWith('Intermediate') ? 2 : 3;
}

/** The finger of a part (`Thumb`, `Index`, …), or null for a limb or eye part. */
function fingerOf(part: string): string | null {
  const m = /^(Thumb|Index|Middle|Ring|Little)/.exec(part);
  return m ? m[1] : null;
}

/** Mixamo (`mixamorig:LeftUpLeg`; the namespace is dropped before the key, `mixamorig_` taken as a prefix). */
const MIXAMO: HumanoidRigNames = {
  rig: 'mixamo',
  prefixes: ['', 'mixamorig'],
  bones: bothSides({ hips: ['hips'], spine: ['spine'], chest: ['spine1'], upperChest: ['spine2'], neck: ['neck'], head: ['head'] }, (side, part) => {
    const s = side;
    const finger = fingerOf(part);
    if (finger) return [`${s}hand${(finger === 'Little' ? 'pinky' : finger).toLowerCase()}${phalanx(part)}`];
    const limb: Record<string, string> = { Shoulder: 'shoulder', UpperArm: 'arm', LowerArm: 'forearm', Hand: 'hand', UpperLeg: 'upleg', LowerLeg: 'leg', Foot: 'foot', Toes: 'toebase', Eye: 'eye' };
    return [s + limb[part]];
  }),
};

/** Unreal Engine's mannequin (UE4 and UE5: `pelvis`, `spine_01`, `upperarm_l`, `thumb_01_l`). */
const UNREAL: HumanoidRigNames = {
  rig: 'unreal',
  prefixes: [''],
  bones: bothSides({ hips: ['pelvis'], spine: ['spine01'], chest: ['spine02'], upperChest: ['spine03'], neck: ['neck01'], head: ['head'] }, (side, part) => {
    const s = side[0];
    const finger = fingerOf(part);
    if (finger) return [`${(finger === 'Little' ? 'pinky' : finger).toLowerCase()}0${phalanx(part)}${s}`];
    const limb: Record<string, string> = { Shoulder: 'clavicle', UpperArm: 'upperarm', LowerArm: 'lowerarm', Hand: 'hand', UpperLeg: 'thigh', LowerLeg: 'calf', Foot: 'foot', Toes: 'ball', Eye: '' };
    return limb[part] ? [limb[part] + s] : [];
  }),
};

/** Blender Rigify's generated rig: `DEF-spine` (the hips) … `DEF-spine.006` (the head), `DEF-upper_arm.L`, `DEF-f_index.01.L`. */
const RIGIFY: HumanoidRigNames = {
  rig: 'rigify',
  prefixes: ['def', 'org'],
  bones: bothSides({ hips: ['spine'], spine: ['spine001'], chest: ['spine002'], upperChest: ['spine003'], neck: ['spine004'], head: ['spine006', 'head'], jaw: ['jaw'] }, (side, part) => {
    const s = side[0];
    const finger = fingerOf(part);
    if (finger) return [finger === 'Thumb' ? `thumb0${phalanx(part)}${s}` : `f${(finger === 'Little' ? 'pinky' : finger).toLowerCase()}0${phalanx(part)}${s}`];
    const limb: Record<string, string> = { Shoulder: 'shoulder', UpperArm: 'upperarm', LowerArm: 'forearm', Hand: 'hand', UpperLeg: 'thigh', LowerLeg: 'shin', Foot: 'foot', Toes: 'toe', Eye: 'eye' };
    return [limb[part] + s];
  }),
};

/** VRoid Studio's rig: `J_Bip_C_Hips`, `J_Bip_L_UpperArm`, `J_Bip_L_Index1`, the eyes `J_Adj_L_FaceEye`. */
const VROID: HumanoidRigNames = {
  rig: 'vroid',
  prefixes: ['jbip', ''],
  bones: bothSides({ hips: ['chips'], spine: ['cspine'], chest: ['cchest'], upperChest: ['cupperchest'], neck: ['cneck'], head: ['chead'] }, (side, part) => {
    const s = side[0];
    const finger = fingerOf(part);
    if (finger) return [`${s}${finger.toLowerCase()}${phalanx(part)}`];
    if (part === 'Eye') return [`jadj${s}faceeye`];
    const limb: Record<string, string> = { Shoulder: 'shoulder', UpperArm: 'upperarm', LowerArm: 'lowerarm', Hand: 'hand', UpperLeg: 'upperleg', LowerLeg: 'lowerleg', Foot: 'foot', Toes: 'toebase' };
    return [s + limb[part]];
  }),
};

/** Reallusion Character Creator (CC3/CC4): `CC_Base_Hip`, `CC_Base_Waist`, `CC_Base_L_Upperarm`, `CC_Base_L_Mid1`. */
const CHARACTER_CREATOR: HumanoidRigNames = {
  rig: 'character-creator',
  prefixes: ['ccbase'],
  bones: bothSides({ hips: ['hip'], spine: ['waist'], chest: ['spine01'], upperChest: ['spine02'], neck: ['necktwist01'], head: ['head'], jaw: ['jawroot'] }, (side, part) => {
    const s = side[0];
    const finger = fingerOf(part);
    const names: Record<string, string> = { Thumb: 'thumb', Index: 'index', Middle: 'mid', Ring: 'ring', Little: 'pinky' };
    if (finger) return [`${s}${names[finger]}${phalanx(part)}`];
    const limb: Record<string, string> = { Shoulder: 'clavicle', UpperArm: 'upperarm', LowerArm: 'forearm', Hand: 'hand', UpperLeg: 'thigh', LowerLeg: 'calf', Foot: 'foot', Toes: 'toebase', Eye: 'eye' };
    return [s + limb[part]];
  }),
};

/** VRM's own names as joint names (`Hips`, `Spine`, `Chest`, `LeftUpperArm`, `leftThumbMetacarpal`, `Left_Hand`). */
const HUMANOID_NAMES: HumanoidRigNames = {
  rig: 'humanoid-names',
  prefixes: [''],
  bones: bothSides({ hips: ['hips'], spine: ['spine'], chest: ['chest'], upperChest: ['upperchest'], neck: ['neck'], head: ['head'], jaw: ['jaw'] }, (side, part) => [(side + part).toLowerCase()]),
};

/**
 * The same names with Unity's and VRM 0.x's thumb (`LeftThumbProximal`, `…Intermediate`, `…Distal`: VRM 1.0's
 * metacarpal, proximal and distal), chosen when it finds more bones than {@link HUMANOID_NAMES}.
 */
const HUMANOID_NAMES_UNITY_THUMBS: HumanoidRigNames = {
  rig: 'humanoid-names',
  prefixes: [''],
  bones: bothSides(HUMANOID_NAMES.bones as BoneKeys, (side, part) => {
    const thumb: Record<string, string> = { ThumbMetacarpal: 'thumbproximal', ThumbProximal: 'thumbintermediate', ThumbDistal: 'thumbdistal' };
    return [side + (thumb[part] ?? part.toLowerCase())];
  }),
};

/**
 * The name table of {@link matchHumanoid}: Mixamo, Unreal mannequin, Blender Rigify, VRoid, Character Creator and
 * VRM's own `Hips/Spine/…` names, in the order ties between them are settled.
 */
export const HUMANOID_RIG_NAMES: readonly HumanoidRigNames[] = [
  HUMANOID_NAMES, HUMANOID_NAMES_UNITY_THUMBS, MIXAMO, UNREAL, RIGIFY, VROID, CHARACTER_CREATOR,
];

/**
 * A joint name's key for the table: the part after the last `:` or `|` (a namespace: `mixamorig:`, `Armature|`),
 * lower-cased, with spaces, `_`, `-` and `.` removed (`DEF-upper_arm.L` → `defupperarml`, `J_Bip_C_Hips` →
 * `jbipchips`).
 */
export function humanoidNameKey(name: string): string {
  const cut = Math.max(name.lastIndexOf(':'), name.lastIndexOf('|'));
  return name.slice(cut + 1).toLowerCase().replace(/[\s_.-]/g, '');
}
