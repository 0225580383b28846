import { describe, expect, it } from 'vitest';
import { quat, vec3 } from 'gl-matrix';
import type { AnimationChannel, AnimationClip } from '../../../src/asset/animation-clip.ts';
import type { HumanoidBoneName } from '../../../src/asset/avatar-asset.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { computeModelFrames, createModelFrames } from '../../../src/skeleton/model-frames.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { matchJoints, retargetClip, type RetargetSide } from '../../../src/animation/retarget-clip.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { matchHumanoid } from '../../../src/humanoid/match-humanoid.ts';
import { quatConjugateMultiplyAt, quatMultiplyAt } from '../../../src/math/quaternion.ts';
import { humanoidNames, random, syntheticHumanoid } from '../humanoid/synthetic-humanoid.ts';

// A Mixamo-named rig's clip onto a `Hips/Spine`-named rig of other joint frames, size and an extra twist joint:
// matched by humanoid bone it must equal the retargeting with an explicit map, and follow the model-space rule
// (docs/explanation/skinning-formulas.md R1), the reference retarget-clip.test.ts holds retargetClip to.

const MIXAMO: Partial<Record<string, string>> = {
  hips: 'Hips', spine: 'Spine', chest: 'Spine1', upperChest: 'Spine2', neck: 'Neck', head: 'Head', leftEye: 'LeftEye', rightEye: 'RightEye',
};
function mixamoName(bone: HumanoidBoneName): string | null {
  if (MIXAMO[bone]) return `mixamorig:${MIXAMO[bone]}`;
  const m = /^(left|right)(.+)$/.exec(bone);
  if (!m) return null;
  const side = m[1] === 'left' ? 'Left' : 'Right';
  const limbs: Record<string, string> = { Shoulder: 'Shoulder', UpperArm: 'Arm', LowerArm: 'ForeArm', Hand: 'Hand', UpperLeg: 'UpLeg', LowerLeg: 'Leg', Foot: 'Foot', Toes: 'ToeBase' };
  if (limbs[m[2]]) return `mixamorig:${side}${limbs[m[2]]}`;
  const f = /^(Thumb|Index|Middle|Ring|Little)(Metacarpal|Proximal|Intermediate|Distal)$/.exec(m[2])!;
  const n = f[1] === 'Thumb' ? { Metacarpal: 1, Proximal: 2, Distal: 3 }[f[2]] : { Proximal: 1, Intermediate: 2, Distal: 3 }[f[2]];
  return `mixamorig:${side}Hand${f[1] === 'Little' ? 'Pinky' : f[1]}${n}`;
}

const source = syntheticHumanoid(mixamoName, 1);
const target = syntheticHumanoid(humanoidNames, 2, { scale: 1.3, twist: true });

/** Every source joint turning about its own axis (LINEAR keys at 30/s over 2 s), and the hips moving. */
function sourceClip(): AnimationClip {
  const next = random(9);
  const keys = 61, times = Float32Array.from({ length: keys }, (_, k) => k / 30);
  const channels: AnimationChannel[] = [];
  for (let j = 0; j < source.skeleton.jointCount; j++) {
    const axis = vec3.normalize(vec3.create(), [next() - 0.5, next() - 0.5, next() - 0.5]);
    const values = new Float32Array(4 * keys), phase = 6 * next();
    for (let k = 0; k < keys; k++) {
      const q = quat.setAxisAngle(quat.create(), axis, 0.6 * Math.sin(k / 9 + phase));
      values.set(quat.multiply(quat.create(), source.restPose.rotations.subarray(4 * j, 4 * j + 4) as unknown as quat, q), 4 * k);
    }
    channels.push({ joint: j, path: 'rotation', interpolation: 'LINEAR', times, values });
  }
  const h = source.bones.hips!, hips = new Float32Array(3 * keys), t0 = source.restPose.translations.subarray(3 * h, 3 * h + 3);
  for (let k = 0; k < keys; k++) hips.set([t0[0] + 0.3 * Math.sin(k / 12), t0[1] + 0.05 * Math.sin(k / 4), t0[2] + 0.01 * k], 3 * k);
  channels.push({ joint: h, path: 'translation', interpolation: 'LINEAR', times, values: hips });
  return { name: 'dance', duration: 2, channels };
}

const clip = sourceClip();
const sourceHumanoid = matchHumanoid(source.skeleton).humanoid;
const targetHumanoid = matchHumanoid(target.skeleton).humanoid;
const sourceSide: RetargetSide = { skeleton: source.skeleton, restPose: source.restPose };
const targetSide: RetargetSide = { skeleton: target.skeleton, restPose: target.restPose };

/** Model frames of a clip on a rig at time t. */
function framesAt(rig: typeof source, c: AnimationClip, t: number) {
  const pose = sampleClip(cloneLocalPose(rig.restPose), compileClip(c, rig.skeleton.jointCount), t, new SamplingContext());
  return computeModelFrames(createModelFrames(rig.skeleton.jointCount), rig.skeleton, pose, [0, 0, 0, 1]);
}

describe('retargeting by humanoid bone', () => {
  it('the two rigs share few names: by name alone most humanoid joints stay unmatched', () => {
    expect(matchHumanoid(source.skeleton).rig).toBe('mixamo');
    const byName = matchJoints(source.skeleton, target.skeleton);
    expect(byName.unmatched).toEqual(expect.arrayContaining(['Chest', 'LeftUpperArm', 'LeftLowerLeg', 'RightThumbMetacarpal']));
    const byHumanoid = matchJoints(source.skeleton, target.skeleton, undefined, { source: sourceHumanoid, target: targetHumanoid });
    // Every humanoid bone both have matched; not the jaw (Mixamo has none) nor the twist joints (no humanoid bone, no name in common).
    expect(byHumanoid.unmatched).toEqual(['Jaw', 'LeftUpperArm_twist', 'RightUpperArm_twist']);
  });

  it('an explicit map still overrides the humanoid match', () => {
    const match = matchJoints(source.skeleton, target.skeleton, { Head: 'mixamorig:Neck', Chest: 'nope' }, { source: sourceHumanoid, target: targetHumanoid });
    expect(match.sourceOf[target.bones.head!]).toBe(source.bones.neck);
    expect(match.sourceOf[target.bones.chest!]).toBe(-1);
    expect(match.sourceOf[target.bones.spine!]).toBe(source.bones.spine);
  });

  it('gives the same clip, number for number, as retargeting with an explicit map', () => {
    const map: Record<string, string> = {};
    for (const [bone, j] of Object.entries(targetHumanoid.bones)) map[target.skeleton.names[j]] = source.skeleton.names[sourceHumanoid.bones[bone as HumanoidBoneName]!];
    const byMap = retargetClip(clip, sourceSide, targetSide, { map });
    const byHumanoid = retargetClip(clip, { ...sourceSide, humanoid: sourceHumanoid }, { ...targetSide, humanoid: targetHumanoid });
    expect(byHumanoid.channels.length).toBe(byMap.channels.length);
    expect(byHumanoid.channels.length).toBeGreaterThan(55);
    byHumanoid.channels.forEach((c, i) => {
      expect([c.joint, c.path]).toEqual([byMap.channels[i].joint, byMap.channels[i].path]);
      expect(Array.from(c.values)).toEqual(Array.from(byMap.channels[i].values));
    });
  });

  it('follows the model-space rule: each humanoid bone turns as its source bone, the hips move by the height ratio', () => {
    const out = retargetClip(clip, { ...sourceSide, humanoid: sourceHumanoid }, { ...targetSide, humanoid: targetHumanoid });
    const sRest = framesAt(source, { name: '', duration: 0, channels: [] }, 0), tRest = framesAt(target, { name: '', duration: 0, channels: [] }, 0);
    const h = target.bones.hips!, hs = source.bones.hips!;
    const ratio = tRest.p[3 * h + 1] / sRest.p[3 * hs + 1];
    expect(ratio).toBeCloseTo(1.3, 5);
    let angle = 0, distance = 0;
    const e = new Float64Array(4), d = new Float64Array(4);
    for (let i = 0; i < 17; i++) {
      const t = (2 * i) / 16 + 0.013 * (i % 3);
      const s = framesAt(source, clip, t), g = framesAt(target, out, t);
      for (const [bone, j] of Object.entries(targetHumanoid.bones)) {
        const sj = sourceHumanoid.bones[bone as HumanoidBoneName];
        if (sj === undefined) continue;
        // Q_target = Q_source · Q_source,rest⁻¹ · Q_target,rest
        quatConjugateMultiplyAt(e, 0, sRest.q, 4 * sj, tRest.q, 4 * j);
        quatMultiplyAt(e, 0, s.q, 4 * sj, e, 0);
        quatConjugateMultiplyAt(d, 0, e, 0, g.q, 4 * j);
        angle = Math.max(angle, 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3])));
      }
      for (let c = 0; c < 3; c++) distance = Math.max(distance, Math.abs(tRest.p[3 * h + c] + ratio * (s.p[3 * hs + c] - sRest.p[3 * hs + c]) - g.p[3 * h + c]));
    }
    console.log(`Mixamo-named → Hips-named by humanoid bone: worst rotation ${angle.toExponential(2)} rad, hips position ${distance.toExponential(2)} m`);
    expect(angle).toBeLessThan(1e-5);
    expect(distance).toBeLessThan(1e-5);
  });

  it('retargetClipLibrary uses the avatar\'s map and finds the clip file\'s by name (or takes the library\'s own)', () => {
    const expected = retargetClip(clip, { ...sourceSide, humanoid: sourceHumanoid }, { ...targetSide, humanoid: targetHumanoid });
    const library = { name: 'dance.glb', skeleton: source.skeleton, restPose: source.restPose, clips: [clip], warnings: [] };
    const avatar = { name: 'avatar.vrm', skeleton: target.skeleton, restPose: target.restPose, skins: [], clips: [], warnings: [], avatar: { humanoid: targetHumanoid } } as unknown as ModelAsset;
    const plain = { ...avatar, avatar: undefined } as ModelAsset;
    for (const [lib, model] of [[library, avatar], [library, plain], [{ ...library, humanoid: sourceHumanoid }, avatar]] as const) {
      const { clips, joints } = retargetClipLibrary(lib, model);
      expect(joints.unmatched).toEqual(['Jaw', 'LeftUpperArm_twist', 'RightUpperArm_twist']);
      clips[0].channels.forEach((c, i) => expect(Array.from(c.values)).toEqual(Array.from(expected.channels[i].values)));
    }
  });
});
