import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Nothing allocated per frame by the avatar's jobs, measured as bench/harness.ts allocationPerCall does (forced GCs,
// a young generation large enough that no GC runs during the calls) in a node of its own, started with the flags
// that needs (as tests/unit/ik/ik-allocation.test.ts).

const PROBE = fileURLToPath(new URL('./avatar-allocation-probe.ts', import.meta.url));

describe('avatar jobs allocate nothing per frame', () => {
  it('AnimatedModel.evaluate of an avatar (tracks, bone look-at, auto-blink, binds) and writeDrivenMaterial: < 1 byte per call', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['evaluate', 'drivenMaterial']);
    for (const [call, { allocated, gcDuring }] of Object.entries(result)) {
      expect(gcDuring, `${call}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${call}: bytes allocated per call`).toBeLessThan(1);
    }
  });
});
