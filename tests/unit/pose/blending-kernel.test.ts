/**
 * The blending kernel (WebAssembly SIMD, a whole BlendingJob in one call) against blendLayers' portable loops,
 * its reference, on random poses in a pose kernel's arena: 1, 2, 3 and 5 normal layers, with and without
 * per-joint weights, additive layers with and without them, with and without a rest pose, weights summing
 * below the threshold, in place, joint counts with and without a partial last group of four; then what the
 * portable loops guarantee exactly (one input: that input bit for bit; no input: out as it was), and jobs left
 * to the portable loops.
 */
import { describe, expect, it } from 'vitest';
import { BlendingJob, blendLayers } from '../../../src/animation/blending-job.ts';
import { createBlendingKernel, type BlendingKernel } from '../../../src/pose/blending-kernel.ts';
import type { KernelArena } from '../../../src/pose/kernel-arena.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { cloneLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

/**
 * The bound of kernel − portable: per translation or scale component |Δ|/(1 + |x|), per rotation component
 * |Δ| (unit quaternions). Float32 sums against double ones over up to five layers, a rest pose and two additive
 * layers: 1e-6 is 8 float32 ulps at 1.
 */
const TOLERANCE = 1e-6;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function fill(pose: LocalPose, n: number, rnd: () => number): void {
  for (let j = 0; j < n; j++) {
    for (let k = 0; k < 3; k++) {
      pose.translations[3 * j + k] = rnd() * 4 - 2;
      pose.scales[3 * j + k] = 0.5 + rnd();
    }
    const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], l = Math.hypot(...q);
    for (let k = 0; k < 4; k++) pose.rotations[4 * j + k] = q[k] / l;
  }
}

/** A random per-joint weight array in the kernel's memory: values in [0, 1] with exact 0s and 1s among them. */
function mask(kernel: BlendingKernel, n: number, rnd: () => number): Float32Array {
  const m = kernel.createJointWeights(n)!;
  for (let j = 0; j < n; j++) {
    const r = rnd();
    m[j] = r < 0.2 ? 0 : r < 0.4 ? 1 : rnd();
  }
  return m;
}

function arena(): KernelArena {
  const skeleton = { jointCount: 4, parents: Int32Array.of(-1, 0, 1, 2), names: [] } as unknown as Skeleton;
  return new PoseKernel(skeleton, [], undefined, { arenaBytes: 1 << 24 }).arena!;
}

/** The largest difference of `a` from `b` in the measure of {@link TOLERANCE}. */
function difference(a: LocalPose, b: LocalPose): number {
  let worst = 0;
  for (let i = 0; i < b.translations.length; i++) {
    worst = Math.max(worst, Math.abs(a.translations[i] - b.translations[i]) / (1 + Math.abs(b.translations[i])));
    worst = Math.max(worst, Math.abs(a.scales[i] - b.scales[i]) / (1 + Math.abs(b.scales[i])));
  }
  for (let i = 0; i < b.rotations.length; i++) worst = Math.max(worst, Math.abs(a.rotations[i] - b.rotations[i]));
  return Number.isNaN(worst) ? Infinity : worst;
}

interface Case {
  n: number;
  layers: number;
  masks: 'none' | 'some' | 'all';
  additives: number;
  additiveMasks: boolean;
  rest: boolean;
  below: boolean;
  inPlace: boolean;
}

/** One job built twice, in the arena: blended by the kernel and by the portable loops. @returns the difference */
function run(memory: KernelArena, kernel: BlendingKernel, c: Case, rnd: () => number): number {
  const pose = () => {
    const p = memory.createPose(c.n)!;
    fill(p, c.n, rnd);
    return p;
  };
  const simd = new BlendingJob(), portable = new BlendingJob();
  simd.kernel = kernel;
  const poses: LocalPose[] = [];
  for (let l = 0; l < c.layers; l++) {
    const p = pose();
    poses.push(p);
    // Below the threshold: weights of a few hundredths, so that W < 0.1 at every joint.
    const weight = c.below ? 0.005 + 0.02 * rnd() : l === 0 && rnd() < 0.3 ? 1 : 0.05 + rnd();
    const m = c.masks === 'all' || (c.masks === 'some' && l % 2 === 1) ? mask(kernel, c.n, rnd) : null;
    simd.addLayer(p, weight, m);
    portable.addLayer(p, weight, m);
  }
  for (let l = 0; l < c.additives; l++) {
    const p = pose(), reference = pose();
    const weight = l === 1 ? -0.4 : 0.2 + rnd(), m = c.additiveMasks ? mask(kernel, c.n, rnd) : null;
    simd.addAdditiveLayer(p, reference, weight, m);
    portable.addAdditiveLayer(p, reference, weight, m);
  }
  if (c.rest) simd.restPose = portable.restPose = pose();
  // In place: out is the first layer's pose (the animator's layer over the result so far).
  const out = c.inPlace && c.layers > 0 ? poses[0] : pose();
  const expected = cloneLocalPose(out);
  blendLayers(expected, portable);
  expect(kernel.blend(out, simd, c.n)).toBe(true); // blendLayers' own call (the morph weights aside)
  return difference(out, expected);
}

describe('blending kernel', () => {
  it(`runs every kind of job as the portable loops do, within ${TOLERANCE} (float32 against double sums)`, () => {
    const memory = arena();
    const kernel = createBlendingKernel(memory)!;
    expect(kernel).not.toBeNull();
    const rnd = random(11);
    let worst = 0, runs = 0;
    for (const n of [4, 5, 37, 40]) {
      for (const layers of [1, 2, 3, 5]) {
        for (const masks of ['none', 'some', 'all'] as const) {
          for (const additives of [0, 1, 2]) {
            for (const additiveMasks of additives > 0 ? [false, true] : [false]) {
              for (const rest of [false, true]) {
                for (const below of [false, true]) {
                  for (const inPlace of [false, true]) {
                    const c: Case = { n, layers, masks, additives, additiveMasks, rest, below, inPlace };
                    const d = run(memory, kernel, c, rnd);
                    if (!(d <= TOLERANCE)) throw new Error(`${JSON.stringify(c)}: ${d}`);
                    worst = Math.max(worst, d);
                    runs++;
                  }
                }
              }
            }
          }
        }
      }
    }
    expect(runs).toBe(4 * 4 * 3 * 5 * 2 * 2 * 2);
    expect(worst).toBeLessThanOrEqual(TOLERANCE);
    expect(worst).toBeGreaterThan(0); // float32 sums, not the portable loops' double ones: the kernel ran
  });

  it('runs an additive layer alone (no normal layer, no rest pose: over out as it is)', () => {
    const memory = arena();
    const kernel = createBlendingKernel(memory)!;
    const rnd = random(3);
    for (const n of [4, 6, 33]) {
      for (const masked of [false, true]) {
        const d = run(memory, kernel, { n, layers: 0, masks: 'none', additives: 1, additiveMasks: masked, rest: false, below: false, inPlace: false }, rnd);
        expect(d).toBeLessThanOrEqual(TOLERANCE);
      }
    }
  });

  it('gives a joint with one input that input bit for bit, and leaves a joint without any as it was', () => {
    const memory = arena();
    const kernel = createBlendingKernel(memory)!;
    const rnd = random(7);
    const n = 37;
    const a = memory.createPose(n)!, b = memory.createPose(n)!, out = memory.createPose(n)!;
    fill(a, n, rnd); fill(b, n, rnd); fill(out, n, rnd);
    const before = cloneLocalPose(out);
    // A crossfade through masks: joint j takes a alone (j % 3 = 0), b alone (1), nothing (2).
    const ma = kernel.createJointWeights(n)!, mb = kernel.createJointWeights(n)!;
    for (let j = 0; j < n; j++) {
      ma[j] = j % 3 === 0 ? 1 : 0;
      mb[j] = j % 3 === 1 ? 1 : 0;
    }
    const job = new BlendingJob();
    job.kernel = kernel;
    job.addLayer(a, 0.7, ma);
    job.addLayer(b, 0.3, mb);
    expect(kernel.blend(out, job, n)).toBe(true);
    for (let j = 0; j < n; j++) {
      const source = j % 3 === 0 ? a : j % 3 === 1 ? b : before;
      expect(Array.from(out.translations.subarray(3 * j, 3 * j + 3))).toEqual(Array.from(source.translations.subarray(3 * j, 3 * j + 3)));
      expect(Array.from(out.scales.subarray(3 * j, 3 * j + 3))).toEqual(Array.from(source.scales.subarray(3 * j, 3 * j + 3)));
      expect(Array.from(out.rotations.subarray(4 * j, 4 * j + 4))).toEqual(Array.from(source.rotations.subarray(4 * j, 4 * j + 4)));
    }
  });

  it('leaves jobs it cannot run to the portable loops, and is absent without an arena or with js', () => {
    const memory = arena();
    const kernel = createBlendingKernel(memory)!;
    const rnd = random(5);
    const n = 37;
    const inside = memory.createPose(n)!, outside = createLocalPose(n);
    fill(inside, n, rnd);
    fill(outside, n, rnd);
    const job = new BlendingJob();
    job.addLayer(outside, 0.3);
    job.addLayer(inside, 0.7);
    expect(kernel.blend(memory.createPose(n)!, job, n)).toBe(false); // a pose outside
    job.layers[0].pose = inside;
    job.layers[0].jointWeights = new Float32Array(n).fill(0.5);
    expect(kernel.blend(memory.createPose(n)!, job, n)).toBe(false); // a mask outside
    job.layers[0].jointWeights = null;
    expect(kernel.blend(createLocalPose(n), job, n)).toBe(false); // out outside
    job.restPose = createLocalPose(n);
    expect(kernel.blend(memory.createPose(n)!, job, n)).toBe(false); // the rest pose outside
    job.restPose = null;
    const small = memory.createPose(3)!, smallJob = new BlendingJob();
    smallJob.addLayer(small, 1);
    expect(kernel.blend(memory.createPose(3)!, smallJob, 3)).toBe(false); // fewer than four joints
    // Through blendLayers: the portable loops' result itself.
    const portable = new BlendingJob(), fallback = new BlendingJob();
    portable.addLayer(outside, 0.3); portable.addLayer(inside, 0.7);
    fallback.addLayer(outside, 0.3); fallback.addLayer(inside, 0.7);
    fallback.kernel = kernel;
    const expected = blendLayers(createLocalPose(n), portable), out = blendLayers(createLocalPose(n), fallback);
    expect(out.rotations).toEqual(expected.rotations);
    expect(createBlendingKernel(null)).toBeNull();
    expect(createBlendingKernel(memory, { backend: 'js' })).toBeNull();
  });
});
