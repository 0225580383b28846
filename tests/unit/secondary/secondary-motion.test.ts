import { describe, expect, it } from 'vitest';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { SecondaryMotion } from '../../../src/secondary/secondary-motion.ts';
import { SpringBoneJob } from '../../../src/secondary/spring-bone-job.ts';
import { SpringKernel } from '../../../src/pose/spring-kernel.ts';
import { cloneLocalPose, copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { hairRig, modelAsset, spring, springBone } from './spring-fixtures.ts';

const hairAsset = (): ReturnType<typeof modelAsset> => {
  const { skeleton, rest } = hairRig();
  return modelAsset(skeleton, rest, {
    springBone: springBone([spring([1, 2, 3, 4], { gravityPower: 2 })]),
    nodeConstraints: [{ kind: 'rotation', node: 5, source: 1, weight: 1 }],
  });
};
const tipY = (model: AnimatedModel): number => model.jointMatrix(4, new Float64Array(16))[13];

describe('SecondaryMotion in AnimatedModel.evaluate', () => {
  it('is null for a model without secondary motion, present with it', () => {
    const { skeleton, rest } = hairRig();
    expect(new AnimatedModel(modelAsset(skeleton, rest, undefined)).secondaryMotion).toBeNull();
    expect(new AnimatedModel(modelAsset(skeleton, rest, { springBone: null, nodeConstraints: [] })).secondaryMotion).toBeNull();
    const model = new AnimatedModel(hairAsset(), { backend: 'js' });
    expect(model.secondaryMotion?.springs).toBeInstanceOf(SpringBoneJob);
    expect(model.secondaryMotion?.constraints).not.toBeNull();
    // With the WebAssembly pose kernel, the springs run on the spring kernel in its arena.
    expect(new AnimatedModel(hairAsset()).secondaryMotion?.springs).toBeInstanceOf(SpringKernel);
  });

  it('moves the modelMatrices only when stepped; the same frame evaluated twice gives the same pose', () => {
    const model = new AnimatedModel(hairAsset());
    const rest = model.clipSample(-1);
    expect(tipY(model)).toBeCloseTo(1, 6);
    model.evaluate(rest);
    expect(tipY(model)).toBeCloseTo(1, 6);
    for (let f = 0; f < 60; f++) { model.secondaryMotion!.step(1 / 60); model.evaluate(rest); }
    const y = tipY(model);
    expect(y).toBeLessThan(0.9);
    model.evaluate(rest);
    expect(tipY(model)).toBeCloseTo(y, 6);
    // The constraint (body follows base's rotation) runs before the springs turn base: it reads base's rest.
    expect(Array.from(model.pose.rotations.subarray(20, 24))).toEqual(Array.from(model.asset.restPose.rotations.subarray(20, 24)));
  });

  it('reads AnimatedModel.world: an upside-down model hangs its hair up in model space', () => {
    const model = new AnimatedModel(hairAsset());
    model.world.set([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]);
    for (let f = 0; f < 600; f++) { model.secondaryMotion!.step(1 / 60); model.evaluate(model.clipSample(-1)); }
    // jointMatrix applies world: the tip hangs below the base in world space, i.e. above it in model space.
    expect(model.modelMatrices[16 * 4 + 13] - model.modelMatrices[16 + 13]).toBeCloseTo(0.3, 3);
  });

  it('enabled = false leaves the clip\'s pose; enabled again starts at rest from there; moving settles', () => {
    const model = new AnimatedModel(hairAsset());
    const motion = model.secondaryMotion!;
    for (let f = 0; f < 30; f++) { motion.step(1 / 60); model.evaluate(model.clipSample(-1)); }
    expect(motion.moving).toBe(true);
    motion.enabled = false;
    model.evaluate(model.clipSample(-1));
    expect(tipY(model)).toBeCloseTo(1, 6);
    expect(motion.moving).toBe(false);
    motion.enabled = true;
    motion.step(1 / 60);
    model.evaluate(model.clipSample(-1));
    expect(tipY(model)).toBeCloseTo(1, 6);
    for (let f = 0; f < 1200; f++) { motion.step(1 / 60); model.evaluate(model.clipSample(-1)); }
    expect(motion.moving).toBe(false);
  });

  it('as a plain pose job: constraints then springs, the same as the jobs run by hand', () => {
    const asset = hairAsset();
    const motion = new SecondaryMotion(asset);
    const job = new SpringBoneJob(asset.secondaryMotion!.springBone!, asset.skeleton, asset.restPose);
    const a = cloneLocalPose(asset.restPose), b = cloneLocalPose(asset.restPose);
    for (let f = 0; f < 20; f++) {
      copyLocalPose(a, asset.restPose); copyLocalPose(b, asset.restPose);
      motion.step(1 / 60); job.step(1 / 60);
      motion.apply(a, asset.skeleton);
      motion.constraints!.apply(b, asset.skeleton);
      job.apply(b, asset.skeleton);
    }
    expect(Array.from(a.rotations)).toEqual(Array.from(b.rotations));
  });
});
