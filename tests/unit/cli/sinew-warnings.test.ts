// sinew inspect / sinew eval on a lenient file: every loader warning reported once, by the built command
// (this project builds dist/ first, tests/helpers/fresh-build.ts).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quadWithTranslation } from '../helpers/gltf-builder.ts';
import { sinew } from './run-sinew.ts';

describe('sinew inspect and sinew eval report the warnings, one per deviation', () => {
  it('a file with repeated key times, mixed primitives and an ignored extension', async () => {
    const b = quadWithTranslation([0, 0.5, 0.5, 1], [0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0], 'LINEAR', 2);
    const position = b.accessor(new Float32Array([0, 0, 1, 1, 0, 1, 0, 1, 1]), 'VEC3', { min: [0, 0, 1], max: [1, 1, 1] });
    b.json.meshes[0].primitives.push({ attributes: { POSITION: position } });
    b.json.extensionsUsed = ['EXT_mesh_gpu_instancing'];
    const folder = mkdtempSync(join(tmpdir(), 'sinew-lenient-'));
    try {
      const file = join(folder, 'lenient.gltf');
      writeFileSync(file, b.gltf());
      const expected = [
        'lenient.gltf: uses extension "EXT_mesh_gpu_instancing", not required; ignored',
        'lenient.gltf: skinned node 1 carries a mesh that mixes primitives with and without JOINTS_0/WEIGHTS_0; the ones without are drawn rigidly with the node',
        'lenient.gltf: 3 of 4 animation samplers repeat a key time (first /animations/0/samplers/1/input key 2 at 0.5); played as a step: the later key holds from that time',
      ];
      const inspect = await sinew('inspect', file, '--json');
      expect(inspect.code).toBe(0);
      expect(JSON.parse(inspect.stdout).warnings).toEqual(expected);
      const evaluated = await sinew('eval', file, '--time', '0.5');
      expect(evaluated.code).toBe(0);
      expect(evaluated.stderr).toBe(expected.map((w) => `sinew: warning: ${w}\n`).join(''));
      const output = JSON.parse(evaluated.stdout);
      expect(output.primitives.map((p: { skinned: boolean }) => p.skinned)).toEqual([true, false]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
