import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sinewMeasured } from './run-measured.ts';
import { manyNodes } from '../../fixtures/large-models.ts';

// Issue 25: `sinew inspect` on a file of 100 000 nodes (flat, and one 100 000-deep chain) reports it within
// twice the memory budget. Its time is a bench figure (`inspect.seconds.100k_nodes`).
const BUDGET_BYTES = 512 * 1024 * 1024; // docs/guide/memory-ceiling.md: the default of --max-memory

const folder = mkdtempSync(join(tmpdir(), 'sinew-nodes-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.runIf(existsSync('/proc/self/status'))('sinew inspect on many nodes', () => {
  it('100 000 nodes: the report, within twice the budget', async () => {
    const file = join(folder, 'nodes.gltf');
    writeFileSync(file, manyNodes(100_000, 'flat'));
    const run = await sinewMeasured(['inspect', '--json', file], 1 << 20);
    expect(run.peakBytes).toBeGreaterThan(0);
    expect(run.peakBytes).toBeLessThanOrEqual(2 * BUDGET_BYTES);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.head).nodeCount).toBe(100_000);
  }, 120_000);

  it('a 100 000-deep chain: the report, within twice the budget', async () => {
    const file = join(folder, 'chain.gltf');
    writeFileSync(file, manyNodes(100_000, 'chain'));
    const run = await sinewMeasured(['inspect', '--json', file], 1 << 20);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.peakBytes).toBeLessThanOrEqual(2 * BUDGET_BYTES);
    const report = JSON.parse(run.head);
    expect([report.nodeCount, report.scenes]).toEqual([100_000, [{ name: '', nodes: [0] }]]);
  }, 120_000);
});
