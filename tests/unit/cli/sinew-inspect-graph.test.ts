import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { main } from '../../../src/cli/main.ts';
import { sinew } from './run-sinew.ts';

const assets = sharedAssets();

/**
 * A graph on Fox.glb's clips (Survey, Walk, Run) with one of each problem inspect warns about: a state no path
 * reaches (Survey), a parameter nothing reads (`mood`), a layer whose only way out of START goes to END
 * (`Ears`), and one with no transition out of START at all (`Tail`, which the reader itself warns about).
 */
const GRAPH = {
  parameters: {
    0: { name: 'speed', type: 'FLOAT', value: 0.5 },
    1: { name: 'jump', type: 'TRIGGER', value: false },
    2: { name: 'mood', type: 'INTEGER', value: 2 },
  },
  layers: [
    {
      name: 'Base',
      states: [
        { name: 'START' },
        { name: 'Locomotion', blendTree: { type: '1D', parameter: 'speed', syncAnimations: true, children: [{ name: 'Walk', point: 0 }, { name: 'Run', point: 1 }] } },
        { name: 'Leap', clip: 'Run', speed: 1.5, loop: false },
        { name: 'Survey' },
      ],
      transitions: [
        { from: 'START', to: 'Locomotion' },
        { from: 'ANY', to: 'Leap', time: 0.1, conditions: [{ parameterName: 'jump', predicate: 'EQUAL_TO', value: true }] },
        { from: 'Leap', to: 'Locomotion', exitTime: 0.9, time: 0.2 },
        { from: 'Survey', to: 'Locomotion' },
      ],
    },
    { name: 'Ears', blendType: 'ADDITIVE', weight: 0.5, states: [{ name: 'Walk' }], transitions: [{ from: 'START', to: 'END' }] },
    { name: 'Tail', states: [{ name: 'Run' }], transitions: [] },
  ],
};

/** Runs the real `sinew` program in this process, standard output and error captured. */
async function sinewInProcess(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string, ...rest: unknown[]) => {
    stdout += chunk;
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write);
  vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write);
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

describe.skipIf(!assets)('sinew inspect --graph', () => {
  const fox = join(assets!, 'gltf', 'Fox.glb');
  let folder: string, graph: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'sinew-inspect-graph-'));
    graph = join(folder, 'fox-graph.json');
    writeFileSync(graph, JSON.stringify(GRAPH));
  });
  afterEach(() => vi.restoreAllMocks());

  it('--json: layers, states with their clips and trees, parameters, transitions, and the warnings', async () => {
    const { code, stdout, stderr } = await sinewInProcess('inspect', fox, '--graph', graph, '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.file).toBe('fox-graph.json');
    expect(report.model).toBe('Fox.glb');
    expect(report.parameters).toEqual([
      { name: 'speed', type: 'FLOAT', value: 0.5, read: true },
      { name: 'jump', type: 'TRIGGER', value: false, read: true },
      { name: 'mood', type: 'INTEGER', value: 2, read: false },
    ]);
    expect(report.layers.map((l: any) => [l.name, l.blendType, l.weight, l.leavesStart, l.transitionCount])).toEqual([
      ['Base', 'OVERWRITE', 1, true, 4], ['Ears', 'ADDITIVE', 0.5, false, 1], ['Tail', 'OVERWRITE', 1, false, 0],
    ]);
    expect(report.layers[0].states).toEqual([
      {
        name: 'Locomotion', speed: 1, loop: true, reachable: true, clip: null,
        tree: {
          type: '1D', parameters: ['speed'], syncAnimations: true, children: [
            { name: 'Walk', point: [0], parameter: null, clip: 'Walk', tree: null }, { name: 'Run', point: [1], parameter: null, clip: 'Run', tree: null },
          ],
        },
      },
      { name: 'Leap', speed: 1.5, loop: false, reachable: true, clip: 'Run', tree: null }, // reached from ANY
      { name: 'Survey', speed: 1, loop: true, reachable: false, clip: 'Survey', tree: null },
    ]);
    expect(report.warnings).toEqual([
      `${graph}: no transition from START or ANY leads to a state that plays something in layer "Ears", "Tail": the layer plays nothing`, // the reader's
      `${graph}: layer "Base": no path of transitions from START reaches "Survey"`,
      `${graph}: no condition or blend tree reads parameter "mood"`,
    ]);
  });

  it('prints the same as text: a summary line, the parameters, each layer\'s states, the warnings', async () => {
    const { code, stdout } = await sinewInProcess('inspect', fox, '--graph', graph);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^fox-graph\.json on Fox\.glb: 3 layers, 3 parameters\n/);
    expect(stdout).toMatch(/^2 +mood +INTEGER +2 +no$/m);
    expect(stdout).toContain('layer 0 "Base" (OVERWRITE, weight 1): 3 states, 4 transitions\n');
    expect(stdout).toMatch(/^Locomotion +1D\(speed\) \[Walk@0, Run@1\] sync +1 +yes +yes$/m);
    expect(stdout).toMatch(/^Leap +Run +1\.5 +no +yes$/m);
    expect(stdout).toMatch(/^Survey +Survey +1 +yes +no$/m);
    expect(stdout).toContain('layer 1 "Ears" (ADDITIVE, weight 0.5): 1 state, 1 transition, never leaves START\n');
    expect(stdout).toMatch(/warnings \(3\)\n- .*"Ears", "Tail"/);
    expect(stdout.endsWith('\n')).toBe(true);
  });

  it('refuses a graph naming an unknown clip or parameter, or a transition to a missing state: the LoadError with its pointer, exit 1', async () => {
    const base = GRAPH.layers[0];
    const cases: [unknown, RegExp][] = [
      [{ ...GRAPH, layers: [{ ...base, states: [...base.states, { name: 'Gallop' }] }] }, /\/layers\/0\/states\/4\/name .*"Gallop"/],
      [{ ...GRAPH, layers: [{ ...base, transitions: [{ from: 'START', to: 'Locomotion', conditions: [{ parameterName: 'spead', predicate: 'GREATER_THAN', value: 0 }] }] }] },
        /\/layers\/0\/transitions\/0\/conditions\/0\/parameterName/],
      [{ ...GRAPH, layers: [{ ...base, transitions: [{ from: 'Locomotion', to: 'Trot' }] }] }, /\/layers\/0\/transitions\/0\/to/],
    ];
    for (const [json, message] of cases) {
      const file = join(folder, 'bad.json');
      writeFileSync(file, JSON.stringify(json));
      const { code, stdout, stderr } = await sinewInProcess('inspect', fox, '--graph', file);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(new RegExp(`^sinew: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ${message.source}`));
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('the real command (bin/sinew.mjs): a graph of no problems has no warnings; a missing graph file exits 1', async () => {
    const clean = join(folder, 'clean.json');
    writeFileSync(clean, JSON.stringify({ ...GRAPH, parameters: { 0: GRAPH.parameters[0], 1: GRAPH.parameters[1] }, layers: [{ ...GRAPH.layers[0], transitions: GRAPH.layers[0].transitions.slice(0, 3), states: GRAPH.layers[0].states.slice(0, 3) }] }));
    const result = await sinew('inspect', fox, '--graph', clean, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).warnings).toEqual([]);
    const missing = await sinew('inspect', fox, '--graph', join(folder, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.json: no such file\n$/);
  });
});
