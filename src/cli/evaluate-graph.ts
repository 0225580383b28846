import { InvalidArgumentError } from 'commander';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimationGraphAsset } from '../animation/graph/animation-graph-asset.ts';
import { AnimationGraph } from '../animation/graph/animation-graph.ts';
import { AnimationGraphDriver } from '../animation/graph/animation-graph-driver.ts';
import type { AnimationGraphState } from '../animation/graph/animation-graph-state.ts';
import { Animator } from '../animation/animator.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { morphWeightJoints } from '../skinning/morph-targets.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import { readAnimationGraph, type ReadAnimationGraphResult } from '../loaders/animation-graph/read-animation-graph.ts';
import { LoadError, quoteValue } from '../loaders/load-error.ts';
import { readGuardedFile } from '../node/load-model-from-path.ts';
import { writePosedModel, type TextSink } from './evaluate-model.ts';
import type { GraphLayerReport, GraphRunReport } from './graph-run-report.ts';

/** Updates per second of `sinew eval --graph` (a display's frame rate; the run is exact to T whatever it is). */
export const GRAPH_EVAL_HZ = 60;

/** Most updates `sinew eval --graph --time T` runs (⌈T·60⌉); more is a usage error. */
export const MAX_GRAPH_EVAL_STEPS = 1_000_000;

/** One `--param NAME=VALUE` of `sinew eval --graph`, as typed: the value is read against the parameter's type later. */
export interface ParameterInput {
  readonly name: string;
  /** The text after `=`, trimmed. */
  readonly value: string;
}

/**
 * Commander's collector for the repeatable `--param NAME=VALUE`: a name (no `=`) and a value, both non-empty.
 * Whether the graph has the parameter and the value fits its type is checked once the graph is read
 * ({@link resolveGraphParameters}).
 * @throws InvalidArgumentError (a usage error) for any other text
 */
export function parseParameterInput(value: string, previous: ParameterInput[] = []): ParameterInput[] {
  const match = /^([^=]+)=(.*)$/.exec(value.trim());
  if (!match || match[1].trim() === '' || match[2].trim() === '') throw new InvalidArgumentError('It must be NAME=VALUE, e.g. speed=1.5 or grounded=true.');
  return [...previous, { name: match[1].trim(), value: match[2].trim() }];
}

/**
 * The updates a run of `seconds` takes at {@link GRAPH_EVAL_HZ}: ⌈seconds·60⌉ steps of 1/60 s, the last one
 * shortened so they add up to `seconds` exactly; one step of 0 s for `seconds` = 0 (so the graph leaves `START`).
 * @returns the step sizes' count and the last step, seconds
 * @throws InvalidArgumentError (a usage error) for a negative or non-finite time, or past {@link MAX_GRAPH_EVAL_STEPS}
 */
export function graphSteps(seconds: number): { count: number; last: number } {
  if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new InvalidArgumentError(`--time ${seconds}: with --graph the time must be 0 or more seconds (the graph runs from t = 0)`);
  if (seconds === 0) return { count: 1, last: 0 };
  const dt = 1 / GRAPH_EVAL_HZ;
  // Whole steps first; a remainder within rounding of 0 (T a multiple of 1/60) is no step of its own.
  let whole = Math.floor(seconds * GRAPH_EVAL_HZ);
  let last = seconds - whole * dt;
  if (last <= 1e-12 * Math.max(1, seconds)) {
    whole -= 1;
    last = seconds - whole * dt;
  }
  const count = whole + 1;
  if (count > MAX_GRAPH_EVAL_STEPS) {
    throw new InvalidArgumentError(`--time ${seconds} with --graph is ${count} updates at ${GRAPH_EVAL_HZ} Hz; at most ${MAX_GRAPH_EVAL_STEPS} (a shorter time)`);
  }
  return { count, last };
}

/**
 * Node only: reads the graph file `path` (at most `maxBytes`) and checks it against `asset`: every clip a state or
 * child names is one of the model's (after `--anim`), every parameter read is declared, every transition's
 * states exist (readAnimationGraph), and, beyond the reader, every joint a layer mask names is one of the
 * skeleton's and the first layer is not `ADDITIVE` (it drives the animator's base layer).
 * @returns the graph and the reader's warnings (each starting with `path`)
 * @throws LoadError about `path` as given: `FILE_NOT_FOUND`, `IO_ERROR` (readGuardedFile); the reader's
 *   `ANIMATION_GRAPH_*` with the JSON pointer; `ANIMATION_GRAPH_INVALID_VALUE` for a mask joint or the first layer's
 *   blend type
 */
export async function readGraphForModel(path: string, asset: ModelAsset, maxBytes: number): Promise<ReadAnimationGraphResult> {
  const bytes = await readGuardedFile(path, maxBytes);
  const result = readAnimationGraph(new TextDecoder().decode(bytes), { file: path, clipNames: asset.clips.map((c) => c.name) });
  const joints = new Set(asset.skeleton.names);
  result.graph.layers.forEach((layer, l) => {
    if (l === 0 && layer.blendType === 'ADDITIVE') {
      throw new LoadError(path, '/layers/0/blendType', 'ANIMATION_GRAPH_INVALID_VALUE', 'is "ADDITIVE"; the first layer must be "OVERWRITE" (it drives the base pose)');
    }
    for (const joint of Object.keys(layer.mask ?? {})) {
      if (!joints.has(joint)) {
        throw new LoadError(path, `/layers/${l}/mask/${pointerToken(joint)}`, 'ANIMATION_GRAPH_INVALID_VALUE', `names joint ${quoteValue(joint)}, which the model's skeleton does not have`);
      }
    }
  });
  return result;
}

/**
 * The `--param` values read against the graph's parameters: FLOAT a finite number; INTEGER a whole number;
 * BOOLEAN and TRIGGER `true` or `false`. A name given twice: the last wins.
 * @param file the graph's file, for messages
 * @returns [parameter index, value] pairs, booleans as 1 or 0
 * @throws Error naming the parameter and listing the graph's (with their types) for an unknown name or a value
 *   its type does not take
 */
export function resolveGraphParameters(graph: AnimationGraphAsset, inputs: readonly ParameterInput[], file: string): [number, number][] {
  const list = graph.parameters.map((p) => `${p.name} (${p.type})`).join(', ') || 'none';
  return inputs.map(({ name, value }) => {
    const index = graph.parameters.findIndex((p) => p.name === name);
    if (index < 0) throw new Error(`${file}: --param ${name}=${value}: the graph has no parameter ${JSON.stringify(name)} (its parameters: ${list})`);
    const type = graph.parameters[index].type;
    if (type === 'BOOLEAN' || type === 'TRIGGER') {
      if (value !== 'true' && value !== 'false') throw new Error(`${file}: --param ${name}=${value}: ${name} is a ${type}, give true or false (its parameters: ${list})`);
      return [index, value === 'true' ? 1 : 0];
    }
    const number = Number(value);
    if (!Number.isFinite(number) || (type === 'INTEGER' && !Number.isInteger(number))) {
      throw new Error(`${file}: --param ${name}=${value}: ${name} is ${type === 'FLOAT' ? 'a FLOAT, give a number' : 'an INTEGER, give a whole number'} (its parameters: ${list})`);
    }
    return [index, number];
  });
}

/** Options of {@link writeGraphEvaluation}. */
export interface GraphEvaluationOptions {
  /** The graph, read and checked against the model ({@link readGraphForModel}). */
  readonly graph: AnimationGraphAsset;
  /** The graph's file name for the report (without folders). */
  readonly file: string;
  /** The parameters held through the run ({@link resolveGraphParameters}); the others keep their defaults. */
  readonly parameters: readonly [number, number][];
  /** Seconds the graph runs from t = 0 (≥ 0). */
  readonly timeSeconds: number;
  readonly method: SkinningMethod;
  /** Also print the joints' matrices (`--joints`). */
  readonly joints: boolean;
}

/**
 * `sinew eval --graph`: runs the animation graph on `asset` from t = 0 to `timeSeconds` and writes the
 * `Evaluation` document of the pose it reaches (writePosedModel), with `clip` and `duration` null, `time` the
 * seconds run and `graph` what it played ({@link GraphRunReport}).
 *
 * The run: a fresh graph state (every layer in `START`), the `--param` values set once before the first update
 * and held (nothing else sets them; a trigger fires once, consumed by the first transition that reads it), then
 * {@link graphSteps} updates of `AnimationGraphDriver.update` (graph, then the animator's clips) — the order the
 * element's frames take. The animator is the portable (JavaScript) one: clips sampled as glTF defines (slerp, the
 * same sampling as `sinew eval --clip`), blended by `BlendingJob` (nlerp); root motion off, so the hips move as
 * the clips say (as with `--clip`). The avatar's expression tracks of the clips are not played, and spring bones
 * are not simulated (the spring joints as the clips pose them).
 * @throws RangeError or InvalidArgumentError from {@link graphSteps}; LoadError `NON_FINITE_RESULT`; whatever `sink` rejects with
 */
export async function writeGraphEvaluation(asset: ModelAsset, options: GraphEvaluationOptions, sink: TextSink): Promise<void> {
  const steps = graphSteps(options.timeSeconds);
  const animated = new AnimatedModel(asset);
  if (animated.secondaryMotion?.springs) animated.secondaryMotion.springs.enabled = false;
  const graph = new AnimationGraph(options.graph, animated.clips, { jointNames: asset.skeleton.names });
  const animator = new Animator(asset.skeleton.jointCount, { maxClipsPerLayer: graph.maxClipsPerLayer(), morphWeightJoints: morphWeightJoints(asset) });
  const driver = new AnimationGraphDriver(graph, animator);
  for (const [index, value] of options.parameters) graph.setParameter(driver.state, index, value);
  const dt = 1 / GRAPH_EVAL_HZ;
  for (let k = 1; k <= steps.count; k++) driver.update(k < steps.count ? dt : steps.last);
  animated.evaluate(animator);
  const report: GraphRunReport = {
    file: options.file, hz: GRAPH_EVAL_HZ, steps: steps.count,
    parameters: parameterValues(graph, options.graph, driver.state),
    layers: options.graph.layers.map((_, l) => layerReport(graph, driver.state, l)),
  };
  await writePosedModel(animated, { clip: null, time: options.timeSeconds, duration: null, graph: report }, options.method, options.joints, sink);
}

function parameterValues(graph: AnimationGraph, asset: AnimationGraphAsset, state: AnimationGraphState): Record<string, number | boolean> {
  const values: Record<string, number | boolean> = {};
  asset.parameters.forEach((p, i) => {
    const v = graph.getParameter(state, i);
    values[p.name] = p.type === 'BOOLEAN' || p.type === 'TRIGGER' ? v !== 0 : v;
  });
  return values;
}

function layerReport(graph: AnimationGraph, state: AnimationGraphState, l: number): GraphLayerReport {
  const layout = graph.layout, K = graph.maxPreviousStates;
  const weights = graph.stateWeights(state, new Float64Array(layout.stateNames.length));
  const transitioning = state.transitioning[l] === 1;
  const playing = [state.activeStates[l]];
  for (let k = 0; k < state.previousCounts[l]; k++) playing.push(state.previousStates[l * K + k]);
  const clips: GraphLayerReport['clips'] = [];
  for (const s of playing) {
    for (let i = layout.stateLeafStart[s]; i < layout.stateLeafStart[s] + layout.stateLeafCount[s]; i++) {
      clips.push({ state: layout.stateNames[s], clip: layout.leafClips[i].name, weight: weights[s] * state.leafWeights[i], time: state.leafTimes[i] });
    }
  }
  return {
    name: layout.layerNames[l],
    state: graph.activeState(state, l),
    transition: transitioning ? { from: layout.stateNames[state.transitionSource[l]], progress: graph.transitionProgress(state, l) } : null,
    clips,
  };
}

/** A JSON pointer reference token (RFC 6901 §3: `~` as `~0`, `/` as `~1`). */
function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
