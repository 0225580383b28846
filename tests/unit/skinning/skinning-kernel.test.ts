import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { influenceCountOf } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { SkinningKernel } from '../../../src/skinning/skinning-kernel.ts';
import { WEIGHT_POLICIES, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import { SHARED_SKINNED_MODELS, sharedAssets } from '../../helpers/shared-assets.ts';
import { BOUND, compareOnModel, oneVertex, reference, rotations, skinnedPrimitives, worstError } from './kernel-parity.ts';

// LBS parity; DQS parity is skinning-kernel-dqs.test.ts. Bound and helpers: kernel-parity.ts.

describe('SkinningKernel (WebAssembly SIMD LBS) against the reference skinVertices', () => {
  it('matches on the built-in octopus, every clip, every weight policy', () => {
    expect(compareOnModel(createOctopusAsset(), 'lbs')).toBeLessThan(BOUND);
  });

  it('matches on every shared skinned model (glTF and MD5), every clip at three times', async () => {
    const assets = sharedAssets();
    if (!assets) return;
    for (const file of SHARED_SKINNED_MODELS) {
      const asset = await loadModelFromPath(join(assets, file));
      expect(compareOnModel(asset, 'lbs'), file).toBeLessThan(BOUND);
    }
  }, 60_000);

  it('matches with 8 and 12 influences per vertex, every weight policy, against the reference and hand-computed values', () => {
    for (const c of [8, 12]) {
      const joints = Array.from({ length: c }, (_, k) => k), weights = joints.map((k) => (k % 3 === 2 ? 0 : 0.1 + 0.05 * k));
      const primitive = oneVertex(c, joints, weights);
      const palette = rotations(c), context = new SkinningContext(c);
      const kernel = new SkinningKernel(primitive, context);
      for (const policy of WEIGHT_POLICIES) {
        const method: SkinningMethod = { skinning: 'lbs', weights: policy };
        kernel.skin(palette, method);
        expect(worstError(kernel, reference(primitive, palette, context, method)), `${c} slots, ${policy}`).toBeLessThan(BOUND);
      }
      // as-stored, by hand: Σ wₖ·(Rₖ·p₀ + tₖ) in doubles.
      kernel.skin(palette, { skinning: 'lbs', weights: 'as-stored' });
      const expected = [0, 0, 0];
      weights.forEach((w, k) => {
        const a = 0.3 * k, cos = Math.cos(a), sin = Math.sin(a);
        expected[0] += w * (cos * 1 - sin * 2 + k); expected[1] += w * (sin * 1 + cos * 2 + 2 * k); expected[2] += w * 3;
      });
      Array.from(kernel.positions).forEach((x, i) => expect(x).toBeCloseTo(expected[i], 5));
    }
  });

  it('keeps an unweighted vertex at rest minus the origin, and writes only the outputs asked for', () => {
    const primitive = oneVertex(4, [0, 1, 2, 3], [0, 0, 0, 0]);
    const context = new SkinningContext(4, [10, 20, 30]);
    const kernel = new SkinningKernel(primitive, context);
    kernel.normals.fill(7);
    kernel.skin(rotations(4), undefined, false, true);
    expect(Array.from(kernel.positions)).toEqual([-9, -18, -27]);
    expect(Array.from(kernel.normals)).toEqual([7, 7, 7]);
    expect(Array.from(kernel.tangents!)).toEqual([1, 0, 0, -1]);
  });

  it('fails a wrong weight: one slot changed by 0.01 differs far beyond the bound', async () => {
    const asset = createOctopusAsset();
    const { primitive, skin } = skinnedPrimitives(asset)[0];
    const context = new SkinningContext(asset.skins[skin]);
    const pose = new PoseKernel(asset.skeleton, asset.skins);
    copyLocalPose(pose.pose, asset.restPose);
    sampleClipOnce(pose.pose, asset.clips[0], 0.4);
    pose.update();
    // The first vertex with two influences: 0.01 of weight moved from one joint to the other.
    const c = influenceCountOf(primitive), weights = primitive.weights!.slice();
    let v = 0;
    while (!(weights[c * v] > 0.1 && weights[c * v + 1] > 0.1)) v++;
    weights[c * v] -= 0.01;
    weights[c * v + 1] += 0.01;
    const wrong = new SkinningKernel({ ...primitive, weights }, context);
    wrong.skin(pose.skinMatrices[skin]);
    const error = worstError(wrong, reference(primitive, pose.skinMatrices[skin], context, { skinning: 'lbs', weights: 'normalize' }));
    expect(error).toBeGreaterThan(100 * BOUND);
  });

  it('rejects a weighted slot naming a joint outside the palette, too many skinning matrices, and tangents it has not', () => {
    expect(() => new SkinningKernel(oneVertex(4, [0, 9, 0, 0], [0.5, 0.5, 0, 0]), new SkinningContext(4)))
      .toThrow(/slot 1 names joint 9 of a 4-joint palette/);
    // A zero-weight slot may name any joint (it is never read).
    const kernel = new SkinningKernel(oneVertex(4, [0, 9, 0, 0], [1, 0, 0, 0]), new SkinningContext(4));
    kernel.skin(rotations(4));
    expect(Array.from(kernel.positions)).toEqual([1, 2, 3]);
    expect(() => kernel.skin(rotations(5))).toThrow(/5 joints, the skinning context 4/);
    const bare = new SkinningKernel({ ...oneVertex(4, [0, 0, 0, 0], [1, 0, 0, 0]), tangents: null }, new SkinningContext(4));
    expect(bare.tangents).toBeNull();
    expect(() => bare.skin(rotations(4), undefined, true, true)).toThrow(/without tangents/);
  });

  it('streamOnly (the bench memory floor) touches every input and writes the rest pose; the portable backend has none', () => {
    const primitive = oneVertex(8, [0, 1, 2, 3, 4, 5, 6, 7], [0.5, 0.5, 0, 0, 0, 0, 0, 0]);
    const kernel = new SkinningKernel(primitive, new SkinningContext(8, [10, 20, 30]));
    kernel.streamOnly();
    expect(Array.from(kernel.positions)).toEqual([1, 2, 3]);
    expect(Array.from(kernel.normals)).toEqual([0, 0, 1]);
    expect(() => new SkinningKernel(primitive, new SkinningContext(8), { backend: 'js' }).streamOnly()).toThrow(/no memory floor/);
  });
});
