import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manySkinnedInstances } from '../../fixtures/large-models.ts';
import { sinew } from './run-sinew.ts';

// Issue 31: a file of 20 000 nodes each instancing one skinned mesh gives the model, or past the memory budget a
// one-line refusal naming the file (exit 1, docs/guide/cli.md) — never an engine's message. Times are bench
// figures (`nodes.skinned20k.load_ms`, `nodes.flat100k.eval_s`), not asserted here.
const INSTANCES = 20_000;
const folder = mkdtempSync(join(tmpdir(), 'sinew-instances-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = join(folder, 'many-skinned.glb');
writeFileSync(file, manySkinnedInstances(INSTANCES).glb());

describe(`sinew eval on ${INSTANCES} instances of one skinned mesh`, () => {
  it('gives every instance\'s vertices', async () => {
    const result = await sinew('eval', file);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const evaluation = JSON.parse(result.stdout) as { primitives: { node: number; skinned: boolean; positions: number[] }[] };
    expect(evaluation.primitives.length).toBe(INSTANCES);
    expect(evaluation.primitives.every((p) => p.skinned)).toBe(true);
    // Each instance follows the one skin: the same vertices, whatever its node's translation.
    const first = JSON.stringify(evaluation.primitives[0].positions);
    expect(evaluation.primitives.every((p) => JSON.stringify(p.positions) === first)).toBe(true);
  }, 180_000);

  it('past --max-memory, refuses in one line naming the file, exit 1', async () => {
    const result = await sinew('eval', file, '--max-memory', '4');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^sinew: many-skinned\.glb: posing and skinning it needs [\d.]+ MiB \(20002 nodes, 1 skinned primitive, shared by 20000 skinned mesh instances\), more than the memory budget of 4 MiB\n$/);
  }, 180_000);
});
