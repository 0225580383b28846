import { describe, expect, it } from 'vitest';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { manyMeshNodes, skinnedGrid } from '../../fixtures/large-models.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';

// docs/guide/limits.md, at the edge: a 1 000 000-vertex skinned mesh loads and evaluates on the CPU reference path.
describe('a 1 000 000-vertex skinned mesh', () => {
  it('loads and evaluates: the upper half bends 90° about X, the lower half stays', async () => {
    const asset = await parseGltf('grid.glb', skinnedGrid(1000, 1000).glb());
    const primitive = asset.meshes[0].primitives[0];
    expect(primitive.vertexCount).toBe(1_000_000);
    const result = evaluateModel(asset, 0, 1);
    const positions = result.primitives[0].positions;
    expect(positions).toHaveLength(3_000_000);
    // Vertex (column 500, top row): at (0.5, 1, 0) at rest; joint 1 at y = 0.5 turns it to (0.5, 0.5, 0.5).
    const top = 3 * (999 * 1000 + 500);
    expect(positions[top]).toBeCloseTo(0.5005, 3);
    expect(positions[top + 1]).toBeCloseTo(0.5, 5);
    expect(positions[top + 2]).toBeCloseTo(0.5, 5);
    // Bottom row untouched.
    expect(positions.slice(3 * 500, 3 * 500 + 3)).toEqual([Math.fround(500 / 999), 0, 0]);
  });
});

// docs/guide/large-scenes.md: 20 000 rigid mesh nodes load; a budget too small for them refuses the file up front.
describe('20 000 mesh nodes', () => {
  it('load, every node a mesh instance; a smaller memory budget refuses the file with one LoadError before reading accessors', async () => {
    const glb = manyMeshNodes(20_000).glb();
    const asset = await parseGltf('many.glb', glb);
    expect(asset.meshInstances).toHaveLength(20_001);
    const refused = await parseGltf('many.glb', glb, undefined, { memoryBudgetBytes: 1_000_000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LoadError);
    expect((refused as LoadError).code).toBe('MEMORY_BUDGET_EXCEEDED');
    expect((refused as LoadError).message).toMatch(/^many\.glb: \/accessors\/\d+/);
  });
});
