import { describe, expect, it } from 'vitest';
import { MORPH_TEXTURE_WIDTH, packMorphDeltas } from '../../../../src/gpu/skinning/morph-texture.ts';
import type { PrimitiveAsset } from '../../../../src/asset/model-asset.ts';

function primitive(vertexCount: number, targets: number, withNormals: boolean, withTangents: boolean): PrimitiveAsset {
  const deltas = (k: number) => Float32Array.from({ length: 3 * targets * vertexCount }, (_, i) => 1000 * k + i);
  return {
    vertexCount, positions: new Float32Array(3 * vertexCount), normals: new Float32Array(3 * vertexCount),
    tangents: withTangents ? new Float32Array(4 * vertexCount) : null, uvs: null, joints: null, weights: null,
    indices: new Uint16Array(0), material: 0,
    morphTargets: { count: targets, positions: deltas(1), normals: withNormals ? deltas(2) : null, tangents: deltas(3) },
  };
}

describe('packMorphDeltas (src/gpu/skinning/morph-texture.ts layout)', () => {
  it('puts target t, vertex v, slot a at texel (t·vertexCount + v)·A + a; tangent deltas only with tangents', () => {
    const packed = packMorphDeltas(primitive(5, 2, true, true), 4096)!;
    expect(Array.from(packed.layout)).toEqual([5, 3, 1, 2]);
    const texel = (t: number, v: number, a: number) => Array.from(packed.texels.subarray(4 * ((t * 5 + v) * 3 + a), 4 * ((t * 5 + v) * 3 + a) + 4));
    const i = 3 * (1 * 5 + 4); // target 1, vertex 4 in the target-major delta arrays
    expect(texel(1, 4, 0)).toEqual([1000 + i, 1001 + i, 1002 + i, 0]);
    expect(texel(1, 4, 1)).toEqual([2000 + i, 2001 + i, 2002 + i, 0]);
    expect(texel(1, 4, 2)).toEqual([3000 + i, 3001 + i, 3002 + i, 0]);
    const noTangents = packMorphDeltas(primitive(5, 2, false, false), 4096)!;
    expect(Array.from(noTangents.layout)).toEqual([5, 1, -1, -1]);
  });

  it('wraps rows of MORPH_TEXTURE_WIDTH texels and refuses deltas taller than MAX_TEXTURE_SIZE', () => {
    const packed = packMorphDeltas(primitive(1000, 5, true, false), 4096)!;
    expect(packed.width).toBe(MORPH_TEXTURE_WIDTH);
    expect(packed.height).toBe(Math.ceil((1000 * 5 * 2) / MORPH_TEXTURE_WIDTH));
    expect(() => packMorphDeltas(primitive(1000, 5, true, false), 4)).toThrow(RangeError);
    expect(packMorphDeltas({ ...primitive(3, 1, false, false), morphTargets: null }, 4096)).toBeNull();
  });
});
