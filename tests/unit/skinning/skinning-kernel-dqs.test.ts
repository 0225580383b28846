import { describe, expect, it } from 'vitest';
import { mat4, quat } from 'gl-matrix';
import { join } from 'node:path';
import type { PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { SkinningKernel } from '../../../src/skinning/skinning-kernel.ts';
import { WEIGHT_POLICIES, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { SHARED_SKINNED_MODELS, sharedAssets } from '../../helpers/shared-assets.ts';
import { BOUND, compareOnModel, oneVertex, reference, worstError } from './kernel-parity.ts';

// The SIMD DQS kernel (skin-kernel.as.ts `skinDqs`) against the reference `skinVerticesDqs` (through
// `skinVertices`), under the same bound as LBS (kernel-parity.ts `BOUND`: 2⁻¹⁸ of the mesh's extent for
// positions, of 1 for unit normals and tangents).

/** A seeded generator (mulberry32): the random meshes are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random unit vector. */
function unit(next: () => number): [number, number, number] {
  for (;;) {
    const v: [number, number, number] = [2 * next() - 1, 2 * next() - 1, 2 * next() - 1];
    const l = Math.hypot(...v);
    if (l > 0.1 && l <= 1) return [v[0] / l, v[1] / l, v[2] / l];
  }
}

/**
 * m random skinning matrices `T·R·S`: rotations anywhere (so sign alignment is exercised), translations within
 * ±2, and S a rotated non-uniform scale (0.5…1.5, shear in the joint's frame) — mirrored for every joint when
 * `mirror` is set (a mirrored model: det S < 0 throughout; a vertex blending mirrored with unmirrored joints
 * would blend S toward a singular matrix, whose normals no float precision fixes).
 */
function randomPalette(next: () => number, m: number, mirror: boolean): Float32Array {
  const out = new Float32Array(16 * m);
  for (let j = 0; j < m; j++) {
    const q = quat.setAxisAngle(quat.create(), unit(next), 2 * Math.PI * next());
    const u = quat.setAxisAngle(quat.create(), unit(next), 2 * Math.PI * next());
    const flip = mirror ? -1 : 1;
    const scale = mat4.fromScaling(mat4.create(), [flip * (0.5 + next()), 0.5 + next(), 0.5 + next()]);
    // S = U·diag·Uᵀ: symmetric, a scale along rotated axes (shear in the joint's own axes).
    const s = mat4.multiply(mat4.create(), mat4.multiply(mat4.create(), mat4.fromQuat(mat4.create(), u), scale), mat4.transpose(mat4.create(), mat4.fromQuat(mat4.create(), u)));
    const k = mat4.fromRotationTranslation(mat4.create(), q, [4 * next() - 2, 4 * next() - 2, 4 * next() - 2]);
    out.set(mat4.multiply(mat4.create(), k, s), 16 * j);
  }
  return out;
}

/**
 * n random vertices of c slots over m joints: positions within ±3, unit normals, unit tangents (w ±1); weights
 * random, some slots 0 (slot 0 too), sums from 0.6 to 1.4 (so the policies differ), every 17th vertex unweighted.
 */
function randomPrimitive(next: () => number, n: number, c: number, m: number): PrimitiveAsset {
  const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n), tangents = new Float32Array(4 * n);
  const joints = new Uint8Array(c * n), weights = new Float32Array(c * n);
  for (let v = 0; v < n; v++) {
    positions.set([6 * next() - 3, 6 * next() - 3, 6 * next() - 3], 3 * v);
    normals.set(unit(next), 3 * v);
    tangents.set([...unit(next), v % 2 ? 1 : -1], 4 * v);
    let sum = 0;
    for (let k = 0; k < c; k++) {
      joints[c * v + k] = Math.floor(next() * m);
      weights[c * v + k] = v % 17 === 0 || next() < 0.3 ? 0 : next();
      sum += weights[c * v + k];
    }
    const target = 0.6 + 0.8 * next();
    if (sum > 0) for (let k = 0; k < c; k++) weights[c * v + k] *= target / sum;
  }
  return { vertexCount: n, positions, normals, tangents, uvs: null, influenceCount: c, joints, weights, indices: Uint16Array.of(0), material: 0 };
}

describe('SkinningKernel (WebAssembly SIMD DQS) against the reference skinVerticesDqs', () => {
  it('matches on random meshes: 4, 8 and 12 influences, scale, shear and mirrors, an origin, every weight policy', () => {
    const next = random(24);
    for (const c of [4, 8, 12]) {
      for (const mirror of [false, true]) {
        const m = 24, primitive = randomPrimitive(next, 2000, c, m);
        const context = new SkinningContext(m, [0.5, -1, 2]);
        const simd = new SkinningKernel(primitive, context), portable = new SkinningKernel(primitive, context, { backend: 'js' });
        expect(simd.backend).toBe('wasm-simd');
        for (let pose = 0; pose < 3; pose++) {
          const palette = randomPalette(next, m, mirror);
          for (const weights of WEIGHT_POLICIES) {
            const method: SkinningMethod = { skinning: 'dqs', weights };
            const expected = reference(primitive, palette, context, method);
            simd.skin(palette, method);
            portable.skin(palette, method);
            expect(worstError(simd, expected), `${c} slots, mirror ${mirror}, ${weights}`).toBeLessThan(BOUND);
            expect(worstError(portable, expected)).toBe(0);
          }
        }
      }
    }
  });

  it('matches on the built-in octopus, every clip, every weight policy', () => {
    expect(compareOnModel(createOctopusAsset(), 'dqs')).toBeLessThan(BOUND);
  });

  it('matches on every shared skinned model (glTF and MD5), every clip at three times, every weight policy', async () => {
    const assets = sharedAssets();
    if (!assets) return;
    for (const file of SHARED_SKINNED_MODELS) {
      const asset = await loadModelFromPath(join(assets, file));
      expect(compareOnModel(asset, 'dqs'), file).toBeLessThan(BOUND);
    }
  }, 120_000);

  it('blends along the shortest path: 170° and −170° about z, equal weights, turn the vertex by 180° (hand-computed)', () => {
    const palette = new Float32Array(32);
    palette.set(mat4.fromZRotation(mat4.create(), (170 * Math.PI) / 180), 0);
    palette.set(mat4.fromZRotation(mat4.create(), (-170 * Math.PI) / 180), 16);
    for (const weights of WEIGHT_POLICIES) {
      const kernel = new SkinningKernel(oneVertex(4, [0, 1, 0, 0], [0.5, 0.5, 0, 0]), new SkinningContext(2));
      kernel.skin(palette, { skinning: 'dqs', weights });
      // R(180°)·(1, 2, 3) = (−1, −2, 3); a blend without sign alignment would give R(0°), the rest pose.
      [-1, -2, 3].forEach((x, i) => expect(kernel.positions[i], weights).toBeCloseTo(x, 5));
      [0, 0, 1].forEach((x, i) => expect(kernel.normals[i]).toBeCloseTo(x, 6));
      [-1, 0, 0, -1].forEach((x, i) => expect(kernel.tangents![i]).toBeCloseTo(x, 6));
    }
  });

  it('keeps a rigid translation rigid and an unweighted vertex at rest minus the origin; writes only the outputs asked for', () => {
    // Two joints of one rotation (0.7 rad about x) and different translations: DQS blends the translations linearly.
    const palette = new Float32Array(32);
    palette.set(mat4.multiply(mat4.create(), mat4.fromTranslation(mat4.create(), [1, 0, 0]), mat4.fromXRotation(mat4.create(), 0.7)), 0);
    palette.set(mat4.multiply(mat4.create(), mat4.fromTranslation(mat4.create(), [0, 3, 0]), mat4.fromXRotation(mat4.create(), 0.7)), 16);
    const kernel = new SkinningKernel(oneVertex(4, [0, 1, 0, 0], [0.25, 0.75, 0, 0]), new SkinningContext(2));
    kernel.skin(palette, { skinning: 'dqs', weights: 'normalize' });
    const c = Math.cos(0.7), s = Math.sin(0.7);
    [1 + 0.25, 2 * c - 3 * s + 0.75 * 3, 2 * s + 3 * c].forEach((x, i) => expect(kernel.positions[i]).toBeCloseTo(x, 5));

    const still = new SkinningKernel(oneVertex(4, [0, 1, 0, 0], [0, 0, 0, 0]), new SkinningContext(2, [10, 20, 30]));
    still.normals.fill(7);
    still.skin(palette, { skinning: 'dqs', weights: 'as-stored' }, false, true);
    expect(Array.from(still.positions)).toEqual([-9, -18, -27]);
    expect(Array.from(still.normals)).toEqual([7, 7, 7]);
    expect(Array.from(still.tangents!)).toEqual([1, 0, 0, -1]);
  });

  it('fails a wrong weight: 0.01 of weight moved between two joints of one vertex differs far beyond the bound', () => {
    const next = random(7);
    const primitive = randomPrimitive(next, 500, 4, 8), palette = randomPalette(next, 8, false), context = new SkinningContext(8);
    const method: SkinningMethod = { skinning: 'dqs', weights: 'normalize' };
    const expected = reference(primitive, palette, context, method);
    const kernel = new SkinningKernel(primitive, context);
    kernel.skin(palette, method);
    expect(worstError(kernel, expected)).toBeLessThan(BOUND);
    const weights = primitive.weights!.slice();
    let v = 0;
    while (!(weights[4 * v] > 0.1 && weights[4 * v + 1] > 0.1 && primitive.joints![4 * v] !== primitive.joints![4 * v + 1])) v++;
    weights[4 * v] -= 0.01;
    weights[4 * v + 1] += 0.01;
    const wrong = new SkinningKernel({ ...primitive, weights }, context);
    wrong.skin(palette, method);
    expect(worstError(wrong, expected)).toBeGreaterThan(100 * BOUND);
  });

  it('re-reads rest positions, normals and tangents after refreshRest (a morphed primitive rewrites them in place)', () => {
    const next = random(3);
    const primitive = randomPrimitive(next, 300, 4, 6), palette = randomPalette(next, 6, false), context = new SkinningContext(6);
    const kernel = new SkinningKernel(primitive, context);
    for (const skinning of ['lbs', 'dqs'] as const) {
      const method: SkinningMethod = { skinning, weights: 'normalize' };
      primitive.positions.forEach((x, i) => (primitive.positions[i] = x + 0.25));
      kernel.skin(palette, method);
      expect(worstError(kernel, reference(primitive, palette, context, method))).toBeGreaterThan(100 * BOUND);
      kernel.refreshRest();
      kernel.skin(palette, method);
      expect(worstError(kernel, reference(primitive, palette, context, method))).toBeLessThan(BOUND);
    }
  });
});
