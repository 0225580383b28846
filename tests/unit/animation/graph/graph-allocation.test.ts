import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The graph runs each frame for every character: nothing allocated per update, measured as bench/harness.ts
// allocationPerCall does, in a node of its own started with the flags that needs (20 000 frames each, after a
// warm-up).

const PROBE = fileURLToPath(new URL('./graph-allocation-probe.ts', import.meta.url));

describe('the animation graph allocates nothing per frame', () => {
  it('AnimationGraph.update and an AnimationGraphDriver frame (transitions, interruptions, blends, markers): < 1 byte per frame', () => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', PROBE], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    for (const [name, r] of Object.entries(result)) {
      expect(r.gcDuring, `${name}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(r.allocated, `${name}: bytes allocated per frame`).toBeLessThan(1);
    }
  });
});
