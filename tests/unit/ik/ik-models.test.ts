import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { AimIkJob } from '../../../src/ik/aim-ik-job.ts';
import { FootPlacementJob } from '../../../src/ik/foot-placement-job.ts';
import { invertAffine, transformVector } from '../../../src/math/affine-mat4.ts';
import { poseJointMatrix } from '../../../src/ik/pose-joint-matrix.ts';
import { commonAncestor, findLegs, findLookAtChain } from '../../../src/ik/rig-names.ts';
import { midAxisFromPose, TwoBoneIkJob } from '../../../src/ik/two-bone-ik-job.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { cross, distance, dot, length, sub } from './ik-rigs.ts';

// The jobs on real rigs, through AnimatedModel.evaluate: the correction must reach modelMatrices (read back with
// jointMatrix, the origin added in f64) and the skinning matrices the GPU and the CPU reference draw with.

const assets = sharedAssets();
const load = async (file: string): Promise<ModelAsset> => loadModelFromPath(join(assets!, 'gltf', file));

const EXPECTED: Record<string, { legs: string[][]; look: string[]; pelvis: string }> = {
  'Fox.glb': {
    legs: [['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017'], ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021']],
    look: ['b_Spine02_03', 'b_Neck_04', 'b_Head_05'],
    pelvis: 'b_Hip_01',
  },
  'CesiumMan.glb': {
    legs: [['leg_joint_L_1', 'leg_joint_L_2', 'leg_joint_L_3'], ['leg_joint_R_1', 'leg_joint_R_2', 'leg_joint_R_3']],
    look: ['torso_joint_3', 'Skeleton_neck_joint_1', 'Skeleton_neck_joint_2'],
    pelvis: 'Skeleton_torso_joint_1',
  },
};

const position = (model: AnimatedModel, joint: number): number[] => {
  const m = model.jointMatrix(joint, new Float64Array(16));
  return [m[12], m[13], m[14]];
};

describe.skipIf(!assets)('IK jobs on Fox and CesiumMan, through AnimatedModel.evaluate', () => {
  for (const file of Object.keys(EXPECTED)) {
    it(`${file}: finds the legs, pelvis and look-at chain by name`, async () => {
      const asset = await load(file);
      const names = asset.skeleton.names;
      const legs = findLegs(asset.skeleton);
      expect(legs.map((leg) => [leg.start, leg.mid, leg.end].map((j) => names[j]))).toEqual(EXPECTED[file].legs);
      expect(names[commonAncestor(asset.skeleton, legs.map((leg) => leg.start))]).toBe(EXPECTED[file].pelvis);
      expect(findLookAtChain(asset.skeleton).map((j) => names[j])).toEqual(EXPECTED[file].look);
    });

    it(`${file}: a two-bone job on a leg takes the ankle to the target in modelMatrices and the skinning matrices`, async () => {
      const asset = await load(file);
      const model = new AnimatedModel(asset);
      const sample = model.clipSample(0).at(0.4);
      model.evaluate(sample);
      const leg = findLegs(asset.skeleton)[0];
      const hip = position(model, leg.start), knee = position(model, leg.mid), ankle = position(model, leg.end);
      const chain = distance(hip, knee) + distance(knee, ankle);
      const skinOf = asset.skins.findIndex((skin) => skin.joints.includes(leg.end));
      const k = asset.skins[skinOf].joints.indexOf(leg.end);
      const head = findLookAtChain(asset.skeleton).at(-1)!;
      const skinBefore = model.skinMatrices[skinOf].slice();
      const headBefore = model.modelMatrices.slice(16 * head, 16 * head + 16);

      const axis = midAxisFromPose(new Float64Array(3), asset.skeleton, model.pose, leg.start, leg.mid, leg.end);
      const job = new TwoBoneIkJob(asset.skeleton, { start: leg.start, mid: leg.mid, end: leg.end, midAxis: axis });
      // Up toward the hip by 15 % of the leg and aside by 5 %: within reach.
      const target = ankle.map((a, i) => a + 0.15 * (hip[i] - a) + (i === 0 ? 0.05 * chain : 0));
      job.target.set(target);
      job.pole.set(sub(knee, hip));
      model.poseJobs.push(job);
      model.evaluate(sample);
      expect(job.reached).toBe(true);
      expect(distance(position(model, leg.end), target)).toBeLessThan(1e-5 * chain);
      // The skinning matrix of the ankle is M·B⁻¹ of the corrected M, and changed; the head (not in the chain) is not.
      const M = model.modelMatrices.subarray(16 * leg.end, 16 * leg.end + 16);
      const B = asset.skins[skinOf].inverseBindMatrices.subarray(16 * k, 16 * k + 16);
      const K = model.skinMatrices[skinOf].subarray(16 * k, 16 * k + 16);
      let largest = 0, moved = 0;
      for (let c = 0; c < 4; c++) {
        for (let r = 0; r < 4; r++) {
          let sum = 0;
          for (let i = 0; i < 4; i++) sum += M[4 * i + r] * B[4 * c + i];
          largest = Math.max(largest, Math.abs(sum - K[4 * c + r]) / (1 + Math.abs(sum)));
          moved = Math.max(moved, Math.abs(K[4 * c + r] - skinBefore[16 * k + 4 * c + r]));
        }
      }
      expect(largest).toBeLessThan(1e-5);
      expect(moved).toBeGreaterThan(1e-3 * chain);
      expect([...model.modelMatrices.subarray(16 * head, 16 * head + 16)]).toEqual([...headBefore]);
      // Weight 0: the same pose as without the job, bit for bit.
      job.weight = 0;
      model.evaluate(sample);
      const withZero = model.skinMatrices[skinOf].slice();
      model.poseJobs.length = 0;
      model.evaluate(sample);
      expect([...withZero]).toEqual([...model.skinMatrices[skinOf]]);
    });

    it(`${file}: an aim chain turns the head's forward axis onto the target`, async () => {
      const asset = await load(file);
      const model = new AnimatedModel(asset);
      const sample = model.clipSample(0).at(0.2);
      model.evaluate(sample);
      const chain = findLookAtChain(asset.skeleton);
      const head = chain.at(-1)!;
      // The head's local axes that point along model +Z (glTF's front) and +Y in this pose.
      const inverse = new Float64Array(16);
      invertAffine(inverse, poseJointMatrix(new Float64Array(16), asset.skeleton, model.pose, head));
      const forward = [...transformVector(new Float64Array(3), inverse, new Float64Array([0, 0, 1]))];
      const up = [...transformVector(new Float64Array(3), inverse, new Float64Array([0, 1, 0]))];
      const job = new AimIkJob(asset.skeleton, { joints: chain, forward: forward.map((x) => x / length(forward)), up });
      const at = position(model, head), size = distance(at, position(model, chain[0]));
      const target = [at[0] + 4 * size, at[1] + 2 * size, at[2] + 6 * size];
      job.target.set(target);
      model.poseJobs.push(job);
      model.evaluate(sample);
      expect(job.reached).toBe(true);
      const m = model.jointMatrix(head, new Float64Array(16));
      const f = [0, 1, 2].map((r) => m[r] * forward[0] + m[4 + r] * forward[1] + m[8 + r] * forward[2]);
      const t = sub(target, [m[12], m[13], m[14]]);
      expect(length(cross(f, t)) / (length(f) * length(t))).toBeLessThan(1e-5);
      expect(dot(f, t)).toBeGreaterThan(0);
    });

    it(`${file}: foot placement puts both ankles at their height above a tilted plane`, async () => {
      const asset = await load(file);
      const model = new AnimatedModel(asset);
      const sample = model.clipSample(0).at(0.5);
      model.evaluate(sample);
      const legs = findLegs(asset.skeleton);
      const pelvis = commonAncestor(asset.skeleton, legs.map((leg) => leg.start));
      const ankles = legs.map((leg) => position(model, leg.end));
      const chain = distance(position(model, legs[0].start), position(model, legs[0].mid)) + distance(position(model, legs[0].mid), ankles[0]);
      const job = new FootPlacementJob(asset.skeleton, {
        pelvis,
        legs: legs.map((leg) => ({ ...leg, midAxis: midAxisFromPose(new Float64Array(3), asset.skeleton, model.pose, leg.start, leg.mid, leg.end) })),
      });
      const tilt = 0.2;
      const normal = [-Math.sin(tilt), Math.cos(tilt), 0];
      const mid = [(ankles[0][0] + ankles[1][0]) / 2, Math.min(ankles[0][1], ankles[1][1]) - 0.1 * chain, (ankles[0][2] + ankles[1][2]) / 2];
      job.planePoint.set(mid);
      job.planeNormal.set(normal);
      job.ankleHeights.fill(0.05 * chain);
      model.poseJobs.push(job);
      model.evaluate(sample);
      expect(job.reached).toBe(true);
      for (const leg of legs) expect(Math.abs(dot(sub(position(model, leg.end), mid), normal) - 0.05 * chain)).toBeLessThan(1e-5 * chain);
    });
  }
});
