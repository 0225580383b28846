/**
 * `sinew eval` and `sinew inspect` (the shipped dist/cli.js, in node) on Draco- and meshopt-compressed copies of
 * CesiumMan made here: the decoders load in node from the package's own chunks, the evaluation equals the
 * in-process one of the same file, and a damaged stream exits non-zero with one line naming the file and the
 * extension's JSON pointer.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { compressModel } from '../helpers/compress-model.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();
const folder = mkdtempSync(join(tmpdir(), 'sinew-compressed-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!assets)('sinew on compressed files', () => {
  for (const codec of ['draco', 'meshopt'] as const) {
    it(`eval and inspect a ${codec} CesiumMan`, async () => {
      const bytes = await compressModel(join(assets!, 'gltf', 'CesiumMan.glb'), codec);
      const file = join(folder, `CesiumMan-${codec}.glb`);
      writeFileSync(file, bytes);
      const out = join(folder, `${codec}.json`);
      const result = await sinew('eval', file, '--clip', '0', '--time', '1.2', '--out', out);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const doc = JSON.parse(readFileSync(out, 'utf8'));
      const expected = evaluateModel(await parseGltf(`CesiumMan-${codec}.glb`, bytes), 0, 1.2);
      expect(doc.primitives.map((p: { vertexCount: number }) => p.vertexCount)).toEqual(expected.primitives.map((p) => p.vertexCount));
      doc.primitives.forEach((p: { positions: number[] }, k: number) => expect(p.positions).toEqual(expected.primitives[k].positions));
      const inspect = await sinew('inspect', file, '--json');
      expect(inspect.code).toBe(0);
      expect(JSON.parse(inspect.stdout).warnings).toEqual([]);
    }, 60_000);
  }

  it('a damaged Draco stream: exit 1, one line naming the file and the primitive', async () => {
    const bytes = await compressModel(join(assets!, 'gltf', 'RiggedFigure.glb'), 'draco');
    const jsonLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
    const view = json.bufferViews[json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView];
    const damaged = bytes.slice();
    damaged.fill(0x5a, 28 + jsonLength + (view.byteOffset ?? 0) + 12, 28 + jsonLength + (view.byteOffset ?? 0) + view.byteLength);
    const file = join(folder, 'damaged.glb');
    writeFileSync(file, damaged);
    const result = await sinew('eval', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sinew: damaged\.glb: \/meshes\/0\/primitives\/0\/extensions\/KHR_draco_mesh_compression could not be decoded \(Draco: [^\n]*\)\n$/);
  }, 60_000);
});
