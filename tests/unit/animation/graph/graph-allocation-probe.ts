/**
 * Run by graph-allocation.test.ts in a node started with `--expose-gc --min-semi-space-size=64
 * --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs both): prints, as JSON, the bytes one
 * frame allocates of (a) `AnimationGraph.update` alone and (b) an `AnimationGraphDriver` frame (graph, animator
 * slots, animator update with events, evaluate), on a locomotion graph whose parameters sweep so that transitions,
 * interruptions, blends and markers all happen during the measurement (a jump every 50 frames).
 */
import { allocationPerCall } from '../../../../bench/harness.ts';
import { AnimationEventList } from '../../../../src/animation/animation-events.ts';
import { Animator } from '../../../../src/animation/animator.ts';
import { AnimationGraph } from '../../../../src/animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../../../../src/animation/graph/animation-graph-driver.ts';
import { createLocalPose } from '../../../../src/skeleton/local-pose.ts';
import { JOINTS, jumpGraphClips, locomotionJumpGraph } from './graph-fixtures.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('graph-allocation-probe: run node with --expose-gc');

const graph = new AnimationGraph(locomotionJumpGraph(), jumpGraphClips());
const state = graph.createState();
const events = new AnimationEventList();
const speed = graph.parameterIndex('speed'), jump = graph.parameterIndex('jump');
let k = 0;
const graphFrame = (): void => {
  k++;
  // Hot loops write parameters in place (setParameter takes a double across a call).
  state.parameters[speed] = 0.5 + 0.5 * Math.sin(k * 0.01);
  if (k % 50 === 0) state.parameters[jump] = 1;
  events.clear();
  graph.update(state, 1 / 60, events);
};

const animator = new Animator(JOINTS, { maxClipsPerLayer: graph.maxClipsPerLayer() });
const driver = new AnimationGraphDriver(graph, animator);
const pose = createLocalPose(JOINTS), rest = createLocalPose(JOINTS);
const driverFrame = (): void => {
  k++;
  driver.state.parameters[speed] = 0.5 + 0.5 * Math.sin(k * 0.01);
  if (k % 50 === 0) driver.state.parameters[jump] = 1;
  driver.update(1 / 60, events);
  animator.evaluate(pose, rest);
};
/**
 * 20 000 frames measured (the harness has a fixed overhead of about 2 kB a measurement) after 100 000 of warm-up:
 * until the optimising compiler has run (and while it compiles) V8 boxes doubles and allocates code.
 */
async function measure(frame: () => void): Promise<{ allocated: number; retained: number; gcDuring: number }> {
  for (let i = 0; i < 100_000; i++) frame();
  return allocationPerCall(frame, 20_000, gc!);
}
console.log(JSON.stringify({ graph: await measure(graphFrame), driver: await measure(driverFrame) }));
