import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The normalised view runs each frame (a VRMA clip's humanoid tracks, look-at): nothing allocated per call,
// measured as bench/harness.ts allocationPerCall does, in a node of its own started with the flags that needs.

const PROBE = fileURLToPath(new URL('./normalized-allocation-probe.ts', import.meta.url));

describe('the normalised humanoid view allocates nothing per call', () => {
  it('55 rotations set and read and the hips placed and read: < 1 byte per frame', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE], { encoding: 'utf8' });
    const { frame } = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(frame.gcDuring, 'a GC ran during the measurement, which would hide garbage').toBe(0);
    expect(frame.allocated, 'bytes allocated per frame').toBeLessThan(1);
  });
});
