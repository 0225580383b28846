import { basename } from 'node:path';
import { ANY_STATE, END_STATE, START_STATE, type GraphBlendTree, type GraphBlendTreeType } from '../animation/graph/animation-graph-asset.ts';
import { analyzeGraphReachability } from '../animation/graph/graph-reachability.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../node/load-model-from-path.ts';
import { escapeControl } from './escape-control.ts';
import { readGraphForModel } from './evaluate-graph.ts';
import { loadCommandModel } from './load-command-model.ts';
import { formatTable, type TextColumn } from './text-table.ts';

/** The document `sinew inspect MODEL --graph FILE --json` prints (docs/guide/cli.md, "Animation graphs"). */
export interface GraphInspection {
  /** The graph's file name, without folders. */
  file: string;
  /** The model's file name, without folders. */
  model: string;
  /** In the graph's order. */
  parameters: GraphParameterInspection[];
  /** Bottom first. */
  layers: GraphLayerInspection[];
  /** The reader's warnings, then the reachability's ({@link inspectGraphFile}); each starts with the graph's path. */
  warnings: string[];
}

/** One parameter of {@link GraphInspection}. */
export interface GraphParameterInspection {
  name: string;
  type: 'FLOAT' | 'INTEGER' | 'BOOLEAN' | 'TRIGGER';
  /** Its default: a number (FLOAT, INTEGER) or a boolean (BOOLEAN, TRIGGER). */
  value: number | boolean;
  /** Whether a transition condition or a blend tree reads it. */
  read: boolean;
}

/** One layer of {@link GraphInspection}. */
export interface GraphLayerInspection {
  name: string;
  blendType: 'OVERWRITE' | 'ADDITIVE';
  /** In [0, 1]. */
  weight: number;
  /** Joints its mask names (0 without a mask: every joint at 1). */
  maskJoints: number;
  /** Whether a transition from `START` or `ANY` leads to a state that plays something. */
  leavesStart: boolean;
  /** Its transitions, `START`'s and `ANY`'s included. */
  transitionCount: number;
  /** The states that play something, in file order (`START`, `END`, `ANY` left out). */
  states: GraphStateInspection[];
}

/** One state of a {@link GraphLayerInspection}: a clip state or a blend-tree state. */
export interface GraphStateInspection {
  name: string;
  speed: number;
  loop: boolean;
  /** Whether some path of transitions from `START` leads to it (`analyzeGraphReachability`). */
  reachable: boolean;
  /** The clip a clip state plays; null for a blend-tree state. */
  clip: string | null;
  /** A blend-tree state's tree; null for a clip state. */
  tree: GraphTreeInspection | null;
}

/** A blend tree of a {@link GraphStateInspection} (nested trees have the same shape). */
export interface GraphTreeInspection {
  type: GraphBlendTreeType;
  /** The parameters its weights read: 1D one, 2D two (x, y), DIRECT none (each child names its own). */
  parameters: string[];
  syncAnimations: boolean;
  children: {
    name: string;
    /** `[x]` (1D), `[x, y]` (2D), `[]` (DIRECT). */
    point: number[];
    /** DIRECT trees: the parameter giving its weight; else null. */
    parameter: string | null;
    /** The clip it plays, or null for a nested tree. */
    clip: string | null;
    tree: GraphTreeInspection | null;
  }[];
}

/**
 * Node only: `sinew inspect MODEL --graph FILE`. Loads the model (and `--anim`'s clips, which then are the clips
 * the graph may name) and reads the graph against it (`readGraphForModel`: an unknown clip, parameter, state or
 * mask joint, an `ADDITIVE` first layer, JSON that does not parse — one LoadError with the JSON pointer), then
 * reports its structure with warnings for what runs but cannot matter (`analyzeGraphReachability`): states no path
 * of transitions from `START` reaches (per layer, one line) and parameters nothing reads (one line); a layer that
 * never leaves `START` is the reader's warning.
 * @throws as loadCommandModel and readGraphForModel
 */
export async function inspectGraphFile(modelPath: string, graphPath: string, options: { anim?: string; maxMemoryBytes?: number } = {}): Promise<GraphInspection> {
  const asset = await loadCommandModel(modelPath, { anim: options.anim, maxMemoryBytes: options.maxMemoryBytes });
  const { graph, warnings } = await readGraphForModel(graphPath, asset, options.maxMemoryBytes ?? DEFAULT_MAX_FILE_BYTES);
  const analysis = analyzeGraphReachability(graph);
  const unused = new Set(analysis.unusedParameters);
  const control = (name: string) => name === START_STATE || name === END_STATE || name === ANY_STATE;
  const all = [...warnings];
  const layers = graph.layers.map((layer, l): GraphLayerInspection => {
    const reach = analysis.layers[l];
    const quoted = JSON.stringify(layer.name);
    if (reach.leavesStart && reach.unreachable.length > 0) {
      all.push(`${graphPath}: layer ${quoted}: no path of transitions from START reaches ${reach.unreachable.map((s) => JSON.stringify(s)).join(', ')}`);
    }
    const unreachable = new Set(reach.unreachable);
    return {
      name: layer.name, blendType: layer.blendType, weight: layer.weight, maskJoints: Object.keys(layer.mask ?? {}).length,
      leavesStart: reach.leavesStart, transitionCount: layer.transitions.length,
      states: layer.states.filter((s) => !control(s.name)).map((s) => ({
        name: s.name, speed: s.speed, loop: s.loop, reachable: !unreachable.has(s.name),
        clip: s.blendTree ? null : s.clip, tree: s.blendTree ? treeInspection(s.blendTree) : null,
      })),
    };
  });
  if (unused.size > 0) all.push(`${graphPath}: no condition or blend tree reads parameter ${[...unused].map((p) => JSON.stringify(p)).join(', ')}`);
  return {
    file: basename(graphPath),
    model: basename(modelPath),
    parameters: graph.parameters.map((p) => ({
      name: p.name, type: p.type, value: p.type === 'BOOLEAN' || p.type === 'TRIGGER' ? p.value !== 0 : p.value, read: !unused.has(p.name),
    })),
    layers,
    warnings: all,
  };
}

function treeInspection(tree: GraphBlendTree): GraphTreeInspection {
  return {
    type: tree.type, parameters: [...tree.parameters], syncAnimations: tree.syncAnimations,
    children: tree.children.map((c) => ({
      name: c.name, point: [...c.point], parameter: c.parameter, clip: c.tree ? null : c.clip ?? c.name, tree: c.tree ? treeInspection(c.tree) : null,
    })),
  };
}

const left = (heading: string): TextColumn => ({ heading, align: 'left' });
const right = (heading: string): TextColumn => ({ heading, align: 'right' });

/**
 * `sinew inspect --graph` without `--json`: a summary line, the parameters' table, per layer a line (blend type,
 * weight, mask, transitions) and its states' table (what each plays: a clip, or a tree as `1D(speed) [Walk@0,
 * Run@1] sync`), then the warnings. Names come from the file: control characters are shown escaped.
 * @returns the text, ending with a newline
 */
export function formatGraphInspection(report: GraphInspection): string {
  const e = escapeControl;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const sections: string[] = [
    `${e(report.file)} on ${e(report.model)}: ${plural(report.layers.length, 'layer')}, ${plural(report.parameters.length, 'parameter')}`,
  ];
  sections.push(`parameters (${report.parameters.length})` + (report.parameters.length > 0 ? '\n' + formatTable(
    [right('#'), left('name'), left('type'), right('default'), left('read')],
    report.parameters.map((p, i) => [String(i), e(p.name), p.type, String(p.value), p.read ? 'yes' : 'no']),
  ) : ''));
  report.layers.forEach((layer, l) => {
    const mask = layer.maskJoints > 0 ? `, mask of ${plural(layer.maskJoints, 'joint')}` : '';
    const head = `layer ${l} ${e(JSON.stringify(layer.name))} (${layer.blendType}, weight ${layer.weight}${mask}): ${plural(layer.states.length, 'state')}, ${plural(layer.transitionCount, 'transition')}${layer.leavesStart ? '' : ', never leaves START'}`;
    sections.push(head + (layer.states.length > 0 ? '\n' + formatTable(
      [left('state'), left('plays'), right('speed'), left('loop'), left('reachable')],
      layer.states.map((s) => [e(s.name), s.tree ? e(describeTree(s.tree)) : e(s.clip ?? ''), String(s.speed), s.loop ? 'yes' : 'no', s.reachable ? 'yes' : 'no']),
    ) : ''));
  });
  sections.push(`warnings (${report.warnings.length})` + (report.warnings.length > 0 ? '\n' + report.warnings.map((w) => `- ${e(w)}`).join('\n') : ''));
  return sections.join('\n\n') + '\n';
}

/** `1D(speed) [Walk@0, Run@1] sync`; a nested tree in place of its child's clip; DIRECT children as `clip*param`. */
function describeTree(tree: GraphTreeInspection): string {
  const children = tree.children.map((c) => {
    const what = c.tree ? describeTree(c.tree) : c.clip ?? c.name;
    if (tree.type === 'DIRECT') return `${what}*${c.parameter ?? ''}`;
    return `${what}@${c.point.join(',')}`;
  });
  return `${tree.type}(${tree.parameters.join(', ')}) [${children.join(', ')}]${tree.syncAnimations ? ' sync' : ''}`;
}
