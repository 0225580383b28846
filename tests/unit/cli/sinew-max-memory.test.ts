import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sinew } from './run-sinew.ts';

// `--max-memory MiB` sets both the largest file read and the glTF memory budget; a memory bomb fails fast.
const folder = mkdtempSync(join(tmpdir(), 'sinew-memory-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const bomb = join(folder, 'bomb.gltf');
writeFileSync(bomb, JSON.stringify({ asset: { version: '2.0' }, accessors: [{ componentType: 5126, type: 'VEC3', count: 1_000_000_000 }] }));
const small = join(folder, 'small.gltf'); // 120 MB of accessors: within the default budget, not within 64 MiB
writeFileSync(small, JSON.stringify({ asset: { version: '2.0' }, accessors: [{ componentType: 5126, type: 'VEC3', count: 10_000_000 }] }));

describe('sinew --max-memory', () => {
  it('eval and inspect refuse accessors past the budget, exit 1, one line', async () => {
    for (const command of ['eval', 'inspect']) {
      const result = await sinew(command, bomb);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('sinew: bomb.gltf: /accessors/0/count is 1000000000: the accessors decode to more than the memory budget of 512 MiB\n');
    }
  });

  it('a smaller budget is named in the message; a bad value is a usage error', async () => {
    expect((await sinew('inspect', small, '--max-memory', '64')).stderr).toBe('sinew: small.gltf: /accessors/0/count is 10000000: the accessors decode to more than the memory budget of 64 MiB\n');
    const bad = await sinew('eval', bomb, '--max-memory', '0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sinew: option '--max-memory <MiB>' argument '0' is invalid\. It must be a whole number of MiB, at least 1\.\n/);
  });
});
