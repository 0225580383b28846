import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { validateGltfJson } from '../../../src/loaders/gltf/validate-gltf-json.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';

// A few bytes of JSON can declare accessors of a billion zero-filled elements: the declared sizes are summed
// and checked against a memory budget before anything is allocated, so such a file fails at once.
const encode = (json: unknown) => new TextEncoder().encode(JSON.stringify(json));

describe('glTF memory budget', () => {
  it('refuses a zero-filled accessor of 10⁹ elements at once, naming its count', async () => {
    const started = performance.now();
    const error = await loadErrorOf(parseGltf('bomb.gltf', encode({ asset: { version: '2.0' }, accessors: [{ componentType: 5126, type: 'VEC3', count: 1e9 }] })));
    expect(performance.now() - started).toBeLessThan(10_000); // at once: no 12 GB allocation (generous against load)
    expect(error.code).toBe('MEMORY_BUDGET_EXCEEDED');
    expect(error.message).toBe('bomb.gltf: /accessors/0/count is 1000000000: the accessors decode to more than the memory budget of 512 MiB');
  });

  it('sums every accessor, and the budget is the caller\'s', async () => {
    const json = { asset: { version: '2.0' }, accessors: [0, 1, 2].map(() => ({ componentType: 5126, type: 'MAT4', count: 100_000 })) };
    // 3 × 100 000 × 64 B = 19.2 MB: over a budget of 16 MiB at the third accessor, within 20 MiB.
    const error = await loadErrorOf(parseGltf('many.gltf', encode(json), undefined, { memoryBudgetBytes: 16 * 1024 * 1024 }));
    expect(error.where).toBe('/accessors/2/count');
    await expect(parseGltf('many.gltf', encode(json), undefined, { memoryBudgetBytes: 20 * 1024 * 1024 })).resolves.toBeDefined();
  });

  it('an ordinary model is far within the default budget', async () => {
    await expect(parseGltf('quad.gltf', skinnedQuad().gltf())).resolves.toBeDefined();
  });

  it('extensionsRequired / extensionsUsed that are not arrays of names are a type error, not a JS message', async () => {
    for (const key of ['extensionsRequired', 'extensionsUsed']) {
      for (const value of [{}, 'KHR_x', [1]]) {
        const error = await loadErrorOf(parseGltf('ext.gltf', encode({ asset: { version: '2.0' }, [key]: value })));
        expect(error.message).toBe(`ext.gltf: /${key} is not an array of extension names`);
        expect(error.code).toBe('TYPE_MISMATCH');
      }
    }
  });
});

describe('a memory budget that is no number of bytes', () => {
  it('NaN, 0 or a negative budget is a RangeError (not a silently disabled limit) in every entry point', async () => {
    const bytes = skinnedQuad().gltf();
    for (const bad of [NaN, 0, -1]) {
      await expect(parseGltf('quad.gltf', bytes, undefined, { memoryBudgetBytes: bad })).rejects.toThrow(RangeError);
      await expect(loadModel({ name: 'quad.gltf', bytes }, async () => null, { memoryBudgetBytes: bad })).rejects.toThrow(RangeError);
      expect(() => validateGltfJson('quad.gltf', { asset: { version: '2.0' } }, [], bad)).toThrow(RangeError);
    }
  });
});

describe('glTF node transforms beyond float32', () => {
  it('a translation of 1e39 (finite in JSON, ∞ as float32) is an error at the node', async () => {
    const builder = skinnedQuad();
    builder.json.nodes[0].translation = [1e39, 0, 0];
    const error = await loadErrorOf(parseGltf('far.gltf', builder.gltf()));
    expect(error.message).toBe('far.gltf: /nodes/0/translation is beyond the float32 range (±3.4e38): the node cannot be placed');
    expect(error.code).toBe('VALUE_NOT_IN_RANGE');
  });
});

describe('glTF node matrices must be TRS (glTF 2.0 §3.5.3)', () => {
  const cases: [string, number[], string][] = [
    ['projective', [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 'has a bottom row that is not 0 0 0 1 (a projective matrix is not a TRS)'],
    ['sheared', [1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 'shears (columns 0 and 1 are not orthogonal), which TRS cannot hold'],
    ['zero scale', [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 'has a zero (or non-finite) scale column, which has no rotation'],
  ];
  for (const [label, matrix, problem] of cases) {
    it(`refuses a ${label} matrix`, async () => {
      const builder = skinnedQuad();
      builder.json.nodes[0].matrix = matrix;
      delete builder.json.nodes[0].translation;
      const error = await loadErrorOf(parseGltf('m.gltf', builder.gltf()));
      expect(error.message).toBe(`m.gltf: /nodes/0/matrix ${problem}`);
      expect(error.code).toBe('NODE_MATRIX_NON_TRS');
    });
  }

  it('accepts a rotated, non-uniformly scaled, translated matrix (and float32 rounding)', async () => {
    const c = Math.fround(Math.cos(0.3)), s = Math.fround(Math.sin(0.3));
    const builder = skinnedQuad();
    builder.json.nodes[0].matrix = [2 * c, 2 * s, 0, 0, -3 * s, 3 * c, 0, 0, 0, 0, 0.5, 0, 1, 2, 3, 1];
    delete builder.json.nodes[0].translation;
    await expect(parseGltf('m.gltf', builder.gltf())).resolves.toBeDefined();
  });
});
