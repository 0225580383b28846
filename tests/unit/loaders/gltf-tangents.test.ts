import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

describe('glTF TANGENT (glTF 2.0 §3.7.2.1)', () => {
  it('is read as PrimitiveAsset.tangents, w kept; absent gives none', async () => {
    const b = skinnedQuad();
    const values = [1, 0, 0, 1, 1, 0, 0, -1, 0, 1, 0, 1, 0, 0, 1, -1];
    const tangent = b.accessor(new Float32Array(values), 'VEC4');
    (b.json.meshes as { primitives: { attributes: Record<string, number> }[] }[])[0].primitives[0].attributes.TANGENT = tangent;
    const asset = await parseGltf('quad.glb', b.glb());
    expect(Array.from(asset.meshes[0].primitives[0].tangents!)).toEqual(values);
    const plain = await parseGltf('quad.glb', skinnedQuad().glb());
    expect(plain.meshes[0].primitives[0].tangents ?? null).toBeNull();
  });
});
