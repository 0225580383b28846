import { describe, expect, it } from 'vitest';
import { mat4, quat } from 'gl-matrix';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { validateSkeleton } from '../../../src/skeleton/skeleton.ts';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomSkeleton(n: number, random: () => number): Skeleton {
  const parents = new Int32Array(n);
  for (let i = 0; i < n; i++) parents[i] = i === 0 || random() < 0.05 ? -1 : Math.floor(random() * i);
  return { jointCount: n, names: Array.from({ length: n }, (_, i) => `j${i}`), parents, sourceIndices: Int32Array.from({ length: n }, (_, i) => i) };
}

/** The naive version of docs/explanation/skinning-formulas.md S4: recurse to the root, world = parent world · local. */
function naiveWorld(skeleton: Skeleton, pose: ReturnType<typeof createLocalPose>, joint: number): mat4 {
  const local = mat4.fromRotationTranslationScale(
    mat4.create(),
    pose.rotations.subarray(4 * joint, 4 * joint + 4) as unknown as quat,
    pose.translations.subarray(3 * joint, 3 * joint + 3) as unknown as [number, number, number],
    pose.scales.subarray(3 * joint, 3 * joint + 3) as unknown as [number, number, number],
  );
  const parent = skeleton.parents[joint];
  return parent < 0 ? local : mat4.multiply(mat4.create(), naiveWorld(skeleton, pose, parent), local);
}

describe('localToModel', () => {
  it('matches a naive recursive evaluation on a random 200-joint tree', () => {
    const random = rng(7);
    const skeleton = randomSkeleton(200, random);
    validateSkeleton(skeleton, 'random');
    const pose = createLocalPose(200);
    for (let i = 0; i < 200; i++) {
      pose.translations.set([random() - 0.5, random() - 0.5, random() - 0.5], 3 * i);
      const q = quat.normalize(quat.create(), [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5]);
      pose.rotations.set(q, 4 * i);
      pose.scales.set([0.9 + 0.2 * random(), 0.9 + 0.2 * random(), 0.9 + 0.2 * random()], 3 * i);
    }
    const out = localToModel(new Float32Array(16 * 200), skeleton, pose);
    let maxError = 0;
    for (let i = 0; i < 200; i++) {
      const expected = naiveWorld(skeleton, pose, i);
      for (let k = 0; k < 16; k++) maxError = Math.max(maxError, Math.abs(out[16 * i + k] - expected[k]));
    }
    expect(maxError).toBeLessThan(1e-5);
  });

  it('composes T·R·S in that order for a single joint', () => {
    const skeleton: Skeleton = { jointCount: 1, names: [''], parents: Int32Array.of(-1), sourceIndices: Int32Array.of(0) };
    const pose = createLocalPose(1);
    pose.translations.set([1, 2, 3]);
    pose.rotations.set([0, 0, Math.SQRT1_2, Math.SQRT1_2]); // 90° about +Z
    pose.scales.set([2, 1, 1]);
    const m = localToModel(new Float32Array(16), skeleton, pose);
    // The x axis is scaled by 2 then turned onto +y, then moved by (1,2,3): (1,0,0) → (1, 4, 3).
    const x = m[0] * 1 + m[12], y = m[1] * 1 + m[13], z = m[2] * 1 + m[14];
    expect([x, y, z].map((v) => +v.toFixed(6))).toEqual([1, 4, 3]);
  });

  it('rejects a skeleton whose parent comes after its child', () => {
    const bad: Skeleton = { jointCount: 2, names: ['a', 'b'], parents: Int32Array.of(1, -1), sourceIndices: Int32Array.of(0, 1) };
    expect(() => validateSkeleton(bad, 'bad.glb')).toThrow(/bad.glb: joint 0 has parent 1/);
  });
});
