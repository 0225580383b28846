import type { AnimationClip } from '../../../../src/asset/animation-clip.ts';
import { compileClip, type RuntimeClip } from '../../../../src/animation/runtime-clip.ts';
import type { AnimationGraphAsset } from '../../../../src/animation/graph/animation-graph-asset.ts';
import { readAnimationGraph } from '../../../../src/loaders/animation-graph/read-animation-graph.ts';

/** Joints of the test skeleton: 0 carries the phase, 1 the hips (root motion), 2 a foot. */
export const JOINTS = 3;

/**
 * A clip `duration` seconds long whose joint 0 translation x runs linearly 0 → 1 over the clip (x reads the
 * clip's phase), y is `tag` (which clip it is), with a `foot` marker at `footPhase`·duration.
 */
export function phaseClip(name: string, duration: number, tag: number, footPhase = 0.25): RuntimeClip {
  const times = Float32Array.of(0, duration);
  const clip: AnimationClip = {
    name, duration,
    channels: [{ joint: 0, path: 'translation', interpolation: 'LINEAR', times, values: Float32Array.of(0, tag, 0, 1, tag, 0) }],
    markers: [{ time: footPhase * duration, name: 'foot' }],
  };
  return compileClip(clip, JOINTS);
}

/**
 * A clip whose hips (joint 1) travel `distance` along +Z over `duration` seconds at constant speed, height 1;
 * the foot (joint 2) below them. Its root motion is `distance/duration` units per second.
 */
export function travelClip(name: string, duration: number, distance: number): RuntimeClip {
  const keys = 5;
  const times = Float32Array.from({ length: keys }, (_, k) => (duration * k) / (keys - 1));
  const values = new Float32Array(3 * keys);
  for (let k = 0; k < keys; k++) values.set([0, 1, (distance * k) / (keys - 1)], 3 * k);
  return compileClip({ name, duration, channels: [{ joint: 1, path: 'translation', interpolation: 'LINEAR', times, values }] }, JOINTS);
}

/** Reads a graph written as a JS object (the reader's checks run; failures throw). */
export function graphOf(json: unknown): AnimationGraphAsset {
  return readAnimationGraph(json).graph;
}

/** A one-layer locomotion graph: START → Locomotion (1D tree on `speed`: Walk at 0, Run at 1, synchronised). */
export function locomotionGraph(extra: { transitions?: unknown[]; states?: unknown[]; parameters?: Record<string, unknown> } = {}): AnimationGraphAsset {
  return graphOf({
    parameters: { speed: { name: 'speed', type: 'FLOAT', value: 0 }, ...extra.parameters },
    layers: [{
      name: 'Base',
      states: [
        { name: 'START' },
        { name: 'Locomotion', speed: 1, loop: true, blendTree: { type: '1D', parameter: 'speed', syncAnimations: true, children: [{ name: 'Walk', point: 0 }, { name: 'Run', point: 1 }] } },
        ...(extra.states ?? []),
      ],
      transitions: [{ from: 'START', to: 'Locomotion' }, ...(extra.transitions ?? [])],
    }],
  });
}

/**
 * {@link locomotionGraph} with a jump: Locomotion → Jump on the `jump` trigger (0.1 s, interrupted by the next
 * state), Jump → Locomotion at exit time 0.8 (0.2 s); Jump plays once. Clips: {@link jumpGraphClips}.
 */
export function locomotionJumpGraph(): AnimationGraphAsset {
  return locomotionGraph({
    parameters: { jump: { name: 'jump', type: 'TRIGGER', value: false } },
    states: [{ name: 'Jump', loop: false }],
    transitions: [
      { from: 'Locomotion', to: 'Jump', time: 0.1, interruptionSource: 'NEXT_STATE', conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
      { from: 'Jump', to: 'Locomotion', time: 0.2, exitTime: 0.8, interruptionSource: 'PREV_STATE' },
    ],
  });
}

/** Walk (1 s), Run (0.6 s) and Jump (0.5 s) phase clips for {@link locomotionJumpGraph}. */
export function jumpGraphClips(): RuntimeClip[] {
  return [phaseClip('Walk', 1, 1), phaseClip('Run', 0.6, 2), phaseClip('Jump', 0.5, 3)];
}
