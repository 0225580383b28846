import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

// A few bytes of JSON can declare accessors of a billion zero-filled elements: the declared sizes are summed
// and checked against a memory budget before anything is allocated, so such a file fails at once.
const encode = (json: unknown) => new TextEncoder().encode(JSON.stringify(json));

async function errorOf(promise: Promise<unknown>): Promise<LoadError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LoadError);
    return error as LoadError;
  }
  throw new Error('expected a LoadError');
}

describe('glTF memory budget', () => {
  it('refuses a zero-filled accessor of 10⁹ elements at once, naming its count', async () => {
    const started = performance.now();
    const error = await errorOf(parseGltf('bomb.gltf', encode({ asset: { version: '2.0' }, accessors: [{ componentType: 5126, type: 'VEC3', count: 1e9 }] })));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.code).toBe('MEMORY_BUDGET_EXCEEDED');
    expect(error.message).toBe('bomb.gltf: /accessors/0/count is 1000000000: the accessors decode to more than the memory budget of 512 MiB');
  });

  it('sums every accessor, and the budget is the caller\'s', async () => {
    const json = { asset: { version: '2.0' }, accessors: [0, 1, 2].map(() => ({ componentType: 5126, type: 'MAT4', count: 100_000 })) };
    // 3 × 100 000 × 64 B = 19.2 MB: over a budget of 16 MiB at the third accessor, within 20 MiB.
    const error = await errorOf(parseGltf('many.gltf', encode(json), undefined, { memoryBudgetBytes: 16 * 1024 * 1024 }));
    expect(error.where).toBe('/accessors/2/count');
    await expect(parseGltf('many.gltf', encode(json), undefined, { memoryBudgetBytes: 20 * 1024 * 1024 })).resolves.toBeDefined();
  });

  it('an ordinary model is far within the default budget', async () => {
    await expect(parseGltf('quad.gltf', skinnedQuad().gltf())).resolves.toBeDefined();
  });

  it('extensionsRequired / extensionsUsed that are not arrays of names are a type error, not a JS message', async () => {
    for (const key of ['extensionsRequired', 'extensionsUsed']) {
      for (const value of [{}, 'KHR_x', [1]]) {
        const error = await errorOf(parseGltf('ext.gltf', encode({ asset: { version: '2.0' }, [key]: value })));
        expect(error.message).toBe(`ext.gltf: /${key} is not an array of extension names`);
        expect(error.code).toBe('TYPE_MISMATCH');
      }
    }
  });
});

describe('glTF node transforms beyond float32', () => {
  it('a translation of 1e39 (finite in JSON, ∞ as float32) is an error at the node', async () => {
    const builder = skinnedQuad();
    builder.json.nodes[0].translation = [1e39, 0, 0];
    const error = await errorOf(parseGltf('far.gltf', builder.gltf()));
    expect(error.message).toBe('far.gltf: /nodes/0/translation is beyond the float32 range (±3.4e38): the node cannot be placed');
    expect(error.code).toBe('VALUE_NOT_IN_RANGE');
  });
});
