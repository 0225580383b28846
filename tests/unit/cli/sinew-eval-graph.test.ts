import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { positionsDiagonal as diagonal } from '../helpers/positions-diagonal.ts';
import { main } from '../../../src/cli/main.ts';
import { graphSteps, parseParameterInput, resolveGraphParameters } from '../../../src/cli/evaluate-graph.ts';
import { readAnimationGraph } from '../../../src/loaders/animation-graph/read-animation-graph.ts';
import { evaluateBlendWithThree } from './three-oracle.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();

// Fox.glb's clips: 0 Survey, 1 Walk, 2 Run.
const WALK = 1, RUN = 2;

/** The graph: one state, a synchronised 1D tree of Walk (point 0) and Run (point 1) on `speed`. */
const LOCOMOTION = {
  parameters: { 0: { name: 'speed', type: 'FLOAT', value: 0 } },
  layers: [{
    name: 'Base',
    states: [
      { name: 'START' },
      { name: 'Locomotion', blendTree: { type: '1D', parameter: 'speed', syncAnimations: true, children: [{ name: 'Walk', point: 0 }, { name: 'Run', point: 1 }] } },
    ],
    transitions: [{ from: 'START', to: 'Locomotion' }],
  }],
};

const frac = (x: number) => x - Math.floor(x);

/**
 * Runs the real `sinew` program in this process (createProgram's parser and commands, as bin/sinew.mjs runs the
 * bundle of the same code), the JSON written to a file: one process for many evaluations.
 */
async function sinewInProcess(...args: string[]): Promise<{ code: number; doc: any; stderr: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'sinew-graph-')), 'eval.json');
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main([...args, '--out', out]);
    return { code, doc: code === 0 ? JSON.parse(readFileSync(out, 'utf8')) : null, stderr };
  } finally {
    spy.mockRestore();
  }
}

/** The largest coordinate difference between two documents' positions, primitive by primitive. */
function maxDifference(a: any, b: any): number {
  expect(a.primitives.length).toBe(b.primitives.length);
  let max = 0;
  a.primitives.forEach((p: any, i: number) => {
    expect(p.positions.length).toBe(b.primitives[i].positions.length);
    for (let k = 0; k < p.positions.length; k++) max = Math.max(max, Math.abs(p.positions[k] - b.primitives[i].positions[k]));
  });
  return max;
}

describe('graphSteps', () => {
  it('runs ⌈T·60⌉ updates whose last one ends at T exactly, one of 0 s at T = 0', () => {
    for (const [t, count] of [[2.37, 143], [1, 60], [0.5, 30], [1 / 60, 1], [0.001, 1], [0, 1], [3.05, 183]] as const) {
      const steps = graphSteps(t);
      expect(steps.count, `T = ${t}`).toBe(count);
      let total = 0;
      for (let k = 1; k <= steps.count; k++) total += k < steps.count ? 1 / 60 : steps.last;
      expect(total).toBeCloseTo(t, 12);
      expect(steps.last).toBeGreaterThanOrEqual(0);
      expect(steps.last).toBeLessThanOrEqual(1 / 60 + 1e-12);
    }
    expect(() => graphSteps(-1)).toThrow(/0 or more seconds/);
    expect(() => graphSteps(1e9)).toThrow(/at most 1000000/);
  });
});

describe('--param', () => {
  const graph = readAnimationGraph({
    parameters: [{ name: 'speed', type: 'FLOAT' }, { name: 'lane', type: 'INTEGER' }, { name: 'grounded', type: 'BOOLEAN' }, { name: 'jump', type: 'TRIGGER' }],
    layers: [],
  }).graph;

  it('reads NAME=VALUE (repeatable) and refuses other text as a usage error', () => {
    expect(parseParameterInput(' speed = -1.5 ', parseParameterInput('jump=true'))).toEqual([{ name: 'jump', value: 'true' }, { name: 'speed', value: '-1.5' }]);
    for (const bad of ['speed', '=1', 'speed=', ' = ']) expect(() => parseParameterInput(bad), bad).toThrow(/It must be NAME=VALUE/);
  });

  it('reads each value by its parameter\'s type: FLOAT a number, INTEGER a whole one, BOOLEAN and TRIGGER true or false', () => {
    const inputs = ['speed=-1.5', 'lane=3', 'grounded=false', 'jump=true', 'speed=2e-1'].flatMap((t) => parseParameterInput(t));
    expect(resolveGraphParameters(graph, inputs, 'g.json')).toEqual([[0, -1.5], [1, 3], [2, 0], [3, 1], [0, 0.2]]);
    const list = '(its parameters: speed (FLOAT), lane (INTEGER), grounded (BOOLEAN), jump (TRIGGER))';
    const cases: [string, string][] = [
      ['lane=1.5', 'g.json: --param lane=1.5: lane is an INTEGER, give a whole number'],
      ['grounded=1', 'g.json: --param grounded=1: grounded is a BOOLEAN, give true or false'],
      ['jump=yes', 'g.json: --param jump=yes: jump is a TRIGGER, give true or false'],
      ['speed=Infinity', 'g.json: --param speed=Infinity: speed is a FLOAT, give a number'],
      ['Speed=1', 'g.json: --param Speed=1: the graph has no parameter "Speed"'],
    ];
    for (const [text, message] of cases) expect(() => resolveGraphParameters(graph, parseParameterInput(text), 'g.json')).toThrow(`${message} ${list}`);
  });
});

describe.skipIf(!assets)('sinew eval --graph', () => {
  const fox = join(assets!, 'gltf', 'Fox.glb');
  let folder: string, graph: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'sinew-graph-files-'));
    graph = join(folder, 'locomotion.json');
    writeFileSync(graph, JSON.stringify(LOCOMOTION));
  });
  afterEach(() => vi.restoreAllMocks());

  // T chosen to be a multiple of nothing in sight (frames, clip durations, the blend's cycle).
  for (const T of [2.37, 0.913]) {
    it(`Walk and Run synchronised at speed 0.5, T = ${T} s: within 1e-4 of the diagonal of three.js's AnimationMixer at the phase frac(T / (d_walk/2 + d_run/2))`, async () => {
      const { code, doc, stderr } = await sinewInProcess('eval', fox, '--graph', graph, '--param', 'speed=0.5', '--time', String(T));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      let phase = NaN, times: number[] = [];
      const expected = await evaluateBlendWithThree(fox, ([, dWalk, dRun]) => {
        phase = frac(T / (0.5 * dWalk + 0.5 * dRun));
        times = [phase * dWalk, phase * dRun];
        return [{ clip: WALK, time: times[0], weight: 0.5 }, { clip: RUN, time: times[1], weight: 0.5 }];
      });
      expect(doc).toMatchObject({ clip: null, time: T, duration: null });
      expect(doc.graph).toMatchObject({ file: 'locomotion.json', hz: 60, steps: Math.ceil(T * 60), parameters: { speed: 0.5 } });
      const [layer] = doc.graph.layers;
      expect(layer).toMatchObject({ name: 'Base', state: 'Locomotion', transition: null });
      expect(layer.clips.map((c: any) => [c.clip, c.weight])).toEqual([['Walk', 0.5], ['Run', 0.5]]);
      // The report's clip times are that phase of each clip (three's durations, float32 key times, as Sinew's).
      expect(layer.clips[0].time).toBeCloseTo(times[0], 9);
      expect(layer.clips[1].time).toBeCloseTo(times[1], 9);
      expect(doc.primitives.length).toBe(expected.size);
      for (const entry of doc.primitives) {
        const reference = expected.get(`${entry.node}/${entry.primitive}`)!;
        expect(reference).toBeDefined();
        let maxError = 0;
        for (let i = 0; i < reference.length; i++) maxError = Math.max(maxError, Math.abs(entry.positions[i] - reference[i]));
        expect(maxError, `phase ${phase}`).toBeLessThan(1e-4 * diagonal(reference));
      }
    });
  }

  it('the oracle can fail: three.js at another phase, or Walk alone, is far from the blend', async () => {
    const T = 2.37;
    const { doc } = await sinewInProcess('eval', fox, '--graph', graph, '--param', 'speed=0.5', '--time', String(T));
    // Unsynchronised clocks (each clip at T modulo its own duration) put the feet elsewhere.
    const unsynced = await evaluateBlendWithThree(fox, ([, dWalk, dRun]) => [
      { clip: WALK, time: frac(T / dWalk) * dWalk, weight: 0.5 }, { clip: RUN, time: frac(T / dRun) * dRun, weight: 0.5 },
    ]);
    const entry = doc.primitives[0], reference = unsynced.get(`${entry.node}/${entry.primitive}`)!;
    let maxError = 0;
    for (let i = 0; i < reference.length; i++) maxError = Math.max(maxError, Math.abs(entry.positions[i] - reference[i]));
    expect(maxError).toBeGreaterThan(1e-2 * diagonal(reference));
  });

  for (const [speed, clip, index] of [['0', 'Walk', WALK], ['1', 'Run', RUN]] as const) {
    it(`at speed ${speed} equals sinew eval --clip ${clip} --time frac(T/d)·d`, async () => {
      const T = 2.37;
      const byGraph = await sinewInProcess('eval', fox, '--graph', graph, '--param', `speed=${speed}`, '--time', String(T));
      const duration = (await sinewInProcess('eval', fox, '--clip', clip)).doc.duration;
      const byClip = await sinewInProcess('eval', fox, '--clip', String(index), '--time', String(frac(T / duration) * duration));
      expect(byGraph.code).toBe(0);
      expect(byGraph.doc.graph.layers[0].clips.find((c: any) => c.clip === clip).weight).toBe(1);
      expect(byGraph.doc.graph.layers[0].clips.find((c: any) => c.clip === clip).time).toBeCloseTo(byClip.doc.time, 9);
      const diag = diagonal(Float32Array.from(byClip.doc.primitives[0].positions));
      expect(maxDifference(byGraph.doc, byClip.doc)).toBeLessThan(1e-6 * diag);
    });
  }

  it('--anim: states name the clips of another file, retargeted onto the model, as --clip would', async () => {
    const cesium = join(assets!, 'gltf', 'CesiumMan.glb');
    const file = join(folder, 'cesium.json');
    writeFileSync(file, JSON.stringify({ layers: [{ name: 'Base', states: [{ name: 'Walking', clip: 'animation 0' }], transitions: [{ from: 'START', to: 'Walking' }] }] }));
    const T = 3.31;
    const byGraph = await sinewInProcess('eval', cesium, '--anim', cesium, '--graph', file, '--time', String(T));
    expect(byGraph.code).toBe(0);
    const [clip] = byGraph.doc.graph.layers[0].clips;
    expect(clip).toMatchObject({ state: 'Walking', clip: 'animation 0', weight: 1 });
    const duration = (await sinewInProcess('eval', cesium, '--anim', cesium, '--clip', 'animation 0')).doc.duration;
    expect(clip.time).toBeCloseTo(frac(T / duration) * duration, 9);
    const byClip = await sinewInProcess('eval', cesium, '--anim', cesium, '--clip', 'animation 0', '--time', String(clip.time));
    expect(maxDifference(byGraph.doc, byClip.doc)).toBeLessThan(1e-6 * diagonal(Float32Array.from(byClip.doc.primitives[0].positions)));
  });

  it('T = 0 leaves START (one update of 0 s): both clips at their first frame', async () => {
    const { code, doc } = await sinewInProcess('eval', fox, '--graph', graph, '--param', 'speed=0.25');
    expect(code).toBe(0);
    expect(doc.graph.steps).toBe(1);
    expect(doc.graph.layers[0].clips).toEqual([
      { state: 'Locomotion', clip: 'Walk', weight: 0.75, time: 0 }, { state: 'Locomotion', clip: 'Run', weight: 0.25, time: 0 },
    ]);
  });

  it('reports a transition under way, and a trigger consumed by it', async () => {
    const file = join(folder, 'jump.json');
    writeFileSync(file, JSON.stringify({
      parameters: [{ name: 'jump', type: 'TRIGGER' }, { name: 'speed', type: 'FLOAT' }],
      layers: [{
        name: 'Base',
        states: [{ name: 'Walk' }, { name: 'Survey', loop: false }],
        transitions: [
          { from: 'START', to: 'Walk' },
          { from: 'Walk', to: 'Survey', time: 0.5, conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
        ],
      }],
    }));
    // Update 1 enters Walk; update 2 (the trigger still set) starts Walk → Survey, whose clock then runs 0.2 − 1/60 s.
    const { code, doc } = await sinewInProcess('eval', fox, '--graph', file, '--param', 'jump=true', '--time', '0.2');
    expect(code).toBe(0);
    const [layer] = doc.graph.layers;
    expect(doc.graph.parameters).toEqual({ jump: false, speed: 0 });
    expect(layer.state).toBe('Survey');
    expect(layer.transition.from).toBe('Walk');
    expect(layer.transition.progress).toBeCloseTo((0.2 - 1 / 60) / 0.5, 9);
    expect(layer.clips.map((c: any) => c.clip)).toEqual(['Survey', 'Walk']);
    expect(layer.clips[0].weight + layer.clips[1].weight).toBeCloseTo(1, 12);
  });

  it('refuses an unknown parameter or a value its type does not take: exit 1, naming it and the graph\'s parameters', async () => {
    const cases: [string, RegExp][] = [
      ['sped=1', /--param sped=1: the graph has no parameter "sped" \(its parameters: speed \(FLOAT\)\)/],
      ['speed=fast', /--param speed=fast: speed is a FLOAT, give a number \(its parameters: speed \(FLOAT\)\)/],
      ['speed=true', /speed is a FLOAT, give a number/],
    ];
    for (const [param, message] of cases) {
      const { code, stderr } = await sinewInProcess('eval', fox, '--graph', graph, '--param', param, '--time', '1');
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
      expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  it('refuses a bad graph with the LoadError\'s file and JSON pointer, exit 1', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...LOCOMOTION, layers: [{ ...LOCOMOTION.layers[0], states: [{ name: 'START' }, { name: 'Trot' }] }] },
        /bad\.json: \/layers\/0\/states\/1\/name .*"Trot"/],
      [{ ...LOCOMOTION, layers: [{ ...LOCOMOTION.layers[0], transitions: [{ from: 'START', to: 'Gallop' }] }] }, /bad\.json: \/layers\/0\/transitions\/0\/to/],
      [{ ...LOCOMOTION, layers: [{ ...LOCOMOTION.layers[0], mask: { NoSuchJoint: 1 } }] }, /bad\.json: \/layers\/0\/mask\/NoSuchJoint .*skeleton/],
    ];
    for (const [json, message] of cases) {
      const file = join(folder, 'bad.json');
      writeFileSync(file, JSON.stringify(json));
      const { code, stderr } = await sinewInProcess('eval', fox, '--graph', file, '--time', '1');
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
    }
    writeFileSync(join(folder, 'broken.json'), '{ "layers": [');
    const broken = await sinewInProcess('eval', fox, '--graph', join(folder, 'broken.json'));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken\.json: is not JSON/);
  });

  it('the real command (bin/sinew.mjs): usage errors exit 2 with one line; --param without --graph, --clip with --graph, a negative time', async () => {
    const conflict = await sinew('eval', fox, '--graph', graph, '--clip', 'Walk');
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(/^sinew: option '--graph <file>' cannot be used with option '--clip <name\|index>'\n/);
    const orphan = await sinew('eval', fox, '--param', 'speed=1');
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toMatch(/^sinew: --param needs --graph/);
    const negative = await sinew('eval', fox, '--graph', graph, '--time', '-1');
    expect(negative.code).toBe(2);
    expect(negative.stderr).toMatch(/with --graph the time must be 0 or more seconds/);
    const malformed = await sinew('eval', fox, '--graph', graph, '--param', 'speed');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/It must be NAME=VALUE/);
    const ok = await sinew('eval', fox, '--graph', graph, '--param', 'speed=0.5', '--time', '0.5');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).graph.layers[0].state).toBe('Locomotion');
  });
});
