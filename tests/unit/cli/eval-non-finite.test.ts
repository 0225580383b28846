import { describe, expect, it } from 'vitest';
import { streamedEvaluation } from '../helpers/evaluate-model-reference.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

// Values finite in the file can overflow float32 once composed down the hierarchy: `sinew eval` then fails
// naming the joint, and never prints a `null` position.
describe('writeEvaluation with a hierarchy that overflows float32', () => {
  it('fails naming the primitive and the first joint whose matrix is not finite', async () => {
    const builder = skinnedQuad();
    builder.json.nodes[2].translation = [3e38, 0, 0]; // joint0, the root
    builder.json.nodes[0].translation = [3e38, 1, 0]; // joint1: 6e38 in model space, past float32
    const asset = await parseGltf('far.gltf', builder.gltf());
    let error: unknown;
    try {
      await streamedEvaluation(asset, -1, 0);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LoadError);
    expect((error as LoadError).message).toBe('far.gltf: /meshes/0/primitives/0 evaluates to non-finite positions: joint "joint1" (node 0) has a non-finite model-space matrix');
    expect((error as LoadError).code).toBe('NON_FINITE_RESULT');
  });

  it('evaluates the same model with finite translations', async () => {
    const asset = await parseGltf('near.gltf', skinnedQuad().gltf());
    expect(JSON.parse(await streamedEvaluation(asset, -1, 0)).primitives[0].positions.every(Number.isFinite)).toBe(true);
  });
});
