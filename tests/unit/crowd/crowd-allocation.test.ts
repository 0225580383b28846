import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Nothing allocated per crowd frame (docs/guide/crowds.md), measured as bench/harness.ts allocationPerCall does (forced
// GCs, a young generation large enough that no GC runs during the calls) in a node of its own.

const PROBE = fileURLToPath(new URL('./crowd-allocation-probe.ts', import.meta.url));

describe('a crowd frame allocates nothing', () => {
  it('crowd kernel, per instance and baked, instances mirrored, blending and crossfading: < 1 byte per frame', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['kernel', 'portable', 'baked', 'control']);
    const { control, ...frames } = result;
    expect(control.allocated).toBeGreaterThan(16);
    for (const [path, { allocated, gcDuring }] of Object.entries(frames)) {
      expect(gcDuring, `${path}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${path}: bytes allocated per frame`).toBeLessThan(1);
    }
  }, 120_000);
});
