import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Nothing allocated per frame: SkinningKernel.skin, measured as bench/harness.ts allocationPerCall does (forced
// GCs, a young generation large enough that no GC runs during the calls) in a node of its own, started with the
// flags that needs.

const PROBE = fileURLToPath(new URL('./skinning-kernel-allocation-probe.ts', import.meta.url));

describe('SkinningKernel allocates nothing per frame', () => {
  it('WebAssembly SIMD (all outputs; positions only; DQS) and portable: < 1 byte per skin call', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['simdAll', 'simdPositions', 'simdDqs', 'portableAll', 'control']);
    const { control, ...calls } = result;
    // The measurement sees a 4-float array allocated per call (a typed array and its buffer: well over 16 bytes).
    expect(control.allocated).toBeGreaterThan(16);
    for (const [call, { allocated, gcDuring }] of Object.entries(calls)) {
      expect(gcDuring, `${call}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${call}: bytes allocated per skin call`).toBeLessThan(1);
    }
  }, 60_000);
});
