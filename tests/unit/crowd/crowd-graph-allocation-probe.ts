/**
 * Run by crowd-animation-graph.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes one
 * frame of a graph-driven crowd (`Crowd.update` — every instance's graph — and `Crowd.prepare` with culling)
 * allocates: 64 locomotion worms, their speeds and jump triggers changed each frame (bench/crowd-graph-cost.ts),
 * in the crowd kernel and per instance.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { locomotionCrowd, steer } from '../../../bench/crowd-graph-cost.ts';
import type { Crowd } from '../../../src/crowd/crowd.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('crowd-graph-allocation-probe: run node with --expose-gc');

const VIEW = [0.05, 0, 0, 0, 0, 0.05, 0, 0, 0, 0, 0.05, 0, 0, 0, 0, 1];
const kernel = locomotionCrowd(64, true, 'auto'), portable = locomotionCrowd(64, true, 'js');
if (!kernel.kernel) throw new Error('crowd-graph-allocation-probe: no crowd kernel in this node');
let frame = 0, kept: Float32Array | null = null;
const step = (c: Crowd): void => {
  steer(c, frame++);
  c.update(1 / 60);
  c.prepare(VIEW);
};
// The per-instance path first: warmed after a kernel crowd in the same node, V8 was seen to leave its prepare
// boxing numbers (an optimisation artefact of the mix: in a node of its own the path allocates nothing).
const calls = {
  portable: () => step(portable),
  kernel: () => step(kernel),
  // The control: the same frame plus one small array, which the measurement must see.
  control: () => { step(kernel); kept = new Float32Array(4); },
};
const result: Record<string, { allocated: number; gcDuring: number }> = {};
for (const [name, call] of Object.entries(calls)) {
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
