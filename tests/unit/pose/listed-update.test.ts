import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { animatedSubtrees } from '../../../src/asset/animated-nodes.ts';
import { manyMeshNodes } from '../../fixtures/large-models.ts';

// docs/guide/large-scenes.md: a frame recomputes only the animated subtrees' matrices; the result is the full update's.
describe('AnimatedModel.evaluate on the animated subtrees only', () => {
  for (const backend of ['auto', 'js'] as const) {
    it(`equals a full update, frame after frame, with root motion and pose jobs in between (${backend})`, async () => {
      const asset = await parseGltf('many.glb', manyMeshNodes(200, { materials: 2, animated: 6 }).glb());
      const listed = animatedSubtrees(asset);
      // The spinner, its boxes and the character's joints; not the 194 static boxes.
      expect(listed.length).toBeLessThan(20);
      expect(listed.length).toBeGreaterThan(6);
      const model = new AnimatedModel(asset, { backend });
      const reference = new AnimatedModel(asset, { backend });
      const spin = asset.clips.findIndex((c) => c.name === 'spin');
      model.animator.play(model.clips[spin]);
      reference.animator.play(reference.clips[spin]);
      let fullUpdates = 0;
      const update = reference.kernel.update.bind(reference.kernel);
      reference.kernel.updateListed = () => {
        fullUpdates++;
        update();
      };
      const frame = (): void => {
        for (const m of [model, reference]) {
          m.animator.update(0.1);
          m.evaluate(m.animator);
        }
        expect(model.modelMatrices).toEqual(reference.modelMatrices);
        expect(model.skinMatrices).toEqual(reference.skinMatrices);
      };
      for (let i = 0; i < 5; i++) frame();
      expect(fullUpdates).toBeGreaterThan(0);
      // Root motion placing the roots moves everything, and the frame after it puts everything back.
      for (const m of [model, reference]) m.animator.rootMotion = 'applied';
      for (let i = 0; i < 3; i++) frame();
      for (const m of [model, reference]) m.animator.rootMotion = 'off';
      for (let i = 0; i < 3; i++) frame();
      // A pose job moving a static node (not in the list) is seen, and undone after it is removed.
      const box = asset.skeleton.names.indexOf('box100');
      expect(Array.from(listed)).not.toContain(box);
      for (const m of [model, reference]) m.poseJobs.push({ apply: (pose) => pose.translations.set([0, 5, 0], 3 * box) });
      frame();
      for (const m of [model, reference]) m.poseJobs.length = 0;
      frame();
      frame();
    });
  }

  it('refuses a list outside the skeleton or out of order', () => {
    const kernel = new PoseKernel({ jointCount: 3, names: ['a', 'b', 'c'], parents: new Int32Array([-1, 0, 1]), sourceIndices: new Int32Array([0, 1, 2]) }, []);
    expect(() => kernel.listJoints(new Int32Array([0, 3]))).toThrow(/listed joint 3 at 1/);
    expect(() => kernel.listJoints(new Int32Array([1, 1]))).toThrow(/not after 1/);
    expect(() => kernel.listJoints(new Int32Array([0, 1, 2, 2]))).toThrow(/4 joints listed/);
  });
});
