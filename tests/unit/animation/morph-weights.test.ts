import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { Animator } from '../../../src/animation/animator.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { morphWeightJoints } from '../../../src/skinning/morph-targets.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';

/** The tube's clips sampled alone: clip `c` at `t`, its morph weights. */
function weightsAt(model: AnimatedModel, clip: number, t: number): number[] {
  model.evaluate(model.clipSample(clip).at(t));
  return Array.from(model.morphWeights);
}

describe('morph weights in the Animator (linear blends, masks by the joint carrying the mesh)', () => {
  it('an override layer masked off at the mesh node leaves the weights below; masked on, it replaces them', async () => {
    const asset = await parseGltf('tube.glb', skinnedMorphTube({ interpolation: 'STEP' }).glb());
    const model = new AnimatedModel(asset);
    const base = weightsAt(model, 0, 1.5), top = weightsAt(model, 1, 1.2);
    const node = asset.meshInstances[0].node;
    expect(Array.from(morphWeightJoints(asset))).toEqual([node, node, node]);
    for (const maskAtNode of [0, 1, 0.25]) {
      const animator = new Animator(asset.skeleton.jointCount, { morphWeightJoints: morphWeightJoints(asset) });
      animator.play(model.clips[0], { startTime: 1.5 });
      const mask = new Float32Array(asset.skeleton.jointCount).fill(1 - maskAtNode);
      mask[node] = maskAtNode;
      animator.play(model.clips[1], { layer: animator.addLayer({ mask }), startTime: 1.2 });
      const pose = createLocalPose(asset.skeleton.jointCount, 3);
      animator.evaluate(pose, asset.restPose);
      for (let i = 0; i < 3; i++) expect(pose.morphWeights![i]).toBeCloseTo(base[i] + maskAtNode * (top[i] - base[i]), 6);
    }
  });

  it('an additive layer adds (clip − reference) to the weights, scaled by the layer weight', async () => {
    const asset = await parseGltf('tube.glb', skinnedMorphTube().glb());
    const model = new AnimatedModel(asset);
    const base = weightsAt(model, 0, 0.5), additive = weightsAt(model, 1, 1), reference = weightsAt(model, 1, 0);
    const animator = new Animator(asset.skeleton.jointCount, { morphWeightJoints: morphWeightJoints(asset) });
    animator.play(model.clips[0], { startTime: 0.5 });
    animator.play(model.clips[1], { layer: animator.addLayer({ mode: 'additive', weight: 0.5 }), startTime: 1 });
    const pose = createLocalPose(asset.skeleton.jointCount, 3);
    animator.evaluate(pose, asset.restPose);
    for (let i = 0; i < 3; i++) expect(pose.morphWeights![i]).toBeCloseTo(base[i] + 0.5 * (additive[i] - reference[i]), 6);
  });

  it('refuses a clip animating morph weights the animator does not have', async () => {
    const asset = await parseGltf('tube.glb', skinnedMorphTube().glb());
    const model = new AnimatedModel(asset);
    expect(() => new Animator(asset.skeleton.jointCount).play(model.clips[1])).toThrow(/animates 3 morph weights, the animator has 0/);
  });
});
