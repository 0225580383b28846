import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Nothing allocated per frame by the spring kernel, its pose in the pose kernel's arena or outside it, measured as
// bench/harness.ts allocationPerCall does (forced GCs, a young generation large enough that no GC runs during the
// frames), least of several rounds, in a node of its own started with the flags that needs.

const PROBE = fileURLToPath(new URL('./spring-allocation-probe.ts', import.meta.url));

describe('the spring kernel allocates nothing per frame', () => {
  it('step + apply (with frames that only re-pose and resets), in the arena and outside it: < 1 byte per frame', () => {
    const output = execFileSync(process.execPath, [
      '--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE,
    ], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['inArena', 'outside']);
    for (const [where, { allocated, gcDuring }] of Object.entries(result)) {
      expect(gcDuring, `${where}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${where}: bytes allocated per frame`).toBeLessThan(1);
    }
  }, 120_000);
});
