import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { declaredVertexMesh } from '../../fixtures/large-models.ts';

// A float accessor's own array (zero-filled, sparse) is handed out uncopied once, so a large declared
// accessor is not held twice while loading; a second use of it gets its own copy, so no two parts of the
// asset share an array.
describe('glTF float accessors', () => {
  it('two primitives on one sparse POSITION accessor get equal but distinct arrays', async () => {
    const json = JSON.parse(declaredVertexMesh(6, 2));
    json.meshes[0].primitives.push({ attributes: { POSITION: 0 } });
    const asset = await parseGltf('shared.gltf', new TextEncoder().encode(JSON.stringify(json)));
    const [a, b] = asset.meshes[0].primitives;
    expect(a.positions).not.toBe(b.positions);
    expect(a.positions.buffer).not.toBe(b.positions.buffer);
    expect(Array.from(b.positions)).toEqual(Array.from(a.positions));
    // Vertices 0 and 1 are the sparse ones, (v, v/7, −v/3) · 0.001 (so −0 for vertex 0); the others decode to zeros.
    expect(Array.from(a.positions)).toEqual([0, 0, -0, 0.001, 0.001 / 7, -0.001 / 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0].map(Math.fround));
  });
});
