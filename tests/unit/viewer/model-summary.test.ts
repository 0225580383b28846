import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { summarizeModel } from '../../../src/viewer/model-summary.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

describe('summarizeModel: joints per skin, not nodes', () => {
  it('one skin: its joints (the quad has 3 nodes, 2 joints)', async () => {
    const asset = await parseGltf('quad.gltf', skinnedQuad().gltf());
    expect(asset.skeleton.jointCount).toBe(3);
    expect(summarizeModel(asset)).toBe('2 joints · 4 vertices · 1 clip');
  });

  it('two skins: the number of skins and the joints of each, and the distinct count when they share joints', async () => {
    const b = skinnedQuad();
    b.json.skins.push({ joints: [2, 1] }); // node 1 (the mesh node) as a joint: shares node 2 with skin 0
    b.json.nodes.push({ name: 'second', mesh: 0, skin: 1 });
    b.json.scenes[0].nodes.push(3);
    const shared: ModelAsset = await parseGltf('two.gltf', b.gltf());
    expect(summarizeModel(shared)).toBe('2 skins (2 + 2 joints, 3 distinct) · 8 vertices · 1 clip');
    // Skins over disjoint joints: the sum is the count, nothing to add.
    const apart: ModelAsset = { ...shared, skins: [{ ...shared.skins[0], joints: Int32Array.of(0, 1) }, { ...shared.skins[1], joints: Int32Array.of(2) }] };
    expect(summarizeModel(apart)).toBe('2 skins (2 + 1 joints) · 8 vertices · 1 clip');
  });

  it('no skin', async () => {
    const b = skinnedQuad();
    delete b.json.nodes[1].skin;
    const primitive = b.json.meshes[0].primitives[0];
    delete primitive.attributes.JOINTS_0;
    delete primitive.attributes.WEIGHTS_0;
    b.json.skins = undefined;
    delete b.json.skins;
    expect(summarizeModel(await parseGltf('rigid.gltf', b.gltf()))).toBe('no skin · 4 vertices · 1 clip');
  });
});
