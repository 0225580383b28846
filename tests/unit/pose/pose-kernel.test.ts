import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { copyLocalPose } from '../../../src/skeleton/local-pose.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { computeModelOrigin } from '../../../src/scene/model-origin.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import { SHARED_SKINNED_MODELS, sharedAssets } from '../../helpers/shared-assets.ts';

/**
 * The SIMD backend rounds every product and sum to float32 where the portable one rounds each element once,
 * so an element may differ by a few float32 ulps of the magnitudes summed into it, compounding down a chain
 * of joints. Bound: 2⁻¹⁸ (≈ 3.8e-6, 32 ulps at 1) of the scale of what is summed: for a rotation-scale
 * column its largest element (at least 1), for a translation column the model's extent (the largest
 * |coordinate| of any joint, at least 1), since a palette's translation is the difference of model-sized
 * terms. Far below a pixel; a wrong product (a swapped index, a missing term) is off by the size of a term.
 */
const BOUND = 2 ** -18;

/** The largest |translation| of any matrix in `matrices` (`Float32Array(16k)`), at least 1. */
function extentOf(matrices: Float32Array): number {
  let extent = 1;
  for (let m = 0; m < matrices.length; m += 16) for (let r = 12; r < 15; r++) extent = Math.max(extent, Math.abs(matrices[m + r]));
  return extent;
}

function maxColumnError(a: Float32Array, b: Float32Array, extent = extentOf(b)): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let m = 0; m < a.length; m += 16) {
    for (let c = 0; c < 16; c += 4) {
      let scale = c === 12 ? extent : 1;
      if (c < 12) for (let r = 0; r < 3; r++) scale = Math.max(scale, Math.abs(b[m + c + r]));
      for (let r = 0; r < 4; r++) worst = Math.max(worst, Math.abs(a[m + c + r] - b[m + c + r]) / scale);
    }
  }
  return worst;
}

function expectAffineBottomRows(matrices: Float32Array): void {
  for (let m = 0; m < matrices.length; m += 16) {
    expect([matrices[m + 3], matrices[m + 7], matrices[m + 11], matrices[m + 15]]).toEqual([0, 0, 0, 1]);
  }
}

/** Runs both backends on `asset`'s rest pose and every clip at five times; returns the worst error. */
function compareOnModel(asset: ModelAsset): number {
  const origin = computeModelOrigin(asset);
  const simd = new PoseKernel(asset.skeleton, asset.skins, origin);
  const portable = new PoseKernel(asset.skeleton, asset.skins, origin, { backend: 'js' });
  expect(simd.backend).toBe('wasm-simd');
  expect(portable.backend).toBe('js');
  let worst = 0;
  const poses = [-1, ...asset.clips.keys()].flatMap((c) => (c < 0 ? [[c, 0]] : [0, 0.23, 0.5, 0.77, 1].map((f) => [c, f * asset.clips[c].duration])));
  for (const [c, time] of poses) {
    for (const kernel of [simd, portable]) {
      copyLocalPose(kernel.pose, asset.restPose);
      if (c >= 0) sampleClipOnce(kernel.pose, asset.clips[c], time);
      kernel.update();
      expectAffineBottomRows(kernel.modelMatrices);
      kernel.skinMatrices.forEach(expectAffineBottomRows);
    }
    const extent = extentOf(portable.modelMatrices);
    worst = Math.max(worst, maxColumnError(simd.modelMatrices, portable.modelMatrices, extent));
    simd.skinMatrices.forEach((palette, s) => { worst = Math.max(worst, maxColumnError(palette, portable.skinMatrices[s], extent)); });
  }
  return worst;
}

describe('PoseKernel', () => {
  it('computes with WebAssembly SIMD in node, the same matrices as the portable functions on the built-in octopus', () => {
    expect(compareOnModel(createOctopusAsset())).toBeLessThan(BOUND);
  });

  it('matches the portable functions on every shared skinned model (glTF and MD5), every clip at five times', async () => {
    const assets = sharedAssets();
    if (!assets) return;
    for (const file of SHARED_SKINNED_MODELS) {
      const asset = await loadModelFromPath(join(assets, file));
      expect(compareOnModel(asset), file).toBeLessThan(BOUND);
    }
  });

  it('matches on a random 300-joint tree with non-uniform scales, 5 km from the origin', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const n = 300;
    const parents = new Int32Array(n).map((_, i) => (i === 0 ? -1 : random() < 0.7 ? i - 1 : Math.floor(random() * i)));
    const skeleton: Skeleton = { jointCount: n, names: [], parents, sourceIndices: new Int32Array(n) };
    const joints = Int32Array.from({ length: 40 }, (_, i) => (i * 7) % n);
    const inverseBindMatrices = new Float32Array(16 * joints.length);
    for (let i = 0; i < joints.length; i++) inverseBindMatrices.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, random() - 0.5, random() - 0.5, random() - 0.5, 1], 16 * i);
    const skins = [{ name: 'random', joints, inverseBindMatrices }];
    const origin = [5000, 20, -3000];
    const simd = new PoseKernel(skeleton, skins, origin), portable = new PoseKernel(skeleton, skins, origin, { backend: 'js' });
    for (const kernel of [simd, portable]) {
      const { translations: t, rotations: r, scales: s } = kernel.pose;
      seed = 99;
      for (let i = 0; i < n; i++) {
        t.set(i === 0 ? [5000.25, 19.5, -2999.75] : [random() * 0.2, random() * 0.2, random() * 0.2], 3 * i);
        const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5], len = Math.hypot(...q);
        r.set(q.map((v) => v / len), 4 * i);
        s.set([0.9 + random() * 0.2, 0.9 + random() * 0.2, 0.9 + random() * 0.2], 3 * i);
      }
      kernel.update();
    }
    expect(simd.modelMatrices[12]).toBeCloseTo(0.25, 5);
    const extent = extentOf(portable.modelMatrices);
    expect(maxColumnError(simd.modelMatrices, portable.modelMatrices, extent)).toBeLessThan(BOUND);
    expect(maxColumnError(simd.skinMatrices[0], portable.skinMatrices[0], extent)).toBeLessThan(BOUND);
  });

  it('fails a wrong product: a palette computed from another joint differs far beyond the bound', () => {
    const asset = createOctopusAsset();
    const kernel = new PoseKernel(asset.skeleton, asset.skins);
    copyLocalPose(kernel.pose, asset.restPose);
    sampleClipOnce(kernel.pose, asset.clips[0], 0.4);
    kernel.update();
    const palette = kernel.skinMatrices[0], shifted = palette.slice();
    shifted.copyWithin(16, 32, 48);
    expect(maxColumnError(shifted, palette)).toBeGreaterThan(1000 * BOUND);
  });

  it('rejects a skin naming a joint outside the skeleton', () => {
    const asset = createOctopusAsset();
    const skin = { name: 'bad', joints: Int32Array.of(0, asset.skeleton.jointCount), inverseBindMatrices: new Float32Array(32) };
    expect(() => new PoseKernel(asset.skeleton, [skin])).toThrow(/skin "bad" names joint \d+ of a \d+-joint skeleton/);
  });
});
