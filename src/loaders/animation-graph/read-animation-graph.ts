import {
  ANY_STATE, END_STATE, START_STATE, type AnimationGraphAsset, type GraphBlendChild, type GraphBlendTree, type GraphBlendTreeType,
  type GraphCondition, type GraphInterruptionSource, type GraphLayer, type GraphParameter, type GraphParameterType, type GraphPredicate,
  type GraphState, type GraphTransition,
} from '../../animation/graph/animation-graph-asset.ts';
import { analyzeGraphReachability } from '../../animation/graph/graph-reachability.ts';
import { unknownClipHint } from '../../animation/find-clip.ts';
import { messageOf } from '../../errors/message-of.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';

/** Options of {@link readAnimationGraph}. */
export interface ReadAnimationGraphOptions {
  /** The file's name for messages (`LoadError.file`), default `animation-graph.json`. */
  readonly file?: string;
  /** The model's clip names: when given, every clip a state or child names must be one (`ANIMATION_GRAPH_UNKNOWN_CLIP`). */
  readonly clipNames?: readonly string[];
}

/** What {@link readAnimationGraph} returns. */
export interface ReadAnimationGraphResult {
  readonly graph: AnimationGraphAsset;
  /** At most one line per kind, each starting with the file's name (a layer with no transition out of `START`). */
  readonly warnings: readonly string[];
}

const PARAMETER_TYPES: readonly GraphParameterType[] = ['FLOAT', 'INTEGER', 'BOOLEAN', 'TRIGGER'];
const TREE_TYPES: readonly GraphBlendTreeType[] = ['1D', '2D_CARTESIAN', '2D_DIRECTIONAL', 'DIRECT'];
const PREDICATES: readonly GraphPredicate[] = ['GREATER_THAN', 'LESS_THAN', 'GREATER_THAN_EQUAL_TO', 'LESS_THAN_EQUAL_TO', 'EQUAL_TO', 'NOT_EQUAL_TO'];
const INTERRUPTIONS: readonly GraphInterruptionSource[] = ['NONE', 'PREV_STATE', 'NEXT_STATE', 'PREV_STATE_NEXT_STATE', 'NEXT_STATE_PREV_STATE'];
const CONTROL_STATES = [START_STATE, END_STATE, ANY_STATE];

/**
 * Reads an animation state graph from JSON: PlayCanvas's `AnimStateGraph` data in its "layers as an array" form
 * (`{ "layers": [{ "name", "states": […], "transitions": […] }], "parameters": { id: { "name", "type", "value" } } }`,
 * `parameters` as an object keyed by id, as PlayCanvas writes it, or as an array), with Sinew's additions (`clip`
 * on states and children, a layer's `mask`) — docs/guide/animation-graph.md. Defaults as PlayCanvas's
 * (speed 1, loop true, weight 1, `OVERWRITE`, transition time 0, priority 0, interruption `NONE`,
 * `syncAnimations` true). Transitions' `from` and `to` may be state names or indices into the layer's states.
 *
 * @param json the file's text, or its already-parsed value
 * @throws LoadError naming the file and the JSON pointer of the first problem: `ANIMATION_GRAPH_INVALID_JSON`
 *   (does not parse, not an object with `layers`), `ANIMATION_GRAPH_INVALID_VALUE` (a missing or mistyped
 *   property, an unknown type, predicate or interruption source, a name given twice, 2D points given twice),
 *   `ANIMATION_GRAPH_UNKNOWN_CLIP` (with `clipNames`), `ANIMATION_GRAPH_UNKNOWN_PARAMETER`,
 *   `ANIMATION_GRAPH_UNKNOWN_STATE` (a transition to or from a state its layer lacks)
 */
export function readAnimationGraph(json: string | unknown, options: ReadAnimationGraphOptions = {}): ReadAnimationGraphResult {
  const file = options.file ?? 'animation-graph.json';
  const fail = (where: string, code: LoadErrorCode, problem: string): never => {
    throw new LoadError(file, where, code, problem);
  };
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch (error) {
      throw new LoadError(file, null, 'ANIMATION_GRAPH_INVALID_JSON', `is not JSON: ${messageOf(error)}`, { cause: error });
    }
  }
  if (!isObject(data) || !Array.isArray(data.layers)) {
    fail('', 'ANIMATION_GRAPH_INVALID_JSON', 'is not an object with a "layers" array (the graph\'s layers, PlayCanvas\'s array form)');
  }
  const root = data as Record<string, unknown>;
  const read = new Reader(fail);
  const parameters = read.parameters(root.parameters);
  const names = new Set(parameters.map((p) => p.name));
  const layers = (root.layers as unknown[]).map((layer, i) => read.layer(layer, `/layers/${i}`, names, options.clipNames ?? null));
  const graph = { parameters, layers };
  // The runtime scans ANY's transitions from START too, so a layer left only through ANY is not stuck.
  const stuck = analyzeGraphReachability(graph).layers.filter((layer) => !layer.leavesStart).map((layer) => JSON.stringify(layer.layer));
  const warnings = stuck.length > 0 ? [`${file}: no transition from START or ANY leads to a state that plays something in layer ${stuck.join(', ')}: the layer plays nothing`] : [];
  return { graph, warnings };
}

type Fail = (where: string, code: LoadErrorCode, problem: string) => never;

/** The checks, each naming its JSON pointer. */
class Reader {
  constructor(private readonly fail: Fail) {}

  parameters(value: unknown): GraphParameter[] {
    if (value === undefined) return [];
    if (!isObject(value) && !Array.isArray(value)) this.fail('/parameters', 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an object of parameters');
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((p, i) => [String(i), p]) : Object.entries(value as object);
    const seen = new Set<string>();
    return entries.map(([key, p]) => {
      const where = `/parameters/${escape(key)}`;
      if (!isObject(p)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an object');
      const record = p as Record<string, unknown>;
      const name = this.string(record.name, `${where}/name`);
      if (seen.has(name)) this.fail(`${where}/name`, 'ANIMATION_GRAPH_INVALID_VALUE', `names parameter ${quoteValue(name)} a second time`);
      seen.add(name);
      const type = this.oneOf(record.type, PARAMETER_TYPES, `${where}/type`);
      const v = record.value;
      let number = 0;
      if (v !== undefined) {
        if (typeof v === 'boolean') number = v ? 1 : 0;
        else if (typeof v === 'number' && Number.isFinite(v)) number = v;
        else this.fail(`${where}/value`, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(v)}, not a number or boolean`);
      }
      return { name, type, value: number };
    });
  }

  layer(value: unknown, where: string, parameters: ReadonlySet<string>, clipNames: readonly string[] | null): GraphLayer {
    if (!isObject(value)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a layer object');
    const layer = value as Record<string, unknown>;
    const name = layer.name === undefined ? `Layer ${where.slice(where.lastIndexOf('/') + 1)}` : this.string(layer.name, `${where}/name`);
    const blendType = layer.blendType === undefined ? 'OVERWRITE' : this.oneOf(layer.blendType, ['OVERWRITE', 'ADDITIVE'] as const, `${where}/blendType`);
    const weight = this.number(layer.weight, `${where}/weight`, 1, 0, 1);
    let mask: Record<string, number> | null = null;
    if (layer.mask !== undefined && layer.mask !== null) {
      if (!isObject(layer.mask)) this.fail(`${where}/mask`, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an object of joint weights');
      mask = {};
      for (const [joint, w] of Object.entries(layer.mask as object)) mask[joint] = this.number(w, `${where}/mask/${escape(joint)}`, 0, 0, 1);
    }
    if (!Array.isArray(layer.states)) this.fail(`${where}/states`, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an array of states');
    const stateNames: string[] = [];
    const states = (layer.states as unknown[]).map((s, i) => {
      const state = this.state(s, `${where}/states/${i}`, parameters, clipNames);
      if (stateNames.includes(state.name)) this.fail(`${where}/states/${i}/name`, 'ANIMATION_GRAPH_INVALID_VALUE', `names state ${quoteValue(state.name)} a second time in its layer`);
      stateNames.push(state.name);
      return state;
    });
    const known = new Set([...stateNames, ...CONTROL_STATES]);
    const list = layer.transitions ?? [];
    if (!Array.isArray(list)) this.fail(`${where}/transitions`, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an array of transitions');
    const transitions = (list as unknown[]).map((t, i) => this.transition(t, `${where}/transitions/${i}`, stateNames, known, parameters));
    return { name, blendType, weight, mask, states, transitions };
  }

  state(value: unknown, where: string, parameters: ReadonlySet<string>, clipNames: readonly string[] | null): GraphState {
    if (!isObject(value)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a state object');
    const s = value as Record<string, unknown>;
    const name = this.string(s.name, `${where}/name`);
    const speed = this.number(s.speed, `${where}/speed`, 1);
    const loop = this.boolean(s.loop, `${where}/loop`, true);
    if (CONTROL_STATES.includes(name)) return { name, speed, loop, blendTree: null, clip: null };
    if (s.blendTree !== undefined && s.blendTree !== null) {
      return { name, speed, loop, blendTree: this.tree(s.blendTree, `${where}/blendTree`, name, parameters, clipNames), clip: null };
    }
    const clip = s.clip === undefined ? name : this.string(s.clip, `${where}/clip`);
    this.clip(clip, s.clip === undefined ? `${where}/name` : `${where}/clip`, clipNames);
    return { name, speed, loop, blendTree: null, clip };
  }

  tree(value: unknown, where: string, fallbackName: string, parameters: ReadonlySet<string>, clipNames: readonly string[] | null): GraphBlendTree {
    if (!isObject(value)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a blend tree object');
    const t = value as Record<string, unknown>;
    const name = t.name === undefined ? fallbackName : this.string(t.name, `${where}/name`);
    const type = this.oneOf(t.type, TREE_TYPES, `${where}/type`);
    const dimensions = type === '1D' ? 1 : type === 'DIRECT' ? 0 : 2;
    let names: string[] = [];
    let at = `${where}/parameters`;
    if (t.parameter !== undefined) {
      names = [this.string(t.parameter, `${where}/parameter`)];
      at = `${where}/parameter`;
    } else if (t.parameters !== undefined) {
      if (!Array.isArray(t.parameters)) this.fail(at, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an array of parameter names');
      names = (t.parameters as unknown[]).map((p, i) => this.string(p, `${at}/${i}`));
    }
    if (dimensions > 0 && names.length < dimensions) this.fail(at, 'ANIMATION_GRAPH_INVALID_VALUE', `names ${names.length} parameters, a ${type} tree reads ${dimensions}`);
    names.forEach((p, i) => this.parameter(p, names.length === 1 && t.parameter !== undefined ? at : `${at}/${i}`, parameters));
    const syncAnimations = this.boolean(t.syncAnimations, `${where}/syncAnimations`, true);
    if (!Array.isArray(t.children) || t.children.length === 0) this.fail(`${where}/children`, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a non-empty array of children');
    const children = (t.children as unknown[]).map((c, i) => this.child(c, `${where}/children/${i}`, type, names[i] ?? null, parameters, clipNames));
    if (dimensions === 2) {
      children.forEach((c, i) => {
        const same = children.findIndex((o) => o.point[0] === c.point[0] && o.point[1] === c.point[1]);
        if (same < i) this.fail(`${where}/children/${i}/point`, 'ANIMATION_GRAPH_INVALID_VALUE', `is child ${same}'s point too: 2D points must differ`);
      });
    }
    return { name, type, parameters: dimensions > 0 ? names.slice(0, dimensions) : [], syncAnimations, children };
  }

  child(value: unknown, where: string, type: GraphBlendTreeType, directParameter: string | null, parameters: ReadonlySet<string>, clipNames: readonly string[] | null): GraphBlendChild {
    if (!isObject(value)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a blend tree child object');
    const c = value as Record<string, unknown>;
    const name = this.string(c.name, `${where}/name`);
    let point: number[] = [];
    if (type === '1D') point = [this.number(c.point, `${where}/point`, Number.NaN)];
    else if (type !== 'DIRECT') {
      if (!Array.isArray(c.point) || c.point.length !== 2) this.fail(`${where}/point`, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(c.point)}, not an [x, y] point`);
      point = (c.point as unknown[]).map((x, i) => this.number(x, `${where}/point/${i}`, Number.NaN));
    }
    let parameter: string | null = null;
    if (type === 'DIRECT') {
      parameter = c.parameter !== undefined ? this.string(c.parameter, `${where}/parameter`) : directParameter ?? name;
      this.parameter(parameter, c.parameter !== undefined ? `${where}/parameter` : `${where}/name`, parameters);
    }
    const speed = this.number(c.speed, `${where}/speed`, 1);
    if (Array.isArray(c.children)) {
      return { name, point, speed, clip: null, parameter, tree: this.tree(c, where, name, parameters, clipNames) };
    }
    const clip = c.clip === undefined ? name : this.string(c.clip, `${where}/clip`);
    this.clip(clip, c.clip === undefined ? `${where}/name` : `${where}/clip`, clipNames);
    return { name, point, speed, clip, parameter, tree: null };
  }

  transition(value: unknown, where: string, states: readonly string[], known: ReadonlySet<string>, parameters: ReadonlySet<string>): GraphTransition {
    if (!isObject(value)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a transition object');
    const t = value as Record<string, unknown>;
    const from = this.stateRef(t.from, `${where}/from`, states, known);
    const to = this.stateRef(t.to, `${where}/to`, states, known);
    if (to === START_STATE || to === ANY_STATE) this.fail(`${where}/to`, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${to}, which no transition may go to`);
    const list = t.conditions ?? [];
    if (!isObject(list) && !Array.isArray(list)) this.fail(`${where}/conditions`, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not an array of conditions');
    const entries: [string, unknown][] = Array.isArray(list) ? list.map((c, i) => [String(i), c]) : Object.entries(list as object);
    const conditions: GraphCondition[] = [];
    for (const [key, c] of entries) {
      const at = `${where}/conditions/${escape(key)}`;
      if (!isObject(c)) this.fail(at, 'ANIMATION_GRAPH_INVALID_VALUE', 'is not a condition object');
      const record = c as Record<string, unknown>;
      // PlayCanvas's keyed form skips entries without a parameter name (the editor's blank rows).
      if (!Array.isArray(list) && !record.parameterName) continue;
      const parameterName = this.string(record.parameterName, `${at}/parameterName`);
      this.parameter(parameterName, `${at}/parameterName`, parameters);
      const predicate = this.oneOf(record.predicate, PREDICATES, `${at}/predicate`);
      const v = record.value;
      if (typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v))) this.fail(`${at}/value`, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(v)}, not a number or boolean`);
      conditions.push({ parameterName, predicate, value: typeof v === 'boolean' ? (v ? 1 : 0) : (v as number) });
    }
    const exitTime = t.exitTime === undefined || t.exitTime === null ? null : this.number(t.exitTime, `${where}/exitTime`, 0, 0);
    const transitionOffset = t.transitionOffset === undefined || t.transitionOffset === null ? null : this.number(t.transitionOffset, `${where}/transitionOffset`, 0, 0, 1);
    return {
      from, to, conditions, exitTime, transitionOffset,
      time: this.number(t.time, `${where}/time`, 0, 0),
      priority: this.number(t.priority, `${where}/priority`, 0),
      interruptionSource: t.interruptionSource === undefined ? 'NONE' : this.oneOf(t.interruptionSource, INTERRUPTIONS, `${where}/interruptionSource`),
    };
  }

  private stateRef(value: unknown, where: string, states: readonly string[], known: ReadonlySet<string>): string {
    if (typeof value === 'number' && Number.isInteger(value)) {
      if (value >= 0 && value < states.length) return states[value];
      this.fail(where, 'ANIMATION_GRAPH_UNKNOWN_STATE', `is state ${value}, and the layer has ${states.length}`);
    }
    const name = this.string(value, where);
    if (!known.has(name)) this.fail(where, 'ANIMATION_GRAPH_UNKNOWN_STATE', `names state ${quoteValue(name)}, which the layer does not have (states: ${states.map((s) => JSON.stringify(s)).join(', ')})`);
    return name;
  }

  private clip(name: string, where: string, clipNames: readonly string[] | null): void {
    if (clipNames && !clipNames.includes(name)) this.fail(where, 'ANIMATION_GRAPH_UNKNOWN_CLIP', `names clip ${quoteValue(name)}, which the model does not have; ${unknownClipHint(name, clipNames)}`);
  }

  private parameter(name: string, where: string, parameters: ReadonlySet<string>): void {
    if (!parameters.has(name)) this.fail(where, 'ANIMATION_GRAPH_UNKNOWN_PARAMETER', `names parameter ${quoteValue(name)}, which the graph does not define`);
  }

  private string(value: unknown, where: string): string {
    if (typeof value !== 'string' || value.length === 0) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(value)}, not a non-empty string`);
    return value as string;
  }

  private number(value: unknown, where: string, fallback: number, min = -Infinity, max = Infinity): number {
    if (value === undefined && !Number.isNaN(fallback)) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
      this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(value)}, not a number${min > -Infinity ? ` in [${min}, ${max}]` : ''}`);
    }
    return value as number;
  }

  private boolean(value: unknown, where: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(value)}, not true or false`);
    return value as boolean;
  }

  private oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
    if (!allowed.includes(value as T)) this.fail(where, 'ANIMATION_GRAPH_INVALID_VALUE', `is ${quoteValue(value)}, not one of ${allowed.join(', ')}`);
    return value as T;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`). */
function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
