/**
 * A crowd whose instances run an animation graph (issue 36; docs/guide/crowds.md, "Animation graphs"), in node:
 * 10 000 live worms (16 joints, the crowd bench's character made in code, with four clips: Idle, Walk, Run, Jump),
 * every one running {@link locomotionGraphJson} — a synchronised 1D tree of Idle, Walk and Run on `speed`, and
 * two transitions, Locomotion → Jump on the `jump` trigger and Jump → Locomotion at its exit time — with its own
 * speed, and each frame 1 in 97 instances given a new speed and the jump trigger (so about a fifth are in a
 * transition, playing three clips, at any time).
 *
 * - `crowd.graph.N10000.cpu_ms`: the CPU time the graph adds to one frame: `CrowdAnimationGraph.update` (every
 *   instance's `AnimationGraph.update` and its clips written into the crowd's slots; it replaces the clip time
 *   steps of `Crowd.update`), plus the `Crowd.prepare` (crowd kernel: sampling, blending, matrices, bounds,
 *   culling, packing) of the graph's crowd less that of the same crowd playing one clip per instance with no
 *   graph (the second and third clips the graph blends in). Medians of many frames each.
 * - `crowd.graph.N10000.frame_ms`, `crowd.graph.N10000.frame_ms.no_graph`, `crowd.graph.N10000.frame_ratio`: the
 *   whole frame (`Crowd.update` + `Crowd.prepare`) with the graph, without (one clip per instance), and their
 *   ratio, measured alternately in the same run.
 *
 * Run alone: `node --import tsx bench/crowd-graph-cost.ts`.
 */
import type { AnimationClip } from '../src/asset/animation-clip.ts';
import type { ModelAsset } from '../src/asset/model-asset.ts';
import { AnimationGraph } from '../src/animation/graph/animation-graph.ts';
import { Crowd } from '../src/crowd/crowd.ts';
import { readAnimationGraph } from '../src/loaders/animation-graph/read-animation-graph.ts';
import { createWorm, WORM_800 } from '../src/procedural/worm.ts';
import { compare } from './harness.ts';

const DT = 1 / 60;
/** An orthographic view volume of ±10 000 units: every instance is in view, and each is still tested. */
const VIEW = [1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1];

/** `clip` with its keys' times stretched to `duration` seconds, renamed. */
function stretched(clip: AnimationClip, name: string, duration: number): AnimationClip {
  const f = duration / clip.duration;
  return { ...clip, name, duration, channels: clip.channels.map((c) => ({ ...c, times: c.times.map((t) => t * f) })) };
}

/** The 16-joint worm with locomotion clips: Idle (2.4 s), Walk (1.6 s), Run (0.8 s), Jump (0.9 s). */
export function locomotionWorm(): ModelAsset {
  const worm = createWorm(WORM_800);
  const [crawl, wriggle] = worm.clips;
  return { ...worm, clips: [stretched(wriggle, 'Idle', 2.4), stretched(crawl, 'Walk', 1.6), stretched(crawl, 'Run', 0.8), stretched(wriggle, 'Jump', 0.9)] };
}

/**
 * The bench's graph: parameters `speed` (FLOAT) and `jump` (TRIGGER); START → Locomotion (1D on speed: Idle at 0,
 * Walk at 1.5, Run at 4, synchronised), Locomotion → Jump on `jump` (0.15 s), Jump → Locomotion at exit time 0.8
 * (0.2 s); Jump plays once.
 */
export function locomotionGraphJson(): unknown {
  return {
    parameters: { speed: { name: 'speed', type: 'FLOAT', value: 0 }, jump: { name: 'jump', type: 'TRIGGER', value: false } },
    layers: [{
      name: 'Base',
      states: [
        { name: 'START' },
        { name: 'Locomotion', speed: 1, loop: true, blendTree: { type: '1D', parameter: 'speed', syncAnimations: true, children: [{ name: 'Idle', point: 0 }, { name: 'Walk', point: 1.5 }, { name: 'Run', point: 4 }] } },
        { name: 'Jump', speed: 1, loop: false },
      ],
      transitions: [
        { from: 'START', to: 'Locomotion' },
        { from: 'Locomotion', to: 'Jump', time: 0.15, conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
        { from: 'Jump', to: 'Locomotion', time: 0.2, exitTime: 0.8 },
      ],
    }],
  };
}

/** A crowd of `count` locomotion worms on a grid (`clipsPerInstance` 4), with the graph when `graph`. */
export function locomotionCrowd(count: number, graph: boolean, backend: 'auto' | 'js' = 'auto'): Crowd {
  const crowd = new Crowd(locomotionWorm(), { capacity: count, clipsPerInstance: 4, backend });
  const columns = Math.ceil(Math.sqrt(count)), w = new Float32Array(16), clips = crowd.model.clips;
  w[0] = w[5] = w[10] = w[15] = 1;
  for (let i = 0; i < count; i++) {
    w[12] = 3 * (i % columns);
    w[14] = 3 * Math.floor(i / columns);
    const golden = (i * 0.618034) % 1, clip = i % 3;
    crowd.add(clip, clips[clip].duration * golden, 1, w);
  }
  if (graph) {
    const graphs = crowd.setAnimationGraph(new AnimationGraph(readAnimationGraph(locomotionGraphJson()).graph, clips))!;
    for (let i = 0; i < count; i++) graphs.setParameter(i, 0, 4 * ((i * 0.618034) % 1));
  }
  return crowd;
}

/**
 * Frame `frame`'s parameter changes: 1 in 97 instances gets a new speed and the jump trigger, written into its
 * state's parameters (`AnimationGraphState.parameters`: speed, then jump), as a caller steering many does.
 */
export function steer(crowd: Crowd, frame: number): void {
  const states = crowd.animationGraph!.states;
  for (let k = frame % 97; k < crowd.count; k += 97) {
    const parameters = states[k].parameters;
    parameters[0] = SPEEDS[(k + frame) & 1023];
    parameters[1] = 1;
  }
}

/** Speeds in [0, 4), golden-ratio spaced. */
const SPEEDS = Float64Array.from({ length: 1024 }, (_, i) => 4 * ((i * 0.618034) % 1));

export interface CrowdGraphCost {
  readonly figures: Record<string, number>;
  readonly rows: string[][];
}

/** The figures above (see the file's comment). */
export function crowdGraphCost(): CrowdGraphCost {
  const N = 10_000, withGraph = locomotionCrowd(N, true), plain = locomotionCrowd(N, false), graphs = withGraph.animationGraph!;
  let frame = 0;
  // Warm the graph into its steady mix of states (a fifth or so in transitions).
  for (; frame < 120; frame++) {
    steer(withGraph, frame);
    withGraph.update(DT);
  }
  const cases = [
    { name: 'graph update', fn: () => { steer(withGraph, frame++); graphs.update(DT); } },
    { name: 'graph prepare', fn: () => { withGraph.prepare(VIEW); } },
    { name: 'plain prepare', fn: () => { plain.prepare(VIEW); } },
    { name: 'graph frame', fn: () => { steer(withGraph, frame++); withGraph.update(DT); withGraph.prepare(VIEW); } },
    { name: 'plain frame', fn: () => { plain.update(DT); plain.prepare(VIEW); } },
  ];
  const [update, graphPrepare, plainPrepare, graphFrame, plainFrame] = compare(cases, { rounds: 15, batchMs: 40 });
  const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
  const figures: Record<string, number> = {
    'crowd.graph.N10000.cpu_ms': ms(update.nsPerOp + Math.max(0, graphPrepare.nsPerOp - plainPrepare.nsPerOp)),
    'crowd.graph.N10000.frame_ms': ms(graphFrame.nsPerOp),
    'crowd.graph.N10000.frame_ms.no_graph': ms(plainFrame.nsPerOp),
    'crowd.graph.N10000.frame_ratio': Math.round((graphFrame.nsPerOp / plainFrame.nsPerOp) * 100) / 100,
  };
  const rows = [
    ['crowd graph: 10 000 worms, 1D locomotion tree + 2 transitions, CPU the graph adds per frame', `${figures['crowd.graph.N10000.cpu_ms'].toFixed(3)} ms`, '', '',
      `graph update ${ms(update.nsPerOp).toFixed(3)} ms, prepare ${ms(graphPrepare.nsPerOp).toFixed(3)} vs ${ms(plainPrepare.nsPerOp).toFixed(3)} ms`],
    ['crowd graph: whole frame with / without the graph', `${figures['crowd.graph.N10000.frame_ms'].toFixed(3)} ms`, '', '',
      `${figures['crowd.graph.N10000.frame_ms.no_graph'].toFixed(3)} ms, ratio ${figures['crowd.graph.N10000.frame_ratio']}`],
  ];
  return { figures, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { figures, rows } = crowdGraphCost();
  for (const row of rows) console.log(row.filter(Boolean).join(' | '));
  console.log(figures);
}
