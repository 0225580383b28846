import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Animator } from '../../../src/animation/animator.ts';
import { AnimationGraph } from '../../../src/animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../../../src/animation/graph/animation-graph-driver.ts';
import { readAnimationGraph } from '../../../src/loaders/animation-graph/read-animation-graph.ts';
import { createSamplingKernel } from '../../../src/pose/sampling-kernel.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { locomotionCrowd, locomotionGraphJson } from '../../../bench/crowd-graph-cost.ts';

// Crowd instances running an animation graph (Crowd.setAnimationGraph): each instance's state is its own, and its
// pose is what an AnimationGraphDriver on a plain Animator gives for the same parameters — the independent path:
// the Animator's clip slots sampled and blended in f64 by `blendLayers` — through blends of two clips and
// transitions that play three; in the crowd kernel (float32 blend) and per instance in JavaScript.

const DT = 1 / 60;

function worst(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('crowd instances running an animation graph', () => {
  it('each instance has its own parameters and state', () => {
    const crowd = locomotionCrowd(3, true), graphs = crowd.animationGraph!;
    graphs.setParameter(0, 'speed', 0);
    graphs.setParameter(1, 'speed', 4);
    graphs.setParameter(2, 'speed', 1.5);
    crowd.update(DT);
    expect([0, 1, 2].map((k) => graphs.activeState(k))).toEqual(['Locomotion', 'Locomotion', 'Locomotion']);
    graphs.setParameter(1, 'jump', true);
    expect(graphs.getParameter(0, 'jump')).toBe(0);
    crowd.update(DT);
    // The trigger moved instance 1 alone, and was consumed by its transition.
    expect([0, 1, 2].map((k) => graphs.activeState(k))).toEqual(['Locomotion', 'Jump', 'Locomotion']);
    expect(graphs.getParameter(1, 'jump')).toBe(0);
    expect([0, 1, 2].map((k) => graphs.getParameter(k, 'speed'))).toEqual([0, 4, 1.5]);
    // Each plays its own point of the tree: Idle alone, Run alone (fading to Jump), Walk alone.
    const names = crowd.model.clips.map((c) => c.name);
    expect(names[crowd.clipIndices[0]]).toBe('Idle');
    expect(crowd.blendWeights[0]).toBe(0);
    // The active state's clips come first: Jump at t = dt/0.15 into the transition, Run fading out at 1 − t.
    expect(names[crowd.clipIndices[1]]).toBe('Jump');
    expect(names[crowd.blendClipIndices[1]]).toBe('Run');
    expect(crowd.blendWeights[1]).toBeCloseTo(1 - DT / 0.15, 6);
    expect(names[crowd.clipIndices[2]]).toBe('Walk');
    // Synchronised: every instance's phase is its own (Idle's 2.4 s, Run's 0.8 s, Walk's 1.6 s cycle).
    expect(crowd.times[0]).toBeCloseTo(2 * DT, 9);
    expect(crowd.times[2]).toBeCloseTo(2 * DT, 9);
    // Resetting one (add's reset) leaves the others.
    graphs.reset(2);
    expect(graphs.activeState(2)).toBe('START');
    expect(graphs.activeState(1)).toBe('Jump');
  });

  it('refuses graphs it cannot run and instances that do not exist', () => {
    const crowd = locomotionCrowd(2, false);
    const json = locomotionGraphJson() as { layers: unknown[] };
    const twoLayers = readAnimationGraph({ ...json, layers: [json.layers[0], { ...(json.layers[0] as object), name: 'Upper' }] }).graph;
    expect(() => crowd.setAnimationGraph(new AnimationGraph(twoLayers, crowd.model.clips))).toThrow(/one layer/);
    const other = locomotionCrowd(1, false).model.clips;
    expect(() => crowd.setAnimationGraph(new AnimationGraph(readAnimationGraph(json).graph, other))).toThrow(/not one of the crowd's/);
    const graphs = crowd.setAnimationGraph(new AnimationGraph(readAnimationGraph(json).graph, crowd.model.clips))!;
    expect(() => graphs.setParameter(2, 'speed', 1)).toThrow(RangeError);
    expect(() => graphs.setParameter(0, 'nope', 1)).toThrow(RangeError);
    expect(crowd.setAnimationGraph(null)).toBeNull();
  });

  for (const backend of ['auto', 'js'] as const) {
    it(`${backend === 'auto' ? 'crowd kernel' : 'per instance'}: each instance's pose equals an AnimationGraphDriver on an Animator with its parameters, through blends and transitions of three clips`, () => {
      const N = 8, crowd = locomotionCrowd(N, true, backend), graphs = crowd.animationGraph!;
      const kernel = crowd.kernel !== null;
      expect(kernel, 'who poses the crowd').toBe(backend === 'auto');
      const graph = graphs.graph, J = crowd.asset.skeleton.jointCount, rest = crowd.asset.restPose;
      // The kernel samples by its SIMD sampler: the Animator samples by the same one.
      const drivers = Array.from({ length: N }, () => new AnimationGraphDriver(graph, new Animator(J, {
        maxClipsPerLayer: graph.maxClipsPerLayer(), samplingKernel: kernel ? () => createSamplingKernel() : undefined,
      })));
      const speed = (k: number, f: number) => (4 * (((k + 1) * 0.618034 + f * 0.013) % 1));
      const pose = createLocalPose(J);
      let three = 0, two = 0, worstRotation = 0, worstTranslation = 0;
      for (let f = 0; f < 150; f++) {
        for (let k = 0; k < N; k++) {
          graphs.setParameter(k, 'speed', speed(k, f));
          graph.setParameter(drivers[k].state, 'speed', speed(k, f));
          // Jumps at staggered frames, some while a transition is still running.
          if ((f + 11 * k) % 37 === 0) {
            graphs.setParameter(k, 'jump', true);
            graph.setParameter(drivers[k].state, 'jump', true);
          }
        }
        crowd.update(DT);
        crowd.prepare(null);
        for (let k = 0; k < N; k++) {
          drivers[k].update(DT);
          drivers[k].animator.evaluate(pose, rest);
          expect(graphs.activeState(k), `instance ${k} frame ${f}`).toBe(graph.activeState(drivers[k].state));
          if (crowd.extraClips.weights[2 * k] > 0) three++;
          else if (crowd.blendWeights[k] > 0) two++;
          crowd.evaluateInstance(k);
          worstRotation = Math.max(worstRotation, worst(crowd.model.pose.rotations, pose.rotations));
          worstTranslation = Math.max(worstTranslation, worst(crowd.model.pose.translations, pose.translations));
        }
      }
      // The run met both cases: instances blending two clips, and transitions playing three.
      expect(two).toBeGreaterThan(100);
      expect(three).toBeGreaterThan(20);
      // The kernel blends in float32; in JavaScript the weights pass through the crowd's float32 arrays.
      expect(worstRotation).toBeLessThan(kernel ? 2e-5 : 2e-6);
      expect(worstTranslation).toBeLessThan(kernel ? 2e-5 : 2e-6);
      expect(graphs.droppedClips).toBe(0);
    });
  }

  it('a frame of a graph-driven crowd allocates nothing (crowd kernel and per instance): < 1 byte per frame', () => {
    const probe = fileURLToPath(new URL('./crowd-graph-allocation-probe.ts', import.meta.url));
    const output = execFileSync(process.execPath, ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', probe], { encoding: 'utf8' });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as Record<string, { allocated: number; gcDuring: number }>;
    expect(Object.keys(result)).toEqual(['portable', 'kernel', 'control']);
    const { control, ...frames } = result;
    expect(control.allocated).toBeGreaterThan(16);
    for (const [path, { allocated, gcDuring }] of Object.entries(frames)) {
      expect(gcDuring, `${path}: a GC ran during the measurement, which would hide garbage`).toBe(0);
      expect(allocated, `${path}: bytes allocated per frame`).toBeLessThan(1);
    }
  }, 180_000);
});
