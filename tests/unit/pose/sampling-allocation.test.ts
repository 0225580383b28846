import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Nothing allocated per frame by sampling through the kernel (nor by the portable sampler): an Animator blending
// two clips, and a cubic clip with morph weights through the kernel, measured as bench/harness.ts
// allocationPerCall does (forced GCs, a young generation large enough that no GC runs during the frames), least
// of several rounds, in a node of its own started with the flags that needs.

const PROBE = fileURLToPath(new URL('./sampling-allocation-probe.ts', import.meta.url));

describe('sampling allocates nothing per frame', () => {
  it('Animator + sampling kernel (and portable) + PoseKernel, blended, forward with seeks back: < 1 byte per frame', () => {
    const output = execFileSync(process.execPath, [
      '--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE,
    ], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['auto', 'js', 'cubic']);
    for (const [sampling, { allocated, gcDuring }] of Object.entries(result)) {
      expect(gcDuring, `${sampling}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${sampling}: bytes allocated per frame`).toBeLessThan(1);
    }
  }, 120_000);
});
