import { describe, expect, it } from 'vitest';
import { mat4 } from 'gl-matrix';
import type { PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { WEIGHT_POLICIES, type SkinningMethod, type WeightPolicy } from '../../../src/skinning/skinning-method.ts';
import { influenceVariant, packOverflow } from '../../../src/gpu/skinning/influence-overflow.ts';

// Hand-computed cases of 8 and 12 influences per vertex (docs/explanation/skinning-formulas.md S0, S2; DQS: Kavan et al.
// 2008). Joint k translates by (k, 0, 0); p₀ = (1, 1, 1), n₀ = (0, 0, 1).

function primitive(c: number, joints: number[], weights: number[], p0 = [1, 1, 1], n0 = [0, 0, 1]): PrimitiveAsset {
  return {
    vertexCount: 1, positions: Float32Array.from(p0), normals: Float32Array.from(n0), uvs: null,
    influenceCount: c, joints: Uint8Array.from(joints), weights: Float32Array.from(weights),
    indices: Uint16Array.from([0]), material: 0,
  };
}

const translations = (n: number): Float32Array => {
  const out = new Float32Array(16 * n);
  for (let k = 0; k < n; k++) out.set(mat4.fromTranslation(mat4.create(), [k, 0, 0]), 16 * k);
  return out;
};

function skin(prim: PrimitiveAsset, pal: Float32Array, method: SkinningMethod): { p: number[]; n: number[] } {
  const p = new Float32Array(3), n = new Float32Array(3);
  skinVertices(p, n, prim, pal, new SkinningContext(pal.length / 16), method);
  return { p: Array.from(p), n: Array.from(n) };
}

const close = (actual: number[], expected: number[]) => actual.forEach((a, i) => expect(a).toBeCloseTo(expected[i], 5));
const iota = (n: number) => Array.from({ length: n }, (_, k) => k);

describe('skinVertices with 8 influences per vertex (every slot blended)', () => {
  const pal = translations(8);
  // All 8 weights 1: Σw = 8, Σw·t = (0+1+…+7, 0, 0) = (28, 0, 0).
  const expected: Record<WeightPolicy, number[]> = {
    normalize: [1 + 28 / 8, 1, 1], // p₀ + Σw·t / Σw = (4.5, 1, 1)
    'as-stored': [8 + 28, 8, 8], // Σw·(p₀ + t) = 8·p₀ + (28, 0, 0)
    'rest-remainder': [36 - 7, 1, 1], // as-stored + (1 − 8)·p₀ = (29, 1, 1)
    'implicit-last': [7 + 21 - 6 * 8, 1, 1], // Σ_{k<7}(p₀ + t_k) + (1 − 7)·(p₀ + t₇) = p₀ + (21 − 42, 0, 0) = (−20, 1, 1)
  };
  for (const policy of WEIGHT_POLICIES) {
    it(`LBS ${policy}`, () => {
      const r = skin(primitive(8, iota(8), Array(8).fill(1)), pal, { skinning: 'lbs', weights: policy });
      close(r.p, expected[policy]);
      close(r.n, [0, 0, 1]);
    });
  }
  // DQS of pure translations: S_b = Σw·I (normalize: I), real part Σw, t_b = Σw·t / Σw. as-stored keeps
  // S_b = 8·I: p = 8·p₀ + (3.5, 0, 0); rest-remainder: S_b = I, real 1, t_b = (28, 0, 0); implicit-last: S_b = I, t_b = (−21, 0, 0).
  const expectedDqs: Record<WeightPolicy, number[]> = {
    normalize: [4.5, 1, 1], 'as-stored': [11.5, 8, 8], 'rest-remainder': [29, 1, 1], 'implicit-last': [-20, 1, 1],
  };
  for (const policy of WEIGHT_POLICIES) {
    it(`DQS ${policy}`, () => {
      const r = skin(primitive(8, iota(8), Array(8).fill(1)), pal, { skinning: 'dqs', weights: policy });
      close(r.p, expectedDqs[policy]);
      close(r.n, [0, 0, 1]);
    });
  }
  it('slot 7 alone moves the vertex by joint 7 (it is read, not dropped)', () => {
    for (const skinning of ['lbs', 'dqs'] as const) {
      close(skin(primitive(8, [0, 0, 0, 0, 0, 0, 0, 7], [0, 0, 0, 0, 0, 0, 0, 1]), pal, { skinning, weights: 'normalize' }).p, [8, 1, 1]);
    }
  });
});

describe('skinVertices with 12 influences per vertex (slots 8–11 are the GPU overflow)', () => {
  const pal = translations(12);
  // All 12 weights 1: Σw = 12, Σw·t = (66, 0, 0).
  const expected: Record<WeightPolicy, number[]> = {
    normalize: [1 + 66 / 12, 1, 1], // (6.5, 1, 1)
    'as-stored': [12 + 66, 12, 12],
    'rest-remainder': [12 + 66 - 11, 1, 1], // (67, 1, 1)
    'implicit-last': [1 + 55 - 10 * 11, 1, 1], // Σ_{k<11}(p₀ + t_k) + (1 − 11)·(p₀ + t₁₁) = p₀ + (55 − 110, 0, 0)
  };
  const expectedDqs: Record<WeightPolicy, number[]> = {
    normalize: [6.5, 1, 1], 'as-stored': [12 + 5.5, 12, 12], 'rest-remainder': [67, 1, 1], 'implicit-last': [-54, 1, 1],
  };
  for (const policy of WEIGHT_POLICIES) {
    it(`LBS and DQS ${policy}`, () => {
      close(skin(primitive(12, iota(12), Array(12).fill(1)), pal, { skinning: 'lbs', weights: policy }).p, expected[policy]);
      close(skin(primitive(12, iota(12), Array(12).fill(1)), pal, { skinning: 'dqs', weights: policy }).p, expectedDqs[policy]);
    });
  }
  it('10 weighted slots of 12 (as quad_skin.glb): weights 1…10 on joints 2…11, slots 10, 11 empty', () => {
    const joints = [...iota(10).map((k) => k + 2), 0, 0], weights = [...iota(10).map((k) => k + 1), 0, 0];
    // Σw = 55, Σw·t = Σ_{k=1..10} k·(k+1) = 440: p = p₀ + (8, 0, 0).
    for (const skinning of ['lbs', 'dqs'] as const) close(skin(primitive(12, joints, weights), pal, { skinning, weights: 'normalize' }).p, [9, 1, 1]);
  });
  it('a 90° turn in slot 11 against the identity in slot 0: DQS turns 45°, LBS shrinks toward the axis', () => {
    const pal2 = new Float32Array(16 * 12);
    for (let k = 0; k < 12; k++) pal2.set(mat4.create(), 16 * k);
    pal2.set(mat4.fromZRotation(mat4.create(), Math.PI / 2), 16 * 11);
    const weights = [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5], joints = iota(12);
    const prim = primitive(12, joints, weights, [1, 0, 0], [1, 0, 0]);
    const h = Math.SQRT1_2;
    const d = skin(prim, pal2, { skinning: 'dqs', weights: 'normalize' });
    close(d.p, [h, h, 0]);
    close(d.n, [h, h, 0]);
    const l = skin(prim, pal2, { skinning: 'lbs', weights: 'normalize' });
    close(l.p, [0.5, 0.5, 0]); // ½·(1, 0, 0) + ½·(0, 1, 0)
    close(l.n, [h, h, 0]); // A = ½(I + R₉₀) = (1/√2)·R₄₅ in xy: the normal turns 45°
  });
  it('rejects an influenceCount that is not a positive multiple of 4, and arrays too short for it', () => {
    expect(() => skin(primitive(6, iota(6), Array(6).fill(1)), pal, { skinning: 'lbs', weights: 'normalize' })).toThrow(RangeError);
    expect(() => skin(primitive(12, iota(8), Array(8).fill(1)), pal, { skinning: 'lbs', weights: 'normalize' })).toThrow(RangeError);
  });
});

describe('packOverflow / influenceVariant (the GPU layout of slots 8…)', () => {
  it('packs slots 8…c−1 vertex-major as (joint, weight) texels; zero-weight joints become 0', () => {
    const joints = [...iota(12), ...iota(12).map((k) => 11 - k)];
    const weights = [...Array(11).fill(1), 0, ...Array(12).fill(2)];
    const layout = packOverflow(joints, weights, 12, 2);
    expect(Array.from(layout.ranges)).toEqual([0, 4, 4, 4]);
    expect(Array.from(layout.texels)).toEqual([8, 1, 9, 1, 10, 1, 0, 0, 3, 2, 2, 2, 1, 2, 0, 2]);
    expect([layout.width, layout.height]).toEqual([8, 1]);
    expect(() => packOverflow(joints, weights, 8, 2)).toThrow(RangeError);
  });
  it('maps 4 → 4, 8 → 8, anything above 8 → 12 (overflow)', () => {
    expect([4, 8, 12, 16, 40].map(influenceVariant)).toEqual([4, 8, 12, 12, 12]);
    expect(() => influenceVariant(6)).toThrow(RangeError);
  });
});
