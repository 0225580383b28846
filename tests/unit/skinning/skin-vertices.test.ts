import { describe, expect, it } from 'vitest';
import { mat4, vec3 } from 'gl-matrix';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { computeSkinMatrices } from '../../../src/skinning/skin-matrices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import type { PrimitiveAsset } from '../../../src/asset/model-asset.ts';

function primitive(positions: number[], normals: number[], joints: number[], weights: number[]): PrimitiveAsset {
  const vertexCount = positions.length / 3;
  return {
    vertexCount,
    positions: Float32Array.from(positions),
    normals: Float32Array.from(normals),
    uvs: null,
    joints: Uint8Array.from(joints),
    weights: Float32Array.from(weights),
    indices: Uint16Array.from({ length: vertexCount }, (_, i) => i),
    material: 0,
  };
}

function palette(...matrices: mat4[]): Float32Array {
  const out = new Float32Array(16 * matrices.length);
  matrices.forEach((m, i) => out.set(m, 16 * i));
  return out;
}

describe('skinVertices (docs/explanation/skinning-formulas.md S0)', () => {
  const translateX = mat4.fromTranslation(mat4.create(), [2, 0, 0]);
  const translateY = mat4.fromTranslation(mat4.create(), [0, 4, 0]);

  it('an identity palette leaves positions and normals at rest', () => {
    const prim = primitive([1, 2, 3, -1, 0, 5], [0, 1, 0, 0.6, 0.8, 0], [0, 1, 0, 0, 1, 0, 0, 0], [0.3, 0.7, 0, 0, 1, 0, 0, 0]);
    const pos = new Float32Array(6), nrm = new Float32Array(6);
    skinVertices(pos, nrm, prim, palette(mat4.create(), mat4.create()), new SkinningContext(8));
    expect(Array.from(pos)).toEqual(Array.from(prim.positions));
    expect(Array.from(nrm).map((v) => +v.toFixed(6))).toEqual([0, 1, 0, 0.6, 0.8, 0]);
  });

  it('divides the weighted matrix sum by the weight sum (weights need not sum to 1)', () => {
    // Weights 3 and 1 ≡ 0.75 and 0.25: p = (1,1,1) + 0.75·(2,0,0) + 0.25·(0,4,0) = (2.5, 2, 1).
    const prim = primitive([1, 1, 1], [0, 0, 1], [0, 1, 0, 0], [3, 1, 0, 0]);
    const pos = new Float32Array(3);
    skinVertices(pos, null, prim, palette(translateX, translateY), new SkinningContext(8));
    expect(Array.from(pos)).toEqual([2.5, 2, 1]);
  });

  it('a vertex with no influences keeps its rest position and normal', () => {
    const prim = primitive([1, 2, 3], [1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]);
    const pos = new Float32Array(3), nrm = new Float32Array(3);
    skinVertices(pos, nrm, prim, palette(translateX, translateY), new SkinningContext(8));
    expect(Array.from(pos)).toEqual([1, 2, 3]);
    expect(Array.from(nrm)).toEqual([1, 0, 0]);
  });

  it('blends whole matrices, not transformed points: a half/half blend of ±90° turns shrinks toward the axis', () => {
    const plus = mat4.fromZRotation(mat4.create(), Math.PI / 2);
    const minus = mat4.fromZRotation(mat4.create(), -Math.PI / 2);
    const prim = primitive([1, 0, 0], [1, 0, 0], [0, 1, 0, 0], [0.5, 0.5, 0, 0]);
    const pos = new Float32Array(3);
    skinVertices(pos, null, prim, palette(plus, minus), new SkinningContext(8));
    // (R+ + R-)/2 = diag(0, 0, 1) in the xy block: the LBS "candy wrapper" collapse to the origin.
    expect(Math.hypot(pos[0], pos[1], pos[2])).toBeLessThan(1e-7);
  });

  it('skins normals by the inverse-transpose, so a non-uniform scale keeps them perpendicular', () => {
    const scale = mat4.fromScaling(mat4.create(), [4, 1, 1]);
    // Surface x + y = 0 has normal (1,1,0)/√2; after scaling x by 4 the surface is x/4 + y = 0, normal ∝ (1, 4, 0).
    const prim = primitive([1, -1, 0], [Math.SQRT1_2, Math.SQRT1_2, 0], [0, 0, 0, 0], [1, 0, 0, 0]);
    const pos = new Float32Array(3), nrm = new Float32Array(3);
    skinVertices(pos, nrm, prim, palette(scale), new SkinningContext(8));
    const expected = vec3.normalize(vec3.create(), [1, 4, 0]);
    for (let k = 0; k < 3; k++) expect(nrm[k]).toBeCloseTo(expected[k], 6);
  });

  it('keeps normals outward under a mirroring palette (negative determinant)', () => {
    const mirror = mat4.fromScaling(mat4.create(), [-1, 1, 1]);
    const prim = primitive([1, 0, 0], [1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]);
    const nrm = new Float32Array(3);
    skinVertices(new Float32Array(3), nrm, prim, palette(mirror), new SkinningContext(8));
    expect(Array.from(nrm).map((v) => v + 0)).toEqual([-1, 0, 0]);
  });

  it('equals the S2 difference form and the implicit-last-weight blend form when weights sum to 1', () => {
    const a = mat4.fromRotationTranslation(mat4.create(), [0, 0.3826834, 0, 0.9238795], [0.1, 0.2, 0.3]);
    const b = mat4.fromRotationTranslation(mat4.create(), [0.2588190, 0, 0, 0.9659258], [-0.5, 0, 1]);
    const c = mat4.fromTranslation(mat4.create(), [0, 1, 0]);
    const w = [0.5, 0.3, 0.2];
    const p0 = vec3.fromValues(0.4, -1.2, 2);
    const prim = primitive([...p0], [0, 0, 1], [0, 1, 2, 0], [...w, 0]);
    const pos = new Float32Array(3);
    skinVertices(pos, null, prim, palette(a, b, c), new SkinningContext(8));
    const transformed = [a, b, c].map((m) => vec3.transformMat4(vec3.create(), p0, m));
    // [1] final = p₀ + Σ wᵢ (Kᵢp₀ − p₀)
    const difference = vec3.clone(p0);
    transformed.forEach((t, i) => vec3.scaleAndAdd(difference, difference, vec3.sub(vec3.create(), t, p0), w[i]));
    // [3] final = Σ_{i<n−1} wᵢ Kᵢp₀ + (1 − Σ_{i<n−1} wᵢ) K_{n−1}p₀
    const blend = vec3.create();
    vec3.scaleAndAdd(blend, blend, transformed[0], w[0]);
    vec3.scaleAndAdd(blend, blend, transformed[1], w[1]);
    vec3.scaleAndAdd(blend, blend, transformed[2], 1 - w[0] - w[1]);
    for (let k = 0; k < 3; k++) {
      expect(pos[k]).toBeCloseTo(difference[k], 5);
      expect(pos[k]).toBeCloseTo(blend[k], 5);
    }
  });
});

describe('computeSkinMatrices', () => {
  it('is world[joint] · inverseBind for each skin joint, through the skin joint list', () => {
    const world0 = mat4.fromRotationTranslation(mat4.create(), [0, 0, 0.3826834, 0.9238795], [1, 2, 3]);
    const world1 = mat4.fromScaling(mat4.create(), [1, 2, 3]);
    const modelMatrices = palette(world0, world1);
    const ibm0 = mat4.fromTranslation(mat4.create(), [0, -1, 0]);
    const ibm1 = mat4.fromXRotation(mat4.create(), 0.3);
    const skin = { name: 's', joints: Int32Array.of(1, 0), inverseBindMatrices: palette(ibm0, ibm1) };
    const out = computeSkinMatrices(new Float32Array(32), modelMatrices, skin, new SkinningContext(skin));
    const expected0 = mat4.multiply(mat4.create(), world1, ibm0);
    const expected1 = mat4.multiply(mat4.create(), world0, ibm1);
    for (let k = 0; k < 16; k++) {
      expect(out[k]).toBeCloseTo(expected0[k], 6);
      expect(out[16 + k]).toBeCloseTo(expected1[k], 6);
    }
  });
});
