/**
 * Run by crowd-allocation.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes one
 * crowd frame (`Crowd.update` + `Crowd.prepare` with culling) allocates, 64 worms, some mirrored, some blending
 * two clips, some crossfading: the crowd kernel; the per-instance path; baked mode.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('crowd-allocation-probe: run node with --expose-gc');

const VIEW = [0.05, 0, 0, 0, 0, 0.05, 0, 0, 0, 0, 0.05, 0, 0, 0, 0, 1];
function crowd(backend: 'auto' | 'js', mode: 'live' | 'baked'): Crowd {
  const c = new Crowd(createWorm(WORM_800), { capacity: 64, backend, mode });
  const w = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  for (let k = 0; k < 64; k++) {
    w[0] = k % 5 === 0 ? -1 : 1;
    w[12] = 3 * (k % 8) - 12;
    w[14] = 3 * (k >> 3) - 12;
    c.add(k % 2, 0.1 * k, 1, w);
    if (k % 3 === 0) c.blend(k, (k + 1) % 2, 0.05 * k, 0.4);
    // Crossfades under way through every measured frame (a fade's start and end run once each, in code that may
    // not be optimised yet: not a frame's cost).
    if (k % 7 === 1) c.crossfade(k, (k + 1) % 2, 1000);
  }
  if (mode === 'baked') c.bakedClipsOrBake();
  return c;
}
const kernel = crowd('auto', 'live'), portable = crowd('js', 'live'), baked = crowd('auto', 'baked');
if (!kernel.kernel) throw new Error('crowd-allocation-probe: no crowd kernel in this node');
let kept: Float32Array | null = null;
const step = (c: Crowd): void => {
  c.update(1 / 60);
  c.prepare(VIEW);
};
const calls = {
  kernel: () => step(kernel),
  portable: () => step(portable),
  baked: () => step(baked),
  // The control: the same frame plus one small array, which the measurement must see.
  control: () => { step(kernel); kept = new Float32Array(4); },
};
const result: Record<string, { allocated: number; gcDuring: number }> = {};
for (const [name, call] of Object.entries(calls)) {
  // Warm up first, then the least of up to five rounds: code still being optimised on a loaded machine boxes
  // numbers for a while; a real allocation shows in every round.
  for (let i = 0; i < 3000; i++) call();
  let best = { allocated: Infinity, gcDuring: 0 };
  for (let round = 0; round < (name === 'control' ? 1 : 5) && best.allocated >= 1; round++) {
    const { allocated, gcDuring } = await allocationPerCall(call, 4000, gc);
    if (allocated < best.allocated) best = { allocated, gcDuring };
  }
  result[name] = best;
}
if (kept === null) throw new Error('unreachable');
console.log(JSON.stringify(result));
