import { describe, expect, it } from 'vitest';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { ModelVertexSkinner } from '../../../src/scene/model-vertex-skinner.ts';
import { modelWorkingMemory } from '../../../src/pose/model-working-memory.ts';
import { planRigidBatches } from '../../../src/gpu/skinning/rigid-batches.ts';
import { manySkinnedInstances, skinnedGrid } from '../../fixtures/large-models.ts';

// Issue 31: 20 000 nodes instancing one skinned mesh made a skinning kernel (a WebAssembly memory) per instance, and
// the viewer showed `WebAssembly.Memory(): could not allocate memory`. What instances share is made once per mesh
// and skin, and counted against the memory budget; past it, loading refuses naming the file. Counts, not times
// (times: bench `nodes.skinned20k.load_ms`).
const INSTANCES = 20_000;
const noCompanions = async () => null;

describe(`${INSTANCES} nodes instancing one skinned mesh`, () => {
  const bytes = manySkinnedInstances(INSTANCES).glb();

  it('loads within the default budget, with one skinning context and one CPU skinning kernel for all instances', async () => {
    const asset = await loadModel({ name: 'many-skinned.glb', bytes }, noCompanions);
    expect(asset.meshInstances.length).toBe(INSTANCES);
    const model = new AnimatedModel(asset);
    expect(model.skinningContexts.length).toBe(1);
    const skinner = new ModelVertexSkinner();
    const bounds = computeModelBounds(asset, model, undefined, skinner);
    expect(skinner.kernelCount).toBe(1);
    // Every instance follows the one skin (glTF 2.0 §3.7.3), so the bounds are the single grid's.
    const one = await loadModel({ name: 'one.glb', bytes: skinnedGrid(4, 4).glb() }, noCompanions);
    expect(bounds).toEqual(computeModelBounds(one, new AnimatedModel(one)));
    const working = modelWorkingMemory(asset);
    expect(working).toMatchObject({ jointCount: INSTANCES + 2, skinnedPrimitives: 1, skinnedInstances: INSTANCES });
    // The instances coincide: the renderer draws the first one (one pair), not 20 000.
    expect(Array.from(planRigidBatches(asset).singles)).toEqual([0, 0]);
  }, 120_000);

  it('the skinner makes one kernel per primitive and skin, whoever asks', async () => {
    const asset = await loadModel({ name: 'two.glb', bytes: manySkinnedInstances(2).glb() }, noCompanions);
    const model = new AnimatedModel(asset);
    const skinner = new ModelVertexSkinner();
    const context = model.skinningContexts[0], primitive = asset.meshes[0].primitives[0];
    const a = skinner.positions(primitive, model.skinMatrices[0], context, { skinning: 'lbs', weights: 'normalize' }, model.morphWeights, -1).slice();
    const b = skinner.positions(primitive, model.skinMatrices[0], context, { skinning: 'lbs', weights: 'normalize' }, model.morphWeights, -1);
    expect(skinner.kernelCount).toBe(1);
    expect(Array.from(b)).toEqual(Array.from(a));
  });

  it('what posing and skinning it makes grows with the nodes, not with nodes × instances', async () => {
    const quarter = await loadModel({ name: 'quarter.glb', bytes: manySkinnedInstances(INSTANCES / 4).glb() }, noCompanions);
    const full = await loadModel({ name: 'full.glb', bytes }, noCompanions);
    const ratio = modelWorkingMemory(full).bytes / modelWorkingMemory(quarter).bytes;
    expect(ratio).toBeGreaterThan(3);
    expect(ratio).toBeLessThan(4.5);
  }, 120_000);

  it('past the memory budget, loading refuses with WORKING_MEMORY_EXCEEDED naming the file', async () => {
    const budget = 4 * 1024 * 1024; // above the file's decoded accessors, below what posing 20 002 nodes needs
    const error = await loadModel({ name: 'many-skinned.glb', bytes }, noCompanions, { memoryBudgetBytes: budget }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoadError);
    expect((error as LoadError).code).toBe('WORKING_MEMORY_EXCEEDED');
    expect((error as LoadError).message).toMatch(/^many-skinned\.glb: posing and skinning it needs [\d.]+ MiB \(20002 nodes, 1 skinned primitive, shared by 20000 skinned mesh instances\), more than the memory budget of 4 MiB$/);
  }, 120_000);
});
