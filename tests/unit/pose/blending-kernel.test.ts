/**
 * The blending kernel (WebAssembly SIMD, two layers without per-joint weights) against the portable blendTwo of
 * blendLayers, its reference, on random poses in a pose kernel's arena; and poses outside the arena left to the
 * portable loop.
 */
import { describe, expect, it } from 'vitest';
import { BlendingJob, blendLayers } from '../../../src/animation/blending-job.ts';
import { createBlendingKernel } from '../../../src/pose/blending-kernel.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

const N = 37; // not a multiple of 4: the translations' and scales' last v128 runs into the padding

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function fill(pose: LocalPose, rnd: () => number): void {
  for (let j = 0; j < N; j++) {
    for (let k = 0; k < 3; k++) {
      pose.translations[3 * j + k] = rnd() * 4 - 2;
      pose.scales[3 * j + k] = 0.5 + rnd();
    }
    const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], l = Math.hypot(...q);
    for (let k = 0; k < 4; k++) pose.rotations[4 * j + k] = q[k] / l;
  }
}

function arena() {
  const skeleton = { jointCount: N, parents: Int32Array.from({ length: N }, (_, j) => j - 1), names: [] } as unknown as Skeleton;
  return new PoseKernel(skeleton, [], undefined, { arenaBytes: 1 << 20 }).arena!;
}

describe('blending kernel', () => {
  it('blends two poses as the portable loop does, within float32 rounding, in place too', () => {
    const memory = arena();
    const kernel = createBlendingKernel(memory)!;
    expect(kernel).not.toBeNull();
    const rnd = random(11);
    let worst = 0, runs = 0;
    for (let trial = 0; trial < 40; trial++) {
      const a = memory.createPose(N)!, b = memory.createPose(N)!;
      fill(a, rnd);
      fill(b, rnd);
      const wa = trial % 5 === 0 ? 1 : rnd(), wb = trial % 7 === 0 ? 1e-3 : rnd();
      const inPlace = trial % 2 === 1; // the animator's layer over the result so far: out is the first layer's pose
      const expected = createLocalPose(N), out = inPlace ? a : memory.createPose(N)!;
      const portable = new BlendingJob(), simd = new BlendingJob();
      portable.addLayer(a, wa); portable.addLayer(b, wb);
      simd.addLayer(a, wa); simd.addLayer(b, wb);
      simd.kernel = kernel;
      blendLayers(expected, portable);
      const before = out.rotations.slice();
      blendLayers(out, simd);
      runs++;
      expect(out.rotations).not.toEqual(before); // the kernel wrote
      for (let i = 0; i < 3 * N; i++) {
        worst = Math.max(worst, Math.abs(out.translations[i] - expected.translations[i]) / (1 + Math.abs(expected.translations[i])));
        worst = Math.max(worst, Math.abs(out.scales[i] - expected.scales[i]) / (1 + Math.abs(expected.scales[i])));
      }
      for (let i = 0; i < 4 * N; i++) worst = Math.max(worst, Math.abs(out.rotations[i] - expected.rotations[i]));
    }
    expect(runs).toBe(40);
    expect(worst).toBeLessThan(1e-6);
    expect(worst).toBeGreaterThan(0); // float32 sums, not the portable loop's double ones: the kernel ran
  });

  it('leaves poses outside the arena to the portable loop, and is absent without an arena or with js', () => {
    const memory = arena();
    const kernel = createBlendingKernel(memory)!;
    const rnd = random(5);
    const a = createLocalPose(N), b = memory.createPose(N)!;
    fill(a, rnd);
    fill(b, rnd);
    expect(kernel.blendTwo(createLocalPose(N), { pose: a, weight: 1, jointWeights: null, reference: null }, { pose: b, weight: 1, jointWeights: null, reference: null }, N)).toBe(false);
    const portable = new BlendingJob(), simd = new BlendingJob();
    portable.addLayer(a, 0.3); portable.addLayer(b, 0.7);
    simd.addLayer(a, 0.3); simd.addLayer(b, 0.7);
    simd.kernel = kernel;
    const expected = blendLayers(createLocalPose(N), portable), out = blendLayers(createLocalPose(N), simd);
    expect(out.rotations).toEqual(expected.rotations); // the portable loop itself
    expect(createBlendingKernel(null)).toBeNull();
    expect(createBlendingKernel(memory, { backend: 'js' })).toBeNull();
  });
});
