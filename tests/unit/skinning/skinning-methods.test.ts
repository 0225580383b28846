import { describe, expect, it } from 'vitest';
import { mat4, quat } from 'gl-matrix';
import type { PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { computeDualQuaternionPalette } from '../../../src/skinning/dual-quaternion-palette.ts';
import { WEIGHT_POLICIES, type SkinningMethod, type WeightPolicy } from '../../../src/skinning/skinning-method.ts';

function primitive(positions: number[], normals: number[], joints: number[], weights: number[]): PrimitiveAsset {
  const vertexCount = positions.length / 3;
  return {
    vertexCount, positions: Float32Array.from(positions), normals: Float32Array.from(normals), uvs: null,
    joints: Uint8Array.from(joints), weights: Float32Array.from(weights),
    indices: Uint16Array.from({ length: vertexCount }, (_, i) => i), material: 0,
  };
}

function palette(...matrices: mat4[]): Float32Array {
  const out = new Float32Array(16 * matrices.length);
  matrices.forEach((m, i) => out.set(m, 16 * i));
  return out;
}

function skin(prim: PrimitiveAsset, pal: Float32Array, method: SkinningMethod): { positions: number[]; normals: number[] } {
  const positions = new Float32Array(3 * prim.vertexCount), normals = new Float32Array(3 * prim.vertexCount);
  skinVertices(positions, normals, prim, pal, new SkinningContext(pal.length / 16), method);
  return { positions: Array.from(positions), normals: Array.from(normals) };
}

const lbs = (weights: WeightPolicy): SkinningMethod => ({ skinning: 'lbs', weights });
const dqs = (weights: WeightPolicy): SkinningMethod => ({ skinning: 'dqs', weights });

describe('weight policies (docs/explanation/skinning-formulas.md S0, S2), hand-computed', () => {
  // K0 moves by (2, 0, 0), K1 by (0, 4, 0); p₀ = (1, 1, 1).
  const pal = palette(mat4.fromTranslation(mat4.create(), [2, 0, 0]), mat4.fromTranslation(mat4.create(), [0, 4, 0]));

  it('weights summing to 1: every policy gives p₀ + 0.75·(2,0,0) + 0.25·(0,4,0) = (2.5, 2, 1), LBS and DQS', () => {
    const prim = primitive([1, 1, 1], [0, 0, 1], [0, 1, 0, 1], [0.75, 0.25, 0, 0]);
    for (const policy of WEIGHT_POLICIES) {
      for (const method of [lbs(policy), dqs(policy)]) {
        const { positions } = skin(prim, pal, method);
        positions.forEach((c, k) => expect(c, `${method.skinning} ${policy}`).toBeCloseTo([2.5, 2, 1][k], 6));
      }
    }
  });

  it('weights summing to 0.75 (0.5, 0.25): the four policies differ', () => {
    // Slot 3 names joint 1, so implicit-last gives it 1 − 0.75 = 0.25.
    const prim = primitive([1, 1, 1], [0, 0, 1], [0, 1, 0, 1], [0.5, 0.25, 0, 0]);
    const expected: Record<WeightPolicy, number[]> = {
      'normalize': [1.75 / 0.75, 1.75 / 0.75, 1], // (0.5·(3,1,1) + 0.25·(1,5,1)) / 0.75
      'as-stored': [1.75, 1.75, 0.75], // no division: pulled toward the origin
      'rest-remainder': [2, 2, 1], // p₀ + 0.5·(2,0,0) + 0.25·(0,4,0)
      'implicit-last': [2, 3, 1], // p₀ + 0.5·(2,0,0) + (0.25 + 0.25)·(0,4,0)
    };
    for (const policy of WEIGHT_POLICIES) {
      const { positions } = skin(prim, pal, lbs(policy));
      positions.forEach((c, k) => expect(c, `lbs ${policy}`).toBeCloseTo(expected[policy][k], 6));
      // Pure translations: DQS agrees except under as-stored, where its blend is normalised (a unit dual
      // quaternion) while the scale phase 0.75·I is not: 0.75·p₀ + (4/3, 4/3, 0).
      const d = skin(prim, pal, dqs(policy)).positions;
      const dqsExpected = policy === 'as-stored' ? [0.75 + 4 / 3, 0.75 + 4 / 3, 0.75] : expected[policy];
      d.forEach((c, k) => expect(c, `dqs ${policy}`).toBeCloseTo(dqsExpected[k], 5));
    }
  });

  it('a vertex with no weight stays at rest under normalize, as-stored, rest-remainder; implicit-last gives its last slot weight 1', () => {
    const prim = primitive([1, 2, 3], [1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]);
    for (const policy of ['normalize', 'as-stored', 'rest-remainder'] as const) {
      for (const method of [lbs(policy), dqs(policy)]) {
        const out = skin(prim, pal, method);
        expect(out.positions, `${method.skinning} ${policy}`).toEqual([1, 2, 3]);
        expect(out.normals.map((n) => +n.toFixed(6)), `${method.skinning} ${policy}`).toEqual([1, 0, 0]);
      }
    }
    expect(skin(prim, pal, lbs('implicit-last')).positions).toEqual([1, 6, 3]);
  });
});

describe('dual quaternion skinning (Kavan et al. 2008, two-phase for scale)', () => {
  it('the palette splits K into R·S and t: R·S·p + t = K·p, with R a rotation', () => {
    const k = mat4.fromRotationTranslationScale(mat4.create(), quat.setAxisAngle(quat.create(), [1, 2, 3].map((v) => v / Math.hypot(1, 2, 3)) as [number, number, number], 1.2), [3, -1, 2], [1.5, 0.5, 2]);
    const d = computeDualQuaternionPalette(new Float64Array(16), palette(k), 1);
    expect(Math.hypot(d[12], d[13], d[14], d[15])).toBeCloseTo(1, 12);
    const r = mat4.fromQuat(mat4.create(), [d[12], d[13], d[14], d[15]]);
    const p = [0.3, -0.7, 1.1];
    const sp = [0, 1, 2].map((row) => d[4 * row] * p[0] + d[4 * row + 1] * p[1] + d[4 * row + 2] * p[2]);
    for (let row = 0; row < 3; row++) {
      const rsp = r[row] * sp[0] + r[4 + row] * sp[1] + r[8 + row] * sp[2] + d[4 * row + 3];
      const kp = k[row] * p[0] + k[4 + row] * p[1] + k[8 + row] * p[2] + k[12 + row];
      expect(rsp).toBeCloseTo(kp, 5);
    }
  });

  it('equals LBS on single-influence vertices, joints rotated, translated, scaled non-uniformly', () => {
    const matrices = [
      mat4.fromRotationTranslationScale(mat4.create(), quat.fromEuler(quat.create(), 30, -70, 120), [1, 2, 3], [1, 1, 1]),
      mat4.fromRotationTranslationScale(mat4.create(), quat.fromEuler(quat.create(), 170, 10, -40), [-2, 0.5, 1], [2, 0.5, 1.25]),
      mat4.fromRotationTranslationScale(mat4.create(), quat.fromEuler(quat.create(), -90, 45, 0), [0, 0, -4], [3, 3, 3]),
    ];
    const pal = palette(...matrices);
    const positions: number[] = [], normals: number[] = [], joints: number[] = [], weights: number[] = [];
    for (let v = 0; v < 30; v++) {
      positions.push(Math.sin(v), Math.cos(3 * v), v / 10 - 1.5);
      const n = [Math.cos(v), Math.sin(2 * v), 0.5];
      const l = Math.hypot(...n);
      normals.push(...n.map((c) => c / l));
      joints.push(v % 3, (v + 1) % 3, 0, 0);
      weights.push(v % 2 ? 1 : 0.4, 0, 0, 0); // one influence; weight 0.4 normalised to 1
    }
    const prim = primitive(positions, normals, joints, weights);
    const a = skin(prim, pal, lbs('normalize')), b = skin(prim, pal, dqs('normalize'));
    a.positions.forEach((c, i) => expect(b.positions[i]).toBeCloseTo(c, 4));
    a.normals.forEach((c, i) => expect(b.normals[i]).toBeCloseTo(c, 5));
  });

  it('a twisting cylinder: DQS keeps the cross-section radius within 1 % where LBS collapses it (candy wrapper)', () => {
    // Unit-radius cylinder along x, x ∈ [0, 2]; joint 0 fixed, joint 1 twisted 170° about the x axis; weights
    // blend linearly over x ∈ [0.5, 1.5].
    const twist = mat4.fromXRotation(mat4.create(), (170 * Math.PI) / 180);
    const pal = palette(mat4.create(), twist);
    const positions: number[] = [], normals: number[] = [], joints: number[] = [], weights: number[] = [];
    const rings = 21, sides = 16;
    for (let r = 0; r < rings; r++) {
      const x = (2 * r) / (rings - 1);
      const w1 = Math.min(1, Math.max(0, x - 0.5));
      for (let s = 0; s < sides; s++) {
        const a = (2 * Math.PI * s) / sides;
        positions.push(x, Math.cos(a), Math.sin(a));
        normals.push(0, Math.cos(a), Math.sin(a));
        joints.push(0, 1, 0, 0);
        weights.push(1 - w1, w1, 0, 0);
      }
    }
    const prim = primitive(positions, normals, joints, weights);
    const radii = (p: number[]) => Array.from({ length: rings * sides }, (_, v) => Math.hypot(p[3 * v + 1], p[3 * v + 2]));
    const lbsRadii = radii(skin(prim, pal, lbs('normalize')).positions);
    const dqsRadii = radii(skin(prim, pal, dqs('normalize')).positions);
    expect(Math.min(...lbsRadii)).toBeLessThan(0.1); // cos(85°) ≈ 0.087 at the middle ring
    for (const radius of dqsRadii) expect(Math.abs(radius - 1)).toBeLessThan(0.01);
  });
});

describe('tangents (glTF TANGENT, w kept)', () => {
  it('skinned by the blended matrix itself, normalised, w copied; DQS agrees on one influence', () => {
    // A 90° turn about z and a non-uniform scale: (1, 0, 0) → (0, 2, 0) → unit (0, 1, 0); w = −1 kept.
    const k = mat4.fromRotationTranslationScale(mat4.create(), quat.setAxisAngle(quat.create(), [0, 0, 1], Math.PI / 2), [1, 2, 3], [2, 5, 1]);
    const prim = { ...primitive([0, 0, 0, 1, 1, 1], [0, 0, 1, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]), tangents: Float32Array.from([1, 0, 0, -1, 0, 1, 0, 1]) };
    for (const method of [lbs('normalize'), dqs('normalize'), lbs('as-stored'), dqs('rest-remainder')]) {
      const tangents = new Float32Array(8);
      skinVertices(new Float32Array(6), null, prim, palette(k), new SkinningContext(1), method, tangents);
      // Vertex 0: K's 3×3 maps x to 2·(0, 1, 0). Vertex 1 has no weight: kept (normalize, as-stored) or at
      // rest by rest-remainder's remainder, so its tangent is unchanged.
      expect(Array.from(tangents).map((c) => +c.toFixed(6) + 0), `${method.skinning} ${method.weights}`).toEqual([0, 1, 0, -1, 0, 1, 0, 1]);
    }
  });

  it('asking for tangents of a primitive without them is an error', () => {
    const prim = primitive([0, 0, 0], [0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]);
    expect(() => skinVertices(new Float32Array(3), null, prim, palette(mat4.create()), new SkinningContext(1), lbs('normalize'), new Float32Array(4)))
      .toThrow(/without tangents/);
  });
});
