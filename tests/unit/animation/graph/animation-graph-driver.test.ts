import { describe, expect, it } from 'vitest';
import { AnimationEventList } from '../../../../src/animation/animation-events.ts';
import { Animator } from '../../../../src/animation/animator.ts';
import { AnimationGraph } from '../../../../src/animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../../../../src/animation/graph/animation-graph-driver.ts';
import { findMotionRoot } from '../../../../src/animation/root-motion.ts';
import { createLocalPose } from '../../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../../src/skeleton/skeleton.ts';
import { JOINTS, locomotionGraph, phaseClip, travelClip } from './graph-fixtures.ts';

// The graph driving an Animator: the pose is the blend of the clips at the graph's phase and weights, the
// clips' markers keep step through a blend and a speed ramp, root motion runs on through a transition.

const rest = createLocalPose(JOINTS);

function setup(asset = locomotionGraph(), clips = [phaseClip('Walk', 1, 1), phaseClip('Run', 0.6, 2)]): { graph: AnimationGraph; animator: Animator; driver: AnimationGraphDriver } {
  const graph = new AnimationGraph(asset, clips);
  const animator = new Animator(JOINTS, { maxClipsPerLayer: graph.maxClipsPerLayer() });
  return { graph, animator, driver: new AnimationGraphDriver(graph, animator) };
}

describe('AnimationGraphDriver', () => {
  it('1D at 0.5, synchronised, from t = 0 at 60 Hz: the pose is Walk and Run half and half at phase frac(T/(0.5·1 + 0.5·0.6))', () => {
    const { graph, animator, driver } = setup();
    graph.setParameter(driver.state, 'speed', 0.5);
    const pose = createLocalPose(JOINTS);
    const dt = 1 / 60;
    for (let f = 1; f <= 200; f++) {
      driver.update(dt);
      animator.evaluate(pose, rest);
      const phase = ((f * dt) / 0.8) % 1;
      // Joint 0: x = phase in both clips, y = 1 (Walk) and 2 (Run), blended half and half.
      const off = Math.abs(pose.translations[0] - phase);
      expect(Math.min(off, 1 - off), `frame ${f}`).toBeLessThan(1e-5); // phase 1 and 0 are one pose apart only by the wrap

      expect(pose.translations[1]).toBeCloseTo(1.5, 5);
    }
  });

  it('foot markers of Walk and Run fire within one frame of each other through a blend, a transition and a speed ramp', () => {
    const asset = locomotionGraph({
      parameters: { stop: { name: 'stop', type: 'BOOLEAN', value: false } },
      states: [{ name: 'Idle', blendTree: { type: '1D', parameter: 'speed', children: [{ name: 'Walk2', clip: 'Walk', point: 0 }, { name: 'Run2', clip: 'Run', point: 1 }] } }],
      transitions: [{ from: 'Locomotion', to: 'Idle', time: 0.5, conditions: [{ parameterName: 'stop', predicate: 'EQUAL_TO', value: true }] }],
    });
    const { graph, driver } = setup(asset);
    const events = new AnimationEventList();
    const feet = new Map<string, number[]>([['Walk', []], ['Run', []]]);
    const dt = 1 / 60;
    for (let f = 0; f < 600; f++) {
      graph.setParameter(driver.state, 'speed', Math.min(0.9, f / 400)); // both clips keep some weight
      graph.setParameter(driver.state, 'stop', f >= 300);
      driver.update(dt, events);
      for (let i = 0; i < events.length; i++) {
        const e = events.events[i];
        if (e.type === 'marker' && e.name === 'foot' && e.weight > 0) feet.get(e.clip!.name)!.push(f);
      }
    }
    const walk = feet.get('Walk')!, run = feet.get('Run')!;
    expect(walk.length).toBeGreaterThan(5);
    // Each clip's foot falls once per phase cycle (twice around the transition: the state fading out and the
    // one fading in); pair them up in order.
    expect(walk.length).toBe(run.length);
    walk.forEach((frame, i) => expect(Math.abs(frame - run[i]), `step ${i}`).toBeLessThanOrEqual(1));
    expect(graph.activeState(driver.state)).toBe('Idle');
  });

  it('root motion accumulates through a blend and a transition without a jump', () => {
    const skeleton: Skeleton = { jointCount: 3, names: ['phase', 'hips', 'foot'], parents: Int32Array.of(-1, -1, 1), sourceIndices: Int32Array.of(0, 1, 2) };
    const hipsRest = createLocalPose(JOINTS);
    hipsRest.translations.set([0, 1, 0], 3);
    const walk = travelClip('Walk', 1, 1.5), run = travelClip('Run', 0.5, 1.5), stand = travelClip('Stand', 1, 0);
    const asset = locomotionGraph({
      parameters: { stop: { name: 'stop', type: 'BOOLEAN', value: false } },
      states: [{ name: 'Stand' }],
      transitions: [{ from: 'Locomotion', to: 'Stand', time: 1, conditions: [{ parameterName: 'stop', predicate: 'EQUAL_TO', value: true }] }],
    });
    const graph = new AnimationGraph(asset, [walk, run, stand]);
    const animator = new Animator(JOINTS, { maxClipsPerLayer: graph.maxClipsPerLayer(), motionRoot: findMotionRoot(skeleton, hipsRest, [walk, run]) });
    animator.rootMotion = 'applied';
    const driver = new AnimationGraphDriver(graph, animator);
    const pose = createLocalPose(JOINTS);
    const dt = 1 / 60;
    let last = 0, maxStep = 0;
    const steps: number[] = [];
    for (let f = 0; f < 480; f++) {
      graph.setParameter(driver.state, 'speed', 0.5);
      graph.setParameter(driver.state, 'stop', f >= 240);
      driver.update(dt);
      animator.evaluate(pose, hipsRest);
      const z = animator.placement[1];
      const step = z - last;
      last = z;
      if (f > 1) steps.push(step);
      maxStep = Math.max(maxStep, step);
    }
    // Walk 1.5 u/s and Run 3 u/s synchronised half and half: 1.5 u per 0.75 s cycle = 2 u/s.
    const cruise = 2 * dt;
    expect(steps[100]).toBeCloseTo(cruise, 4);
    // No step backwards, none above the cruise (the fade to Stand only slows), and the fade is gradual:
    // from 240 on, consecutive steps differ by at most cruise/60 (a 1 s linear fade) plus rounding.
    expect(Math.min(...steps)).toBeGreaterThan(-1e-9);
    expect(maxStep).toBeLessThan(cruise + 1e-6);
    for (let i = 1; i < steps.length; i++) expect(Math.abs(steps[i] - steps[i - 1]), `frame ${i}`).toBeLessThan(cruise / 60 + 1e-6);
    expect(steps.at(-1)).toBeCloseTo(0, 9);
  });

  it('refuses an animator holding too few clips per layer', () => {
    const graph = new AnimationGraph(locomotionGraph(), [phaseClip('Walk', 1, 1), phaseClip('Run', 0.6, 2)]);
    expect(() => new AnimationGraphDriver(graph, new Animator(JOINTS, { maxClipsPerLayer: 2 }))).toThrow(/maxClipsPerLayer/);
  });
});
