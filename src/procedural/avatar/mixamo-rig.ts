import { quat } from 'gl-matrix';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES, avatarBoneIndex } from './avatar-bones.ts';
import { createAvatarDocument } from './avatar-document.ts';
import { WALK_BONES, WALK_PERIOD, walkPose } from './avatar-walk.ts';
import { addClip, keyTimes, type ClipChannel } from './clip-channels.ts';
import { writeGlbWithJson } from './glb-with-extension.ts';

/** Options of {@link buildMixamoRig}. */
export interface MixamoRigOptions {
  /** Whether the cheek material carries its small PNG texture (default true). */
  readonly texture?: boolean;
  /** Key frames per second of the walk clip (default 30). */
  readonly keysPerSecond?: number;
}

const FINGER_NAMES = { Index: 'Index', Middle: 'Middle', Ring: 'Ring', Little: 'Pinky' } as const;
const PHALANX_NUMBERS = { Proximal: 1, Intermediate: 2, Distal: 3 } as const;

/**
 * Mixamo's joint name for a humanoid bone (`mixamorig:` + Hips, Spine, Spine1 = chest, Spine2 = upper chest, Neck,
 * Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand, LeftHandThumb1–3, LeftHandIndex1–3 (Pinky for little),
 * LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase, LeftEye). The jaw, which Mixamo's auto-rigger does not make, is
 * `mixamorig:Jaw`.
 */
export function mixamoJointName(bone: HumanoidBoneName): string {
  const fixed: Partial<Record<HumanoidBoneName, string>> = {
    hips: 'Hips', spine: 'Spine', chest: 'Spine1', upperChest: 'Spine2', neck: 'Neck', head: 'Head', jaw: 'Jaw',
    leftEye: 'LeftEye', rightEye: 'RightEye',
  };
  if (fixed[bone]) return `mixamorig:${fixed[bone]}`;
  const match = /^(left|right)(.+)$/.exec(bone)!;
  const side = match[1] === 'left' ? 'Left' : 'Right';
  const rest = match[2];
  const limb: Record<string, string> = {
    Shoulder: 'Shoulder', UpperArm: 'Arm', LowerArm: 'ForeArm', Hand: 'Hand', UpperLeg: 'UpLeg', LowerLeg: 'Leg', Foot: 'Foot', Toes: 'ToeBase',
  };
  if (limb[rest]) return `mixamorig:${side}${limb[rest]}`;
  const finger = /^(Thumb|Index|Middle|Ring|Little)(Metacarpal|Proximal|Intermediate|Distal)$/.exec(rest)!;
  const name = finger[1] === 'Thumb' ? 'Thumb' : FINGER_NAMES[finger[1] as keyof typeof FINGER_NAMES];
  // Mixamo numbers the thumb's metacarpal, proximal and distal 1–3, and the fingers' three phalanges 1–3.
  const number = finger[1] === 'Thumb'
    ? { Metacarpal: 1, Proximal: 2, Distal: 3 }[finger[2] as 'Metacarpal' | 'Proximal' | 'Distal']
    : PHALANX_NUMBERS[finger[2] as keyof typeof PHALANX_NUMBERS];
  return `mixamorig:${side}Hand${name}${number}`;
}

/**
 * The generated avatar's body as a plain glTF rigged the way Mixamo rigs are, for retargeting tests: GLB bytes, no
 * VRM extension, deterministic.
 * - Joints named by {@link mixamoJointName}, with Mixamo's end joints (`mixamorig:HeadTop_End`,
 *   `…HandIndex4`, `…Toe_End`) as unskinned leaf nodes; the same meshes, skin weights and T-pose facing +Z as
 *   {@link buildAvatarVrm1}, metres.
 * - Rest rotations are not the identity: each joint's local +Y points along its bone (Mixamo's convention), so a
 *   retargeter must go through the rest pose, not copy local rotations.
 * - One clip, `walk` ({@link WALK_PERIOD} s, a loop, LINEAR keys at `keysPerSecond`): the normalised walk of
 *   `walkPose` expressed in this rig's joint frames (local = parentRest⁻¹ · normalised · rest, the rule of
 *   docs/skinning-formulas.md R1) and the hips' translation in the scene.
 */
export async function buildMixamoRig(options: MixamoRigOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const { document, joints } = createAvatarDocument({
    facing: '+z', jointName: mixamoJointName, restRotations: 'along-bone', texture: options.texture ?? true,
    endName: (bone) => {
      if (bone === 'head') return 'mixamorig:HeadTop_End';
      if (bone.endsWith('Toes')) return mixamoJointName(bone).replace('ToeBase', 'Toe_End');
      return mixamoJointName(bone).replace(/3$/, '4');
    },
  });
  // Rest world rotations, from the document's rest locals (parents come first).
  const restWorld = new Map<HumanoidBoneName, quat>();
  for (const bone of AVATAR_BONES) {
    const local = joints.get(bone.name)!.getRotation();
    const parentWorld = bone.parent >= 0 ? restWorld.get(AVATAR_BONES[bone.parent].name)! : quat.create();
    restWorld.set(bone.name, quat.multiply(quat.create(), parentWorld, local));
  }
  const times = keyTimes(WALK_PERIOD, Math.round(WALK_PERIOD * (options.keysPerSecond ?? 30)) + 1);
  const hipsRest = joints.get('hips')!.getTranslation();
  const rotations = new Map<HumanoidBoneName, quat>();
  const hipsOffset = new Float32Array(3);
  const values = new Map<HumanoidBoneName, Float32Array>(WALK_BONES.map((bone) => [bone, new Float32Array(4 * times.length)]));
  const hipsTranslations = new Float32Array(3 * times.length);
  const local = quat.create(), inverseParent = quat.create();
  times.forEach((time, k) => {
    walkPose(rotations, hipsOffset, time);
    for (const bone of WALK_BONES) {
      const parent = AVATAR_BONES[avatarBoneIndex(bone)].parent;
      quat.invert(inverseParent, parent >= 0 ? restWorld.get(AVATAR_BONES[parent].name)! : quat.create());
      quat.multiply(local, quat.multiply(local, inverseParent, rotations.get(bone)!), restWorld.get(bone)!);
      values.get(bone)!.set(local, 4 * k);
    }
    for (let i = 0; i < 3; i++) hipsTranslations[3 * k + i] = hipsRest[i] + hipsOffset[i];
  });
  const channels: ClipChannel[] = [
    { node: joints.get('hips')!, path: 'translation', times, values: hipsTranslations },
    ...WALK_BONES.map((bone) => ({ node: joints.get(bone)!, path: 'rotation' as const, times, values: values.get(bone)! })),
  ];
  addClip(document, 'walk', channels);
  return writeGlbWithJson(document, () => {});
}
