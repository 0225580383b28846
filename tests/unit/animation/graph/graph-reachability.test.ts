import { describe, expect, it } from 'vitest';
import { analyzeGraphReachability } from '../../../../src/animation/graph/graph-reachability.ts';
import { graphOf } from './graph-fixtures.ts';

/** A one-layer graph of clip states named as given, with `transitions` ([from, to] or full objects). */
function layerOf(states: string[], transitions: unknown[], parameters: Record<string, unknown> = {}) {
  return graphOf({
    parameters,
    layers: [{
      name: 'Base',
      states: [{ name: 'START' }, ...states.map((name) => ({ name })), { name: 'END' }, { name: 'ANY' }],
      transitions: transitions.map((t) => (Array.isArray(t) ? { from: t[0], to: t[1] } : t)),
    }],
  });
}

describe('analyzeGraphReachability', () => {
  it('follows transitions from START, a chain included, and lists the states no path reaches', () => {
    const asset = layerOf(['Idle', 'Walk', 'Run', 'Orphan', 'Island'], [['START', 'Idle'], ['Idle', 'Walk'], ['Walk', 'Run'], ['Orphan', 'Idle'], ['Island', 'Island']]);
    const [layer] = analyzeGraphReachability(asset).layers;
    expect(layer).toEqual({ layer: 'Base', reachable: ['Idle', 'Walk', 'Run'], unreachable: ['Orphan', 'Island'], leavesStart: true });
  });

  it('counts a transition from ANY as one from every state, START included', () => {
    const asset = layerOf(['Idle', 'Jump', 'Land'], [['ANY', 'Jump'], ['Jump', 'Land']]);
    const [layer] = analyzeGraphReachability(asset).layers;
    expect(layer.reachable).toEqual(['Jump', 'Land']);
    expect(layer.unreachable).toEqual(['Idle']);
    expect(layer.leavesStart).toBe(true); // the runtime scans ANY's transitions while in START
  });

  it('sends a transition to END where START\'s first transition (by priority) goes', () => {
    const asset = layerOf(['A', 'B', 'C'], [
      { from: 'START', to: 'A', priority: 2 }, { from: 'START', to: 'B', priority: 1 }, { from: 'B', to: 'END' }, { from: 'A', to: 'C' },
    ]);
    // START → B (priority 1 first) and START → A are both edges; B → END → B. A reaches C.
    expect(analyzeGraphReachability(asset).layers[0].unreachable).toEqual([]);
    const only = layerOf(['A', 'B'], [['START', 'A'], ['A', 'END'], ['END', 'B']]);
    // END is never active (a transition to it goes to A), so END's own transitions reach nothing.
    expect(analyzeGraphReachability(only).layers[0]).toMatchObject({ reachable: ['A'], unreachable: ['B'] });
  });

  it('a layer with no transition out of START or ANY does not leave START, and reaches nothing', () => {
    const asset = layerOf(['Idle', 'Walk'], [['Idle', 'Walk'], ['Walk', 'Idle']]);
    expect(analyzeGraphReachability(asset).layers[0]).toEqual({ layer: 'Base', reachable: [], unreachable: ['Idle', 'Walk'], leavesStart: false });
    // A way out that only goes back to START or to END (with nothing after START) plays nothing either.
    const loop = layerOf(['Idle'], [['START', 'END']]);
    expect(analyzeGraphReachability(loop).layers[0].leavesStart).toBe(false);
  });

  it('finds the parameters no condition and no blend tree reads, nested and DIRECT trees included', () => {
    const asset = graphOf({
      parameters: [
        { name: 'speed', type: 'FLOAT' }, { name: 'x', type: 'FLOAT' }, { name: 'y', type: 'FLOAT' }, { name: 'lean', type: 'FLOAT' },
        { name: 'jump', type: 'TRIGGER' }, { name: 'unused', type: 'BOOLEAN' }, { name: 'alsoUnused', type: 'INTEGER' },
      ],
      layers: [{
        name: 'Base',
        states: [{ name: 'START' }, {
          name: 'Move',
          blendTree: {
            type: '1D', parameter: 'speed', children: [
              { name: 'Walk', point: 0 },
              { name: 'Strafe', point: 1, type: '2D_CARTESIAN', parameters: ['x', 'y'], children: [{ name: 'L', point: [-1, 0] }, { name: 'R', point: [1, 0] }] },
              { name: 'Mix', point: 2, type: 'DIRECT', children: [{ name: 'Lean', parameter: 'lean' }] },
            ],
          },
        }, { name: 'Jump' }],
        transitions: [{ from: 'START', to: 'Move' }, { from: 'ANY', to: 'Jump', conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] }],
      }],
    });
    expect(analyzeGraphReachability(asset).unusedParameters).toEqual(['unused', 'alsoUnused']);
  });

  it('analyses each layer apart', () => {
    const asset = graphOf({
      layers: [
        { name: 'Base', states: [{ name: 'Idle' }], transitions: [{ from: 'START', to: 'Idle' }] },
        { name: 'Upper', states: [{ name: 'Wave' }, { name: 'Point' }], transitions: [{ from: 'Wave', to: 'Point' }] },
      ],
    });
    expect(analyzeGraphReachability(asset).layers.map((l) => [l.layer, l.leavesStart, l.unreachable])).toEqual([
      ['Base', true, []],
      ['Upper', false, ['Wave', 'Point']],
    ]);
  });
});
