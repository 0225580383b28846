import { describe, expect, it } from 'vitest';
import type { HumanoidBoneName } from '../../../src/asset/avatar-asset.ts';
import { HUMANOID_BONES, HUMANOID_BONE_NAMES } from '../../../src/humanoid/humanoid-bones.ts';
import { matchHumanoid } from '../../../src/humanoid/match-humanoid.ts';
import { humanoidNames, syntheticHumanoid } from './synthetic-humanoid.ts';

// Each rig's joint names for the torso and the left side, as its exporter writes them; the right side mirrors
// them (`Left` → `Right`, `_l` → `_r`, `.L` → `.R`, `_L_` → `_R_`). A bone a rig does not have is absent.
type Names = Partial<Record<string, string>>;
const fingers = (f: (finger: string, vrm: string, i: number) => string): Names => {
  const out: Names = {};
  const vrm = [['Thumb', ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal']], ...['Index', 'Middle', 'Ring', 'Little'].map((x) => [x, [`${x}Proximal`, `${x}Intermediate`, `${x}Distal`]])] as [string, string[]][];
  for (const [finger, bones] of vrm) bones.forEach((b, i) => { out[`left${b}`] = f(finger, b, i + 1); });
  return out;
};

const RIGS: Record<string, { names: Names; mirror: [RegExp, string] }> = {
  mixamo: {
    names: {
      hips: 'mixamorig:Hips', spine: 'mixamorig:Spine', chest: 'mixamorig:Spine1', upperChest: 'mixamorig:Spine2', neck: 'mixamorig:Neck', head: 'mixamorig:Head',
      leftEye: 'mixamorig:LeftEye', leftShoulder: 'mixamorig:LeftShoulder', leftUpperArm: 'mixamorig:LeftArm', leftLowerArm: 'mixamorig:LeftForeArm', leftHand: 'mixamorig:LeftHand',
      leftUpperLeg: 'mixamorig:LeftUpLeg', leftLowerLeg: 'mixamorig:LeftLeg', leftFoot: 'mixamorig:LeftFoot', leftToes: 'mixamorig:LeftToeBase',
      ...fingers((f, _, i) => `mixamorig:LeftHand${f === 'Little' ? 'Pinky' : f}${i}`),
    },
    mirror: [/Left/, 'Right'],
  },
  unreal: {
    names: {
      hips: 'pelvis', spine: 'spine_01', chest: 'spine_02', upperChest: 'spine_03', neck: 'neck_01', head: 'head',
      leftShoulder: 'clavicle_l', leftUpperArm: 'upperarm_l', leftLowerArm: 'lowerarm_l', leftHand: 'hand_l',
      leftUpperLeg: 'thigh_l', leftLowerLeg: 'calf_l', leftFoot: 'foot_l', leftToes: 'ball_l',
      ...fingers((f, _, i) => `${f === 'Little' ? 'pinky' : f.toLowerCase()}_0${i}_l`),
    },
    mirror: [/_l$/, '_r'],
  },
  rigify: {
    names: {
      hips: 'DEF-spine', spine: 'DEF-spine.001', chest: 'DEF-spine.002', upperChest: 'DEF-spine.003', neck: 'DEF-spine.004', head: 'DEF-spine.006',
      leftEye: 'ORG-eye.L', jaw: 'DEF-jaw', leftShoulder: 'DEF-shoulder.L', leftUpperArm: 'DEF-upper_arm.L', leftLowerArm: 'DEF-forearm.L', leftHand: 'DEF-hand.L',
      leftUpperLeg: 'DEF-thigh.L', leftLowerLeg: 'DEF-shin.L', leftFoot: 'DEF-foot.L', leftToes: 'DEF-toe.L',
      ...fingers((f, _, i) => (f === 'Thumb' ? `DEF-thumb.0${i}.L` : `DEF-f_${f === 'Little' ? 'pinky' : f.toLowerCase()}.0${i}.L`)),
    },
    mirror: [/\.L$/, '.R'],
  },
  vroid: {
    names: {
      hips: 'J_Bip_C_Hips', spine: 'J_Bip_C_Spine', chest: 'J_Bip_C_Chest', upperChest: 'J_Bip_C_UpperChest', neck: 'J_Bip_C_Neck', head: 'J_Bip_C_Head',
      leftEye: 'J_Adj_L_FaceEye', leftShoulder: 'J_Bip_L_Shoulder', leftUpperArm: 'J_Bip_L_UpperArm', leftLowerArm: 'J_Bip_L_LowerArm', leftHand: 'J_Bip_L_Hand',
      leftUpperLeg: 'J_Bip_L_UpperLeg', leftLowerLeg: 'J_Bip_L_LowerLeg', leftFoot: 'J_Bip_L_Foot', leftToes: 'J_Bip_L_ToeBase',
      ...fingers((f, _, i) => `J_Bip_L_${f}${i}`),
    },
    mirror: [/_L_/, '_R_'],
  },
  'character-creator': {
    names: {
      hips: 'CC_Base_Hip', spine: 'CC_Base_Waist', chest: 'CC_Base_Spine01', upperChest: 'CC_Base_Spine02', neck: 'CC_Base_NeckTwist01', head: 'CC_Base_Head',
      leftEye: 'CC_Base_L_Eye', jaw: 'CC_Base_JawRoot', leftShoulder: 'CC_Base_L_Clavicle', leftUpperArm: 'CC_Base_L_Upperarm', leftLowerArm: 'CC_Base_L_Forearm', leftHand: 'CC_Base_L_Hand',
      leftUpperLeg: 'CC_Base_L_Thigh', leftLowerLeg: 'CC_Base_L_Calf', leftFoot: 'CC_Base_L_Foot', leftToes: 'CC_Base_L_ToeBase',
      ...fingers((f, _, i) => `CC_Base_L_${{ Thumb: 'Thumb', Index: 'Index', Middle: 'Mid', Ring: 'Ring', Little: 'Pinky' }[f]}${i}`),
    },
    mirror: [/_L_/, '_R_'],
  },
  'humanoid-names': {
    names: Object.fromEntries(HUMANOID_BONE_NAMES.filter((b) => !b.startsWith('right')).map((b) => [b, humanoidNames(b)])),
    mirror: [/^Left/, 'Right'],
  },
};

/** A rig's name for a bone, the right side mirrored from the left; null when the rig has no such bone. */
function nameIn(rig: { names: Names; mirror: [RegExp, string] }, bone: HumanoidBoneName): string | null {
  if (bone.startsWith('right')) {
    const left = rig.names[bone.replace(/^right/, 'left')];
    return left === undefined ? null : left.replace(rig.mirror[0], rig.mirror[1]);
  }
  return rig.names[bone] ?? null;
}

describe('matchHumanoid', () => {
  for (const [id, rig] of Object.entries(RIGS)) {
    it(`finds every bone of a ${id} rig, the required ones and the fingers, at the right joints`, () => {
      const body = syntheticHumanoid((bone) => nameIn(rig, bone), 3, { twist: true });
      const found = matchHumanoid(body.skeleton);
      expect(found.rig).toBe(id);
      expect(found.missingRequired).toEqual([]);
      expect(found.humanoid.bones).toEqual(body.bones);
      const named = HUMANOID_BONE_NAMES.filter((b) => nameIn(rig, b) !== null);
      expect(named.filter((b) => /Thumb|Index|Middle|Ring|Little/.test(b)).length).toBe(30);
      expect(Object.keys(found.humanoid.bones).length).toBe(named.length);
    });
  }

  it('takes Unity / VRM 0.x thumb names (Proximal, Intermediate, Distal) as metacarpal, proximal, distal', () => {
    const unity: Record<string, string> = { ThumbMetacarpal: 'ThumbProximal', ThumbProximal: 'ThumbIntermediate', ThumbDistal: 'ThumbDistal' };
    const body = syntheticHumanoid((bone) => humanoidNames(bone).replace(/Thumb\w+$/, (m) => unity[m]), 4);
    const found = matchHumanoid(body.skeleton);
    expect(found.humanoid.bones).toEqual(body.bones);
    expect(body.skeleton.names[found.humanoid.bones.leftThumbMetacarpal!]).toBe('LeftThumbProximal');
  });

  it('names the missing required bones, and drops a name found outside its humanoid parent', () => {
    const noLegs = syntheticHumanoid((bone) => (/Leg|Foot|Toes/.test(bone) ? null : humanoidNames(bone)), 6);
    const found = matchHumanoid(noLegs.skeleton);
    expect(found.rig).toBe('humanoid-names');
    expect(found.missingRequired).toEqual(HUMANOID_BONES.filter((b) => b.required && /Leg|Foot/.test(b.name)).map((b) => b.name));
    // A `LeftHand` joint hanging from the hips (not below the left lower arm) is not the left hand.
    const body = syntheticHumanoid(humanoidNames, 7);
    const names = [...body.skeleton.names, 'LeftHand'];
    const swapped = { ...body.skeleton, jointCount: names.length, names: names.map((n, i) => (i === body.bones.leftHand ? 'Palm' : n)), parents: Int32Array.from([...body.skeleton.parents, body.bones.hips!]), sourceIndices: Int32Array.from(names, (_, i) => i) };
    const moved = matchHumanoid(swapped);
    expect(moved.humanoid.bones.leftHand).toBeUndefined();
    expect(moved.missingRequired).toEqual(['leftHand']);
  });

  it('finds nothing in a rig without humanoid names', () => {
    const octopus = syntheticHumanoid((bone) => `tentacle_${bone.length}_${bone}`, 8);
    expect(matchHumanoid(octopus.skeleton)).toEqual({ humanoid: { bones: {} }, rig: null, missingRequired: HUMANOID_BONES.filter((b) => b.required).map((b) => b.name) });
  });
});
