import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { EVAL_CHUNK_VERTICES, writeEvaluation } from '../../../src/cli/evaluate-model.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { skinnedGrid } from '../../fixtures/large-models.ts';
import { evaluateModel, streamedEvaluation } from '../helpers/evaluate-model-reference.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { sinew } from './run-sinew.ts';

// `sinew eval` writes its document chunk by chunk; the text must be the very text `JSON.stringify` made of the
// in-memory evaluation it replaced (tests/unit/helpers/evaluate-model-reference.ts), byte for byte.
const LBS: SkinningMethod = { skinning: 'lbs', weights: 'normalize' };
const DQS: SkinningMethod = { skinning: 'dqs', weights: 'normalize' };

async function expectSameText(asset: ModelAsset, clip: number, time: number, method: SkinningMethod, joints = false): Promise<void> {
  const streamed = await streamedEvaluation(asset, clip, time, method, { joints });
  expect(streamed).toBe(JSON.stringify(evaluateModel(asset, clip, time, method, { joints })) + '\n');
}

describe('writeEvaluation', () => {
  it('writes a grid of more vertices than a chunk as the in-memory evaluation, LBS and DQS, with joints', async () => {
    const columns = 300, rows = Math.ceil((2 * EVAL_CHUNK_VERTICES + 5) / columns); // two chunk borders
    const asset = await parseGltf('grid.gltf', skinnedGrid(columns, rows).gltf());
    expect(asset.meshes[0].primitives[0].vertexCount).toBeGreaterThan(2 * EVAL_CHUNK_VERTICES);
    for (const method of [LBS, DQS]) await expectSameText(asset, 0, 0.37, method, true);
    await expectSameText(asset, -1, 0, LBS);
  });

  it('adds a far model\'s origin back as the in-memory evaluation did', async () => {
    const builder = skinnedGrid(4, 4);
    builder.json.nodes[2].translation = [5e5, -3e4, 7.25];
    builder.json.nodes.push({ name: 'rigid', mesh: 0, translation: [5e5, 0, 1] });
    builder.json.scenes[0].nodes.push(3);
    const asset = await parseGltf('far.gltf', builder.gltf());
    expect(new AnimatedModel(asset).origin[0]).not.toBe(0);
    await expectSameText(asset, 0, 0.5, LBS, true);
  });

  it('stops when the reader has gone', async () => {
    const asset = await parseGltf('grid.gltf', skinnedGrid(300, 300).gltf());
    const pieces: string[] = [];
    await writeEvaluation(asset, 0, 0, LBS, {}, async (piece) => {
      pieces.push(piece);
      return pieces.length < 2;
    });
    expect(pieces).toHaveLength(2);
    expect(pieces[0]).toBe('{"clip":"bend","time":0,"duration":1,"primitives":[');
  });
});

const assets = sharedAssets();

describe.skipIf(!assets)('writeEvaluation on the shared models', () => {
  const cases: [string, number, number, SkinningMethod][] = [
    ['gltf/CesiumMan.glb', 0, 1.37, LBS],
    ['gltf/Fox.glb', 1, 0.41, DQS],
    ['gltf/SimpleMorph.gltf', 0, 0.6, LBS],
    ['gltf/RecursiveSkeletons.glb', 0, 0.5, LBS],
    ['md5/Bob.md5mesh', 0, 1.3, LBS],
  ];
  it.each(cases)('%s at clip %i, %f s: the text of the in-memory evaluation', async (file, clip, time, method) => {
    const asset = await loadModelFromPath(join(assets!, file));
    await expectSameText(asset, Math.min(clip, asset.clips.length - 1), time, method, true);
  });
});

describe('sinew eval --out', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sinew-out-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('writes what standard output gets; a model that fails leaves an existing file as it was', async () => {
    const good = join(folder, 'grid.gltf'), out = join(folder, 'out.json');
    writeFileSync(good, skinnedGrid(300, 300).gltf());
    const printed = await sinew('eval', good, '--time', '0.25');
    expect((await sinew('eval', good, '--time', '0.25', '--out', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(printed.stdout);

    const far = skinnedQuad();
    far.json.nodes[2].translation = [3e38, 0, 0];
    far.json.nodes[0].translation = [3e38, 1, 0]; // model space past float32: NON_FINITE_RESULT
    const bad = join(folder, 'far.gltf');
    writeFileSync(bad, far.gltf());
    const failed = await sinew('eval', bad, '--out', out);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^sinew: far\.gltf: \/meshes\/0\/primitives\/0 evaluates to non-finite positions/);
    expect(readFileSync(out, 'utf8')).toBe(printed.stdout);
  });
});
