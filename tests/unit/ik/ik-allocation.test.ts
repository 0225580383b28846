import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Nothing allocated per frame: each job's apply, measured as bench/harness.ts allocationPerCall does (forced GCs,
// a young generation large enough that no GC runs during the calls) in a node of its own, started with the flags
// that needs. A number passed to a helper V8 did not inline is boxed on the heap: ~500 B per apply before the
// helpers took arrays only (src/math/quaternion.ts, src/math/affine-mat4.ts).

const PROBE = fileURLToPath(new URL('./ik-allocation-probe.ts', import.meta.url));

describe('IK jobs allocate nothing per apply', () => {
  it('TwoBoneIkJob, AimIkJob (a chain with an offset and twist) and FootPlacementJob: < 1 byte per apply', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['twoBone', 'aimChain', 'footPlacement']);
    for (const [job, { allocated, gcDuring }] of Object.entries(result)) {
      expect(gcDuring, `${job}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${job}: bytes allocated per apply`).toBeLessThan(1);
    }
  });
});
