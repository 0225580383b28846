import { describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import * as THREE from 'three';
import { VRMHumanoid, type VRMHumanBoneName } from '@pixiv/three-vrm';
import type { HumanoidBoneName } from '../../../src/asset/avatar-asset.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { computeModelFrames, createModelFrames } from '../../../src/skeleton/model-frames.ts';
import { HUMANOID_BONES, HUMANOID_BONE_NAMES } from '../../../src/humanoid/humanoid-bones.ts';
import { quatConjugateMultiplyAt } from '../../../src/math/quaternion.ts';
import {
  createNormalizedHumanoid, getNormalizedHipsPosition, getNormalizedRotation, setNormalizedHipsPosition, setNormalizedRotation,
} from '../../../src/humanoid/normalized-humanoid.ts';
import { humanoidNames, random, randomRotation, syntheticHumanoid } from './synthetic-humanoid.ts';

const rig = syntheticHumanoid(humanoidNames, 5, { twist: true });
const humanoid = { bones: rig.bones };
const identity = [0, 0, 0, 1];

/** The angle (radians) between two rotations: of conj(a)·b, from its vector part (acos near 1 would amplify rounding). */
function rotationGap(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const d = quatConjugateMultiplyAt(new Float64Array(4), 0, a, ao, b, bo);
  return 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3]));
}

describe('the normalised humanoid view', () => {
  const view = createNormalizedHumanoid(rig.skeleton, rig.restPose, humanoid);

  it('maps every bone of the rig, and its rest pose is the identity on each', () => {
    expect(Array.from(view.joints)).toEqual(HUMANOID_BONE_NAMES.map((b) => rig.bones[b]));
    const out = new Float64Array(4);
    for (const bone of HUMANOID_BONE_NAMES) {
      getNormalizedRotation(out, view, rig.restPose, bone);
      expect(rotationGap(out, 0, identity, 0), bone).toBeLessThan(2e-6);
    }
  });

  it('a normalised rotation about model X turns the bone about model X, whatever its rest frame', () => {
    const turn = quat.setAxisAngle(quat.create(), [1, 0, 0], 0.7);
    const frames = createModelFrames(rig.skeleton.jointCount);
    for (const bone of HUMANOID_BONE_NAMES) {
      const pose = setNormalizedRotation(cloneLocalPose(rig.restPose), view, bone, turn);
      computeModelFrames(frames, rig.skeleton, pose, identity);
      const j = rig.bones[bone]!;
      const expected = quat.multiply(quat.create(), turn, rig.modelRotations[j] as unknown as quat);
      expect(rotationGap(frames.q, 4 * j, expected, 0), bone).toBeLessThan(2e-6);
      // Its children swing about it: their offsets turned about model X.
      for (const child of HUMANOID_BONES.filter((b) => b.parent === bone && rig.bones[b.name] !== undefined)) {
        const c = rig.bones[child.name]!;
        const rest = rig.modelPositions[c].map((v, i) => v - rig.modelPositions[j][i]);
        const moved = [0, 1, 2].map((i) => frames.p[3 * c + i] - frames.p[3 * j + i]);
        const turned = [rest[0], Math.cos(0.7) * rest[1] - Math.sin(0.7) * rest[2], Math.sin(0.7) * rest[1] + Math.cos(0.7) * rest[2]];
        for (let i = 0; i < 3; i++) expect(Math.abs(moved[i] - turned[i]), `${bone} → ${child.name}`).toBeLessThan(1e-5);
      }
    }
  });

  it('normalised rotations compose down the humanoid chain (through a non-humanoid twist joint at rest)', () => {
    const next = random(17);
    const chain: HumanoidBoneName[] = ['hips', 'spine', 'chest', 'upperChest', 'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand', 'leftIndexProximal'];
    const pose = cloneLocalPose(rig.restPose);
    const product = quat.create();
    for (const bone of chain) {
      const n = randomRotation(next);
      setNormalizedRotation(pose, view, bone, n);
      quat.multiply(product, product, n as unknown as quat);
    }
    const frames = computeModelFrames(createModelFrames(rig.skeleton.jointCount), rig.skeleton, pose, identity);
    const j = rig.bones.leftIndexProximal!;
    expect(rotationGap(frames.q, 4 * j, quat.multiply(quat.create(), product, rig.modelRotations[j] as unknown as quat), 0)).toBeLessThan(2e-6);
  });

  it('round trip: get after set gives the rotation back; the hips position likewise', () => {
    const next = random(23);
    const pose = cloneLocalPose(rig.restPose);
    const out = new Float32Array(4);
    for (const bone of HUMANOID_BONE_NAMES) {
      const n = randomRotation(next);
      setNormalizedRotation(pose, view, bone, n);
      getNormalizedRotation(out, view, pose, bone);
      expect(rotationGap(out, 0, n, 0), bone).toBeLessThan(2e-6);
    }
    const position = Float64Array.of(0.3, 0.9, -0.4), back = new Float64Array(3);
    setNormalizedHipsPosition(pose, view, position);
    getNormalizedHipsPosition(back, view, pose);
    for (let i = 0; i < 3; i++) expect(back[i]).toBeCloseTo(position[i], 6);
    const frames = computeModelFrames(createModelFrames(rig.skeleton.jointCount), rig.skeleton, pose, identity);
    for (let i = 0; i < 3; i++) expect(frames.p[3 * rig.bones.hips! + i]).toBeCloseTo(position[i], 6);
  });

  it('bones the rig lacks are skipped on set and read as the identity', () => {
    const partial = createNormalizedHumanoid(rig.skeleton, rig.restPose, { bones: { hips: rig.bones.hips, spine: rig.bones.spine } });
    const pose = cloneLocalPose(rig.restPose);
    setNormalizedRotation(pose, partial, 'head', [1, 0, 0, 0]);
    expect(Array.from(pose.rotations)).toEqual(Array.from(rig.restPose.rotations));
    expect(Array.from(getNormalizedRotation(new Float64Array(4), partial, pose, 'head'))).toEqual([0, 0, 0, 1]);
    expect(() => createNormalizedHumanoid(rig.skeleton, rig.restPose, { bones: { hips: 999 } })).toThrow(RangeError);
  });

  it('writes the raw rotations and hips translation three-vrm\'s normalized humanoid bones write', () => {
    // The same rig as three.js nodes, with three-vrm's VRMHumanoid over it.
    const nodes = rig.skeleton.names.map((name, j) => {
      const node = new THREE.Object3D();
      node.name = name;
      node.position.fromArray(rig.restPose.translations, 3 * j);
      node.quaternion.fromArray(rig.restPose.rotations, 4 * j);
      return node;
    });
    rig.skeleton.parents.forEach((p, j) => { if (p >= 0) nodes[p].add(nodes[j]); });
    nodes[0].updateMatrixWorld(true);
    const humanBones = Object.fromEntries(Object.entries(rig.bones).map(([bone, j]) => [bone, { node: nodes[j] }]));
    const reference = new VRMHumanoid(humanBones as never);
    const next = random(31);
    const pose = cloneLocalPose(rig.restPose);
    for (const bone of HUMANOID_BONE_NAMES) {
      const n = randomRotation(next);
      reference.getNormalizedBoneNode(bone as VRMHumanBoneName)!.quaternion.fromArray(n);
      setNormalizedRotation(pose, view, bone, n);
    }
    const hips = [0.2, 1.1, 0.05];
    reference.getNormalizedBoneNode('hips')!.position.fromArray(hips);
    reference.update();
    setNormalizedHipsPosition(pose, view, hips);
    let worst = 0;
    for (const bone of HUMANOID_BONE_NAMES) {
      const j = rig.bones[bone]!;
      worst = Math.max(worst, rotationGap(nodes[j].quaternion.toArray(), 0, pose.rotations, 4 * j));
    }
    expect(worst).toBeLessThan(2e-6);
    const h = rig.bones.hips!;
    for (let i = 0; i < 3; i++) expect(pose.translations[3 * h + i]).toBeCloseTo(nodes[h].position.getComponent(i), 5);
  });
});
