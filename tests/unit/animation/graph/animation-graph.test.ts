import { describe, expect, it } from 'vitest';
import { AnimationEventList } from '../../../../src/animation/animation-events.ts';
import { AnimationGraph } from '../../../../src/animation/graph/animation-graph.ts';
import { graphOf, locomotionGraph, phaseClip } from './graph-fixtures.ts';

// The graph's semantics without an Animator: transition order, priorities, exit times, interruption, triggers,
// synchronised phase. Expected values follow from the rules in docs/guide/animation-graph.md, worked by hand.

const walk = phaseClip('Walk', 1, 1), run = phaseClip('Run', 0.6, 2), idle = phaseClip('Idle', 2, 3), jump = phaseClip('Jump', 0.5, 4);
const clips = [walk, run, idle, jump];

/** Events of the last update as `type:name` (and `<source` for transitions). */
function log(events: AnimationEventList): string[] {
  return events.events.slice(0, events.length).map((e) => `${e.type}:${e.name}${e.source ? `<${e.source}` : ''}`);
}

describe('transitions: order and priorities', () => {
  const asset = graphOf({
    parameters: { go: { name: 'go', type: 'BOOLEAN', value: false } },
    layers: [{
      name: 'Base',
      states: [{ name: 'START' }, { name: 'Idle' }, { name: 'Walk' }, { name: 'Run' }, { name: 'Jump' }],
      transitions: [
        { from: 'START', to: 'Idle' },
        { from: 'ANY', to: 'Jump', priority: -10, conditions: [{ parameterName: 'go', predicate: 'EQUAL_TO', value: true }] },
        { from: 'Idle', to: 'Run', priority: 2, conditions: [{ parameterName: 'go', predicate: 'EQUAL_TO', value: true }] },
        { from: 'Idle', to: 'Walk', priority: 1, conditions: [{ parameterName: 'go', predicate: 'EQUAL_TO', value: true }] },
      ],
    }],
  });

  it('START leaves on the first update; the active state\'s transitions by ascending priority, before ANY\'s', () => {
    const graph = new AnimationGraph(asset, clips);
    const state = graph.createState(), events = new AnimationEventList();
    expect(graph.activeState(state)).toBe('START');
    graph.update(state, 0.1, events);
    expect(graph.activeState(state)).toBe('Idle');
    expect(log(events)).toEqual(['transition-start:Idle<START', 'state-enter:Idle', 'state-exit:START', 'transition-end:Idle<START']);
    graph.setParameter(state, 'go', true);
    events.clear();
    graph.update(state, 0.1, events);
    // Walk (priority 1) beats Run (2), and Idle's own list beats ANY's even at priority −10 (PlayCanvas's order).
    expect(graph.activeState(state)).toBe('Walk');
    // From Walk nothing but ANY → Jump holds.
    events.clear();
    graph.update(state, 0.1, events);
    expect(graph.activeState(state)).toBe('Jump');
    // ANY never transitions to the active state again.
    graph.update(state, 0.1, events);
    expect(graph.activeState(state)).toBe('Jump');
  });

  it('one transition per layer per update; ties in file order', () => {
    const tie = graphOf({
      parameters: {},
      layers: [{ name: 'Base', states: [{ name: 'START' }, { name: 'Walk' }, { name: 'Run' }], transitions: [{ from: 'START', to: 'Run' }, { from: 'START', to: 'Walk' }, { from: 'Run', to: 'Walk' }] }],
    });
    const graph = new AnimationGraph(tie, clips);
    const state = graph.createState();
    graph.update(state, 0.1);
    expect(graph.activeState(state)).toBe('Run');
    graph.update(state, 0.1);
    expect(graph.activeState(state)).toBe('Walk');
  });
});

describe('exit times', () => {
  function exitGraph(exitTime: number, loop: boolean): AnimationGraph {
    return new AnimationGraph(graphOf({
      parameters: {},
      layers: [{ name: 'Base', states: [{ name: 'START' }, { name: 'Walk', loop }, { name: 'Run' }], transitions: [{ from: 'START', to: 'Walk' }, { from: 'Walk', to: 'Run', exitTime }] }],
    }), clips);
  }

  it('fires in the update whose progress passes the exit time (Walk: 1 s; 0.75 passed between 0.7 and 0.8)', () => {
    const graph = exitGraph(0.75, true);
    const state = graph.createState();
    graph.update(state, 0.1); // START → Walk, which plays this 0.1 s: progress 0.1
    let fired = -1;
    for (let f = 1; f <= 20 && fired < 0; f++) {
      graph.update(state, 0.1);
      if (graph.activeState(state) === 'Run') fired = f;
    }
    expect(fired).toBe(7);
  });

  it('below 1 on a looping state: each loop, the update that wraps included', () => {
    const graph = exitGraph(0.05, true);
    const state = graph.createState();
    graph.update(state, 0.1);
    const walkIndex = graph.stateIndex(0, 'Walk');
    // Progress 0.1 → 0.2 … → 1.0 → 1.1: the exit at 0.05 of the second loop lies in (0.98, 1.08].
    state.progress[walkIndex] = 0.98;
    graph.update(state, 0.1);
    expect(graph.activeState(state)).toBe('Run');
  });

  it('above 1: once, when that many loops have played', () => {
    const graph = exitGraph(2.5, true);
    const state = graph.createState();
    graph.update(state, 0.1);
    let fired = -1;
    for (let f = 1; f <= 40 && fired < 0; f++) {
      graph.update(state, 0.1);
      if (graph.activeState(state) === 'Run') fired = f;
    }
    expect(fired).toBe(24);
  });
});

describe('triggers', () => {
  it('are consumed once, by the transition that reads them', () => {
    const asset = graphOf({
      parameters: { jump: { name: 'jump', type: 'TRIGGER', value: false } },
      layers: [{
        name: 'Base',
        states: [{ name: 'START' }, { name: 'Idle' }, { name: 'Jump', loop: false }],
        transitions: [
          { from: 'START', to: 'Idle' },
          { from: 'Idle', to: 'Jump', conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
          { from: 'Jump', to: 'Idle', exitTime: 1 },
        ],
      }],
    });
    const graph = new AnimationGraph(asset, clips);
    const state = graph.createState();
    graph.update(state, 0.1);
    graph.setParameter(state, 'jump', true);
    expect(graph.getParameter(state, 'jump')).toBe(1);
    graph.update(state, 0.1);
    expect(graph.activeState(state)).toBe('Jump');
    expect(graph.getParameter(state, 'jump')).toBe(0);
    const visits: string[] = [];
    for (let f = 0; f < 30; f++) {
      graph.update(state, 0.1);
      if (visits.at(-1) !== graph.activeState(state)) visits.push(graph.activeState(state));
    }
    // Jump (0.5 s, once) ends, back to Idle, and stays: the trigger fired one jump.
    expect(visits).toEqual(['Jump', 'Idle']);
  });

  it('a trigger no transition reads stays set', () => {
    const graph = new AnimationGraph(locomotionGraph({ parameters: { jump: { name: 'jump', type: 'TRIGGER', value: false } } }), clips);
    const state = graph.createState();
    graph.setParameter(state, 'jump', 1);
    for (let f = 0; f < 5; f++) graph.update(state, 0.1);
    expect(graph.getParameter(state, 'jump')).toBe(1);
  });
});

describe('interruption', () => {
  function interruptGraph(source: string): AnimationGraph {
    return new AnimationGraph(graphOf({
      parameters: { next: { name: 'next', type: 'BOOLEAN', value: false } },
      layers: [{
        name: 'Base',
        states: [{ name: 'START' }, { name: 'Idle' }, { name: 'Walk' }, { name: 'Run' }],
        transitions: [
          { from: 'START', to: 'Idle' },
          { from: 'Idle', to: 'Walk', time: 1, interruptionSource: source, conditions: [{ parameterName: 'next', predicate: 'EQUAL_TO', value: false }] },
          { from: 'Walk', to: 'Run', time: 1, conditions: [{ parameterName: 'next', predicate: 'EQUAL_TO', value: true }] },
        ],
      }],
    }), clips);
  }

  it('NONE: a running transition is not interrupted', () => {
    const graph = interruptGraph('NONE');
    const state = graph.createState();
    graph.update(state, 0.25); // → Idle
    graph.update(state, 0.25); // Idle → Walk starts, 0.25 in
    expect(graph.activeState(state)).toBe('Walk');
    graph.setParameter(state, 'next', true);
    graph.update(state, 0.25);
    expect(graph.activeState(state)).toBe('Walk');
    graph.update(state, 0.25);
    graph.update(state, 0.25); // the transition ends (1 s)
    expect(state.transitioning[0]).toBe(0);
    graph.update(state, 0.25);
    expect(graph.activeState(state)).toBe('Run');
  });

  it('NEXT_STATE: the destination\'s transitions interrupt; the states fading out keep their weights', () => {
    const graph = interruptGraph('NEXT_STATE');
    const state = graph.createState();
    const events = new AnimationEventList();
    graph.update(state, 0.25);
    graph.update(state, 0.25); // Idle → Walk, t = 0.25
    graph.setParameter(state, 'next', true);
    // Transitions are looked for before the crossfade clock moves: at t = 0.25 Walk → Run starts, then 0.25 of its 1 s passes.
    graph.update(state, 0.25, events);
    expect(log(events)).toEqual(['transition-start:Run<Walk', 'state-enter:Run']);
    expect(graph.activeState(state)).toBe('Run');
    const w = (name: string): number => graph.stateWeight(state, graph.stateIndex(0, name));
    // Idle had 1 − 0.25, Walk 0.25 when interrupted: shares ¾ and ¼ of 1 − 0.25.
    expect(w('Run')).toBeCloseTo(0.25, 12);
    expect(w('Idle')).toBeCloseTo(0.5625, 12);
    expect(w('Walk')).toBeCloseTo(0.1875, 12);
    expect(w('Run') + w('Idle') + w('Walk')).toBeCloseTo(1, 12);
    events.clear();
    for (let f = 0; f < 3; f++) graph.update(state, 0.25, events);
    expect(log(events)).toEqual(['state-exit:Idle', 'state-exit:Walk', 'transition-end:Run<Walk']);
    expect(w('Run')).toBe(1);
  });
});

describe('synchronised blend trees', () => {
  it('children run at one normalised phase advancing by 1/Σ wᵢdᵢ per second, through a speed ramp', () => {
    const graph = new AnimationGraph(locomotionGraph(), clips);
    const state = graph.createState();
    const walkLeaf = graph.layout.stateLeafStart[graph.stateIndex(0, 'Locomotion')], runLeaf = walkLeaf + 1;
    graph.setParameter(state, 'speed', 0.5);
    const dt = 1 / 60;
    graph.update(state, dt); // START → Locomotion, which plays this dt
    let expected = dt / 0.8;
    for (let f = 0; f < 240; f++) {
      const speed = f < 120 ? 0.5 : Math.min(1, 0.5 + (f - 120) / 60);
      graph.setParameter(state, 'speed', speed);
      graph.update(state, dt);
      const wRun = speed, d = (1 - wRun) * 1 + wRun * 0.6;
      expected += dt / d;
      const phase = expected - Math.floor(expected);
      expect(state.leafWeights[walkLeaf] + state.leafWeights[runLeaf]).toBeCloseTo(1, 12);
      expect(state.leafWeights[runLeaf]).toBeCloseTo(wRun, 12);
      expect(state.leafTimes[walkLeaf] / 1).toBeCloseTo(phase, 9);
      expect(state.leafTimes[runLeaf] / 0.6).toBeCloseTo(phase, 9);
    }
  });
});

describe('parameters', () => {
  it('by name or index; integers rounded, booleans 0/1; an unknown name throws naming the parameters', () => {
    const graph = new AnimationGraph(locomotionGraph({ parameters: { n: { name: 'n', type: 'INTEGER', value: 2 }, b: { name: 'b', type: 'BOOLEAN', value: true } } }), clips);
    const state = graph.createState();
    expect(graph.getParameter(state, 'n')).toBe(2);
    expect(graph.getParameter(state, 'b')).toBe(1);
    graph.setParameter(state, graph.parameterIndex('n'), 2.7);
    expect(state.parameters[graph.parameterIndex('n')]).toBe(3);
    graph.setParameter(state, 'b', 0);
    expect(graph.getParameter(state, 'b')).toBe(0);
    expect(() => graph.setParameter(state, 'sped', 1)).toThrow(/no parameter "sped" \(parameters: "speed", "n", "b"\)/);
  });

  it('states are independent: one graph, many characters', () => {
    const graph = new AnimationGraph(locomotionGraph(), clips);
    const a = graph.createState(), b = graph.createState();
    graph.setParameter(a, 'speed', 1);
    graph.update(a, 0.5);
    graph.update(a, 0.5);
    graph.update(b, 0.1);
    graph.update(b, 0.1);
    expect(graph.getParameter(b, 'speed')).toBe(0);
    expect(a.progress).not.toEqual(b.progress);
  });
});

describe('blend trees in a graph', () => {
  it('nested trees multiply down; 1D children are sorted by point; weights sum to 1', () => {
    const asset = graphOf({
      parameters: [
        { name: 'speed', type: 'FLOAT', value: 0.5 }, { name: 'a', type: 'FLOAT', value: 1 }, { name: 'b', type: 'FLOAT', value: 3 },
      ],
      layers: [{
        name: 'Base',
        states: [{ name: 'START' }, {
          name: 'Move', blendTree: {
            type: '1D', parameter: 'speed', children: [
              { name: 'Mix', point: 1, type: 'DIRECT', children: [{ name: 'Walk', parameter: 'a' }, { name: 'Run', parameter: 'b' }] },
              { name: 'Idle', point: 0 },
            ],
          },
        }],
        transitions: [{ from: 'START', to: 'Move' }],
      }],
    });
    const graph = new AnimationGraph(asset, clips);
    const state = graph.createState();
    graph.update(state, 0.1);
    const first = graph.layout.stateLeafStart[graph.stateIndex(0, 'Move')];
    const byClip = new Map<string, number>();
    for (let i = first; i < first + 3; i++) byClip.set(graph.layout.leafClips[i].name, state.leafWeights[i]);
    // Idle ½; the DIRECT tree ½ split 1 : 3.
    expect(byClip.get('Idle')).toBeCloseTo(0.5, 12);
    expect(byClip.get('Walk')).toBeCloseTo(0.125, 12);
    expect(byClip.get('Run')).toBeCloseTo(0.375, 12);
  });

  it('a clip the graph names and the clips given lack: RangeError naming it', () => {
    expect(() => new AnimationGraph(locomotionGraph(), [walk])).toThrow(/clip "Run"/);
  });
});
