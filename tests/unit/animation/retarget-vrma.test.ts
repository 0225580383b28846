import { describe, expect, it } from 'vitest';
import { mat4, quat, vec3 } from 'gl-matrix';
import type { AvatarAsset, HumanoidBoneName } from '../../../src/asset/avatar-asset.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { matchJoints } from '../../../src/animation/match-joints.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import { GltfBuilder } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';
import { axisAngle, buildVrma, VRMA_KEYS } from '../loaders/vrma/vrma-builder.ts';

const none = async () => null;

/** Target rest rotations, none of them the VRMA's identity: a rig whose bone frames are not world-aligned. */
const TARGET_REST = {
  armature: [0, 0, 0, 1],
  hips: axisAngle([1, 0, 0], 0.4),
  spine: axisAngle([0, 0, 1], -0.9),
  head: axisAngle([0.6, 0, 0.8], 1.3),
  leg: axisAngle([0, 0, 1], Math.PI),
} as const;

/** Hips rest height of the target, metres (the VRMA's is 1). */
const TARGET_HIPS_HEIGHT = 0.9;

/**
 * A humanoid target made by hand: `Armature` → `mixamorig:Hips` (0.9 m up) → `Spine` → `Head`, and `LeftUpLeg` under the
 * hips, each with a rest rotation of its own ({@link TARGET_REST}), a humanoid map on `avatar` (only `humanoid` is read
 * by retargeting), named unlike the VRMA's nodes so only the humanoid can match them.
 */
async function humanoidTarget(bones?: Partial<Record<HumanoidBoneName, number>>): Promise<ModelAsset> {
  const b = new GltfBuilder();
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [
      { name: 'Armature', rotation: TARGET_REST.armature, children: [1] },
      { name: 'mixamorig:Hips', translation: [0, TARGET_HIPS_HEIGHT, 0], rotation: TARGET_REST.hips, children: [2, 4] },
      { name: 'mixamorig:Spine', translation: [0, 0.15, 0.01], rotation: TARGET_REST.spine, children: [3] },
      { name: 'mixamorig:Head', translation: [0.02, 0.4, 0], rotation: TARGET_REST.head },
      { name: 'mixamorig:LeftUpLeg', translation: [0.09, -0.04, 0], rotation: TARGET_REST.leg },
    ],
  });
  const asset = await loadModel({ name: 'Target.glb', bytes: b.glb() }, none);
  const joint = (name: string) => asset.skeleton.names.indexOf(name);
  const humanoid = { bones: bones ?? { hips: joint('mixamorig:Hips'), spine: joint('mixamorig:Spine'), head: joint('mixamorig:Head'), leftUpperLeg: joint('mixamorig:LeftUpLeg') } };
  return { ...asset, avatar: { humanoid } as AvatarAsset };
}

/** The joint's model-space rotation in `modelMatrices` (unit scales). */
function rotationOf(modelMatrices: Float32Array, joint: number): quat {
  return mat4.getRotation(quat.create(), modelMatrices.subarray(16 * joint, 16 * joint + 16) as unknown as mat4);
}

/** Angle between two rotations, radians: of a⁻¹·b, from its vector part (exact near 0, unlike acos of a dot). */
function angleBetween(a: quat, b: quat): number {
  const [ax, ay, az, aw] = [-a[0], -a[1], -a[2], a[3]];
  const [bx, by, bz, bw] = [b[0], b[1], b[2], b[3]];
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  return 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
}

describe('retargeting a VRMA through the humanoid (docs/explanation/skinning-formulas.md R1)', () => {
  it('turns each humanoid bone by the VRMA bone\'s model-space change from its T-pose, and scales the hips\' motion by the hips-height ratio', async () => {
    const library = await loadClips({ name: 'dance.vrma', bytes: buildVrma() }, none);
    const target = await humanoidTarget();
    const { clips, match, warnings } = retargetClipLibrary(library, target);
    expect(warnings).toEqual(['Target.glb: 1 joint matches no joint of dance.vrma and keeps its rest pose: Armature']);
    expect(match.matched).toEqual(['mixamorig:Hips', 'mixamorig:Spine', 'mixamorig:Head', 'mixamorig:LeftUpLeg']);

    const skeleton = target.skeleton;
    const joint = (name: string) => skeleton.names.indexOf(`mixamorig:${name}`);
    const restModel = localToModel(new Float32Array(16 * skeleton.jointCount), skeleton, target.restPose);
    const runtime = compileClip(clips[0], skeleton.jointCount);
    const pose = cloneLocalPose(target.restPose);
    const context = new SamplingContext();
    const model = new Float32Array(16 * skeleton.jointCount);
    const k = VRMA_KEYS;
    const slerp = (keys: readonly (readonly number[])[], t: number) => quat.slerp(quat.create(), keys[0] as quat, keys[1] as quat, t);
    for (const t of [0, 0.25, 0.5, 0.8, 1]) {
      sampleClip(pose, runtime, t, context);
      localToModel(model, skeleton, pose);
      // The VRMA's rest rotations are all identity, so its model-space change from rest is its model rotation.
      const spine = slerp(k.spineRotation, t);
      const change: Record<string, quat> = {
        Hips: quat.create(),
        Spine: spine,
        Head: quat.multiply(quat.create(), spine, slerp(k.headRotation, t)),
        LeftUpLeg: slerp(k.legRotation, t),
      };
      for (const [name, sourceChange] of Object.entries(change)) {
        const expected = quat.multiply(quat.create(), sourceChange, rotationOf(restModel, joint(name)));
        expect(angleBetween(rotationOf(model, joint(name)), expected), `${name} at ${t} s`).toBeLessThan(1e-5);
      }
      // Hips: rest position + ratio · the VRMA hips' displacement from its rest (0, 1, 0).
      const ratio = TARGET_HIPS_HEIGHT / 1;
      const source = vec3.lerp(vec3.create(), k.hipsTranslation[0] as vec3, k.hipsTranslation[1] as vec3, t);
      const h = joint('Hips');
      const expected = [0 + ratio * source[0], TARGET_HIPS_HEIGHT + ratio * (source[1] - 1), 0 + ratio * source[2]];
      const got = Array.from(model.subarray(16 * h + 12, 16 * h + 15));
      got.forEach((v, i) => expect(v, `hips ${'xyz'[i]} at ${t} s`).toBeCloseTo(expected[i], 6));
    }
  });

  it('carries the expression and look-at tracks over unchanged', async () => {
    const library = await loadClips({ name: 'dance.vrma', bytes: buildVrma() }, none);
    const { clips } = retargetClipLibrary(library, await humanoidTarget());
    expect(clips[0].expressionTracks).toBe(library.clips[0].expressionTracks);
    expect(clips[0].lookAtTrack).toBe(library.clips[0].lookAtTrack);
  });

  it('matchJoints pairs a VRMA with an avatar by humanoid bone, whatever the joints are called', async () => {
    const library = await loadClips({ name: 'dance.vrma', bytes: buildVrma() }, none);
    const target = await humanoidTarget();
    const hips = target.skeleton.names.indexOf('mixamorig:Hips');
    const match = matchJoints(library.skeleton, target.skeleton, undefined, { source: library.humanoid!, target: { bones: { hips, chest: 0 } } });
    expect(match.sourceOf[hips]).toBe(library.humanoid!.bones.hips!);
    expect(match.matched).toContain('mixamorig:Hips');
  });

  it('a VRMA whose humanoid matches none of the avatar\'s bones is RETARGET_NO_MATCH, naming both files', async () => {
    const library = await loadClips({ name: 'dance.vrma', bytes: buildVrma() }, none);
    const target = await humanoidTarget({ leftHand: 1, rightHand: 2 });
    const error = await loadErrorOf((async () => retargetClipLibrary(library, target))());
    expect(error.code).toBe('RETARGET_NO_MATCH');
    expect(error.file).toBe('dance.vrma');
    expect(error.message).toContain('Target.glb');
    expect(error.message).toContain('dance.vrma');
  });
});
