import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../../src/loaders/load-error.ts';
import { readAnimationGraph } from '../../../../src/loaders/animation-graph/read-animation-graph.ts';

// Bad graphs are refused by one LoadError naming the file and the JSON pointer; a layer that cannot leave START
// gives one warning. A PlayCanvas-shaped graph reads as it is, with PlayCanvas's defaults.

const good = {
  parameters: {
    0: { name: 'speed', type: 'FLOAT', value: 0 },
    1: { name: 'jump', type: 'TRIGGER', value: false },
  },
  layers: [{
    name: 'Base',
    states: [
      { name: 'START' },
      { name: 'Locomotion', speed: 1, loop: true, blendTree: { type: '1D', parameter: 'speed', children: [{ name: 'Walk', point: 0 }, { name: 'Run', point: 1 }] } },
      { name: 'Jump', speed: 1, loop: false },
      { name: 'END' },
    ],
    transitions: [
      { from: 0, to: 1 },
      { from: 'Locomotion', to: 'Jump', time: 0.2, conditions: { 0: { parameterName: 'jump', predicate: 'EQUAL_TO', value: true }, 1: { parameterName: '' } } },
      { from: 'Jump', to: 'END', exitTime: 1, time: 0.2 },
    ],
  }],
};

function error(json: unknown, clipNames?: string[]): LoadError {
  try {
    readAnimationGraph(typeof json === 'string' ? json : JSON.stringify(json), { file: 'graph.json', clipNames });
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    return e as LoadError;
  }
  throw new Error('no error');
}

/** `good` with `edit` applied to a deep copy. */
function edited(edit: (g: any) => void): unknown {
  const copy = JSON.parse(JSON.stringify(good));
  edit(copy);
  return copy;
}

describe('readAnimationGraph', () => {
  it('reads a PlayCanvas-shaped graph with PlayCanvas\'s defaults; indices and keyed conditions as PlayCanvas writes them', () => {
    const { graph, warnings } = readAnimationGraph(JSON.stringify(good), { clipNames: ['Walk', 'Run', 'Jump'] });
    expect(warnings).toEqual([]);
    expect(graph.parameters).toEqual([{ name: 'speed', type: 'FLOAT', value: 0 }, { name: 'jump', type: 'TRIGGER', value: 0 }]);
    const layer = graph.layers[0];
    expect(layer).toMatchObject({ name: 'Base', blendType: 'OVERWRITE', weight: 1, mask: null });
    expect(layer.transitions[0]).toEqual({ from: 'START', to: 'Locomotion', time: 0, priority: 0, conditions: [], exitTime: null, transitionOffset: null, interruptionSource: 'NONE' });
    expect(layer.transitions[1].conditions).toEqual([{ parameterName: 'jump', predicate: 'EQUAL_TO', value: 1 }]);
    expect(layer.states[1].blendTree).toMatchObject({ type: '1D', parameters: ['speed'], syncAnimations: true });
    expect(layer.states[2]).toMatchObject({ clip: 'Jump', loop: false });
  });

  it('does not parse: ANIMATION_GRAPH_INVALID_JSON, no place', () => {
    const e = error('{"layers": [');
    expect(e.code).toBe('ANIMATION_GRAPH_INVALID_JSON');
    expect(e.where).toBeNull();
    expect(e.message).toMatch(/^graph\.json: is not JSON/);
    expect(error({ states: [] }).code).toBe('ANIMATION_GRAPH_INVALID_JSON');
  });

  it('an unknown clip, with clip names: ANIMATION_GRAPH_UNKNOWN_CLIP at the name that gives it', () => {
    const e = error(good, ['Walk', 'Jump']);
    expect(e.code).toBe('ANIMATION_GRAPH_UNKNOWN_CLIP');
    expect(e.where).toBe('/layers/0/states/1/blendTree/children/1/name');
    expect(e.message).toContain('"Run"');
    const clip = error(edited((g) => { g.layers[0].states[2].clip = 'Jumpp'; }), ['Walk', 'Run', 'Jump']);
    expect(clip.where).toBe('/layers/0/states/2/clip');
    expect(clip.message).toContain('did you mean "Jump"?');
  });

  it('an unknown parameter: ANIMATION_GRAPH_UNKNOWN_PARAMETER in a condition and in a blend tree', () => {
    const condition = error(edited((g) => { g.layers[0].transitions[1].conditions[0].parameterName = 'jumpp'; }));
    expect(condition.code).toBe('ANIMATION_GRAPH_UNKNOWN_PARAMETER');
    expect(condition.where).toBe('/layers/0/transitions/1/conditions/0/parameterName');
    const tree = error(edited((g) => { g.layers[0].states[1].blendTree.parameter = 'velocity'; }));
    expect(tree.code).toBe('ANIMATION_GRAPH_UNKNOWN_PARAMETER');
    expect(tree.where).toBe('/layers/0/states/1/blendTree/parameter');
    expect(tree.message).toBe('graph.json: /layers/0/states/1/blendTree/parameter names parameter "velocity", which the graph does not define');
  });

  it('a transition to a missing state: ANIMATION_GRAPH_UNKNOWN_STATE', () => {
    const e = error(edited((g) => { g.layers[0].transitions[1].to = 'Fly'; }));
    expect(e.code).toBe('ANIMATION_GRAPH_UNKNOWN_STATE');
    expect(e.where).toBe('/layers/0/transitions/1/to');
    expect(error(edited((g) => { g.layers[0].transitions[0].from = 9; })).where).toBe('/layers/0/transitions/0/from');
  });

  it('wrong values: ANIMATION_GRAPH_INVALID_VALUE at the value', () => {
    const cases: [(g: any) => void, string][] = [
      [(g) => { g.parameters[0].type = 'DOUBLE'; }, '/parameters/0/type'],
      [(g) => { g.layers[0].transitions[1].conditions[0].predicate = 'GT'; }, '/layers/0/transitions/1/conditions/0/predicate'],
      [(g) => { g.layers[0].states[1].blendTree.children[0].point = 'x'; }, '/layers/0/states/1/blendTree/children/0/point'],
      [(g) => { g.layers[0].states[2].name = 'Locomotion'; }, '/layers/0/states/2/name'],
      [(g) => { g.layers[0].weight = 2; }, '/layers/0/weight'],
      [(g) => { g.layers[0].transitions[2].interruptionSource = 'ANY'; }, '/layers/0/transitions/2/interruptionSource'],
      [(g) => { g.layers[0].states[1].blendTree = { type: '2D_CARTESIAN', parameters: ['speed', 'speed'], children: [{ name: 'Walk', point: [0, 0] }, { name: 'Run', point: [0, 0] }] }; }, '/layers/0/states/1/blendTree/children/1/point'],
    ];
    for (const [edit, where] of cases) {
      const e = error(edited(edit));
      expect(e.code, where).toBe('ANIMATION_GRAPH_INVALID_VALUE');
      expect(e.where).toBe(where);
    }
  });

  it('a layer with no transition out of START: one warning naming the layers', () => {
    const { warnings } = readAnimationGraph(edited((g) => {
      g.layers[0].transitions.shift();
      g.layers.push({ name: 'Upper', states: [{ name: 'START' }], transitions: [] });
    }), { file: 'graph.json' });
    expect(warnings).toEqual(['graph.json: no transition from START or ANY leads to a state that plays something in layer "Base", "Upper": the layer plays nothing']);
  });

  it('a layer left only through ANY is not stuck (the runtime scans ANY from START); one whose only way out is END is', () => {
    const viaAny = readAnimationGraph(edited((g) => {
      g.layers[0].transitions = g.layers[0].transitions.filter((t: { from: string }) => t.from !== 'START');
      g.layers[0].transitions.push({ from: 'ANY', to: 'Locomotion', conditions: [] });
    }), { file: 'graph.json' });
    expect(viaAny.warnings).toEqual([]);
    const toEnd = readAnimationGraph(edited((g) => {
      g.layers[0].transitions = [{ from: 'START', to: 'END' }];
    }), { file: 'graph.json' });
    expect(toEnd.warnings).toEqual(['graph.json: no transition from START or ANY leads to a state that plays something in layer "Base": the layer plays nothing']);
  });
});
