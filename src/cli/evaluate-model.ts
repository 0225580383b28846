import { LoadError } from '../loaders/load-error.ts';
import { influenceCountOf, type ModelAsset, type PrimitiveAsset } from '../asset/model-asset.ts';
import type { AnimationClip } from '../asset/animation-clip.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { skinVertices } from '../skinning/skin-vertices.ts';
import { MorphedPrimitive } from '../skinning/morph-targets.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import { findClipIndex, unknownClipHint } from '../animation/find-clip.ts';
import { applyAvatarInputs, type AvatarInputs } from './avatar-inputs.ts';
import { simulateSprings } from './simulate-springs.ts';
import type { GraphRunReport } from './graph-run-report.ts';

/** One mesh primitive's evaluated vertices, as `sinew eval` prints them. */
export interface EvaluatedPrimitive {
  /** glTF node index of the mesh node; null for formats without nodes (MD5). */
  node: number | null;
  /** glTF mesh index (MD5: the mesh's index in the file). */
  mesh: number;
  /** Primitive index inside the file's mesh (glTF `meshes[mesh].primitives[primitive]`). */
  primitive: number;
  skinned: boolean;
  vertexCount: number;
  /**
   * Model-space ("world") positions, x, y, z per vertex (length 3·vertexCount), in the file's units and axes:
   * the float32 positions relative to the model's origin O (`AnimatedModel.origin`) plus O, added in f64.
   */
  positions: number[];
}

/** One skin joint's matrix, as `sinew eval --joints` prints it. */
export interface EvaluatedJoint {
  /** glTF node index of the joint (`Skeleton.sourceIndices`); for MD5 the joint's index in the file. */
  node: number;
  /** The joint's name; empty when the file gives none. */
  name: string;
  /**
   * 16 numbers, column-major: the joint's model-space matrix (the scene root's frame, glTF 2.0 §3.5.3; the
   * file's units and axes) in the evaluated pose, `AnimatedModel.jointMatrix` with an identity `world`: the
   * precision origin O added back in f64 (docs/explanation/skinning-formulas.md S4).
   */
  matrix: number[];
}

/** The document `sinew eval` writes (docs/guide/cli.md). */
export interface Evaluation {
  /** Name of the clip applied, or null for the rest pose and with an animation graph ({@link graph}). */
  clip: string | null;
  /**
   * Seconds into the clip actually applied: the requested time clamped to the clip's keys; 0 at rest. With an
   * animation graph: the seconds the graph ran from t = 0.
   */
  time: number;
  /** The clip's duration in seconds (its last key time), or null for the rest pose and with an animation graph. */
  duration: number | null;
  /** With `--graph` only: what the graph played at {@link time} (`sinew eval --graph`, {@link GraphRunReport}). */
  graph?: GraphRunReport;
  /**
   * With `--springs HZ` only: the fixed rate and the steps run (round(T·HZ)); the springs were simulated from t = 0
   * to steps/HZ seconds ({@link EvaluateOptions.springHz}).
   */
  springs?: { hz: number; steps: number };
  /** With `joints: true` only: every joint of any skin, once each, in skeleton order (parents first). */
  joints?: EvaluatedJoint[];
  primitives: EvaluatedPrimitive[];
}

/** What {@link writeEvaluation} adds to the vertices. */
export interface EvaluateOptions {
  /** Also report every skin joint's model-space matrix (`sinew eval --joints`); default false. */
  joints?: boolean;
  /** An avatar's expression weights and look-at point on top of the clip (`--expression`, `--look-at`; {@link applyAvatarInputs}). */
  avatar?: AvatarInputs;
  /**
   * `sinew eval --springs HZ`: simulate the spring bones from t = 0 to the requested time at this fixed rate, steps
   * per second ({@link simulateSprings}: reset at the pose of t = 0, then for k = 1 … round(T·HZ) the clip posed at
   * k/HZ and the secondary motion advanced by 1/HZ, three-vrm's `vrm.update` order). Absent: no simulation — the
   * spring joints stay as the clip poses them (their rest rotations where it does not animate them: the tails at
   * rest, the hair hanging as modelled), node constraints still applied.
   */
  springHz?: number;
}

/**
 * The clip `sinew eval --clip` names (a name or index, `rest` or `-1` for the rest pose; `findClipIndex`), or
 * the default: clip 0, or the rest pose for a model without clips.
 * @returns the clip index, or −1 for the rest pose
 * @throws Error naming the model and listing its clips when no clip matches
 */
export function evalClipIndex(asset: ModelAsset, clip: string | undefined): number {
  if (clip === undefined) return asset.clips.length > 0 ? 0 : -1;
  const index = findClipIndex(clip, asset.clips.map((c) => c.name));
  if (index !== null) return index;
  throw new Error(`${asset.name}: no clip ${JSON.stringify(clip)} (${unknownClipHint(clip, asset.clips.map((c) => c.name))})`);
}

/**
 * `timeSeconds` clamped to [first key, last key] of the clip's channels (0 for a clip without channels). Each
 * sampler clamps to its own channel's keys, which lie inside that range, so the pose at the clamped time is the
 * pose at `timeSeconds`: this is the time a report can honestly say was applied.
 */
export function clampToClipKeys(clip: AnimationClip, timeSeconds: number): number {
  let first = Infinity;
  for (const channel of clip.channels) first = Math.min(first, channel.times[0]);
  if (first === Infinity) return 0;
  return Math.min(Math.max(timeSeconds, first), clip.duration);
}

/**
 * The error for a primitive whose evaluated positions are not all finite as float32 (data finite in the file
 * can still overflow float32 when composed): names the first joint whose model-space matrix is not finite
 * (its matrix relative to `origin`, or its translation with `origin` added back, past float32), else the
 * primitive's own data. The JSON never carries a `null` position, nor one past float32.
 */
function nonFiniteResult(asset: ModelAsset, modelMatrices: Float32Array, origin: Float64Array, mesh: number, primitive: number): LoadError {
  const where = `/meshes/${mesh}/primitives/${primitive}`;
  for (let j = 0; j < asset.skeleton.jointCount; j++) {
    const matrix = modelMatrices.subarray(16 * j, 16 * j + 16);
    const translationFinite = [0, 1, 2].every((k) => Number.isFinite(Math.fround(matrix[12 + k] + origin[k])));
    if (!matrix.every(Number.isFinite) || !translationFinite) {
      const node = asset.skeleton.sourceIndices[j];
      const name = asset.skeleton.names[j] ? ` ${JSON.stringify(asset.skeleton.names[j])}` : '';
      return new LoadError(asset.name, where, 'NON_FINITE_RESULT', `evaluates to non-finite positions: joint${name} (node ${node}) has a non-finite model-space matrix`);
    }
  }
  return new LoadError(asset.name, where, 'NON_FINITE_RESULT', 'evaluates to non-finite positions (its skinning overflows float32)');
}

/**
 * Every joint of any skin of `animated`'s asset, once each, in skeleton order (parents before children), with
 * its matrix from `jointMatrix` (identity `world`: model space, O added back).
 * @throws LoadError `NON_FINITE_RESULT` naming the first joint whose matrix is not finite
 */
function evaluateJoints(animated: AnimatedModel): EvaluatedJoint[] {
  const { skeleton, skins } = animated.asset;
  const inSkin = new Uint8Array(skeleton.jointCount);
  for (const skin of skins) for (const j of skin.joints) inSkin[j] = 1;
  const matrix = new Float64Array(16), joints: EvaluatedJoint[] = [];
  for (let j = 0; j < skeleton.jointCount; j++) {
    if (!inSkin[j]) continue;
    animated.jointMatrix(j, matrix);
    const node = skeleton.sourceIndices[j], name = skeleton.names[j] ?? '';
    if (!matrix.every((x) => Number.isFinite(Math.fround(x)))) {
      throw new LoadError(animated.asset.name, `/nodes/${node}`, 'NON_FINITE_RESULT', `joint${name ? ` ${JSON.stringify(name)}` : ''} (node ${node}) has a non-finite model-space matrix`);
    }
    joints.push({ node, name, matrix: Array.from(matrix) });
  }
  return joints;
}

/**
 * Where {@link writeEvaluation} sends its JSON text, piece by piece (`openTextOutput`: a file or standard
 * output). Resolves once the piece is handed on, so at most one piece is buffered (backpressure); resolves
 * false when the reader has gone (a closed pipe), and the writer then stops.
 */
export type TextSink = (text: string) => Promise<boolean>;

/**
 * Vertices evaluated and formatted at a time: one scratch `Float32Array(3·EVAL_CHUNK_VERTICES)` and one string
 * of at most about 60 bytes a vertex are alive at once, whatever the model's size.
 */
export const EVAL_CHUNK_VERTICES = 1 << 16;

/** One mesh primitive of a mesh instance, in the order `sinew eval` lists them. */
interface InstancePrimitive {
  readonly instance: ModelAsset['meshInstances'][number];
  readonly source: PrimitiveAsset;
  /** The primitive's index in the file's mesh (`sourceIndex`, else its place in the asset's mesh). */
  readonly index: number;
}

function instancePrimitives(asset: ModelAsset): InstancePrimitive[] {
  const list: InstancePrimitive[] = [];
  for (const instance of asset.meshInstances) {
    asset.meshes[instance.mesh].primitives.forEach((source, i) => list.push({ instance, source, index: source.sourceIndex ?? i }));
  }
  return list;
}

/** The primitive as evaluated: morph targets applied at the instance's weights of the evaluated pose (its own copy). */
function morphed(animated: AnimatedModel, item: InstancePrimitive): PrimitiveAsset {
  const offset = item.instance.morphWeightOffset ?? -1;
  return item.source.morphTargets && offset >= 0 ? new MorphedPrimitive(item.source).apply(animated.morphWeights, offset) : item.source;
}

/** `primitive`'s vertices [start, start + count) as a primitive of their own: views, no copy. */
function vertexRange(primitive: PrimitiveAsset, start: number, count: number): PrimitiveAsset {
  const c = influenceCountOf(primitive), end = start + count;
  return {
    ...primitive,
    vertexCount: count,
    positions: primitive.positions.subarray(3 * start, 3 * end),
    normals: primitive.normals.subarray(3 * start, 3 * end),
    tangents: primitive.tangents ? primitive.tangents.subarray(4 * start, 4 * end) : null,
    joints: primitive.joints ? primitive.joints.subarray(c * start, c * end) : null,
    weights: primitive.weights ? primitive.weights.subarray(c * start, c * end) : null,
  };
}

/**
 * Positions of `primitive`'s vertices [start, start + count) relative to the model origin O, written to the
 * start of `scratch`: skinned by `skinVertices`, or rigid by the instance node's model matrix. Each vertex is
 * computed alone, so a range gives exactly what the whole primitive would.
 * @returns `scratch.subarray(0, 3·count)`
 */
function evaluateRange(animated: AnimatedModel, item: InstancePrimitive, primitive: PrimitiveAsset, skinned: boolean, method: SkinningMethod, start: number, count: number, scratch: Float32Array): Float32Array {
  const out = scratch.subarray(0, 3 * count);
  const { instance } = item;
  if (skinned) {
    const range = start === 0 && count === primitive.vertexCount ? primitive : vertexRange(primitive, start, count);
    skinVertices(out, null, range, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin], method);
    return out;
  }
  const m = animated.modelMatrices.subarray(16 * instance.node, 16 * instance.node + 16);
  const p = primitive.positions;
  for (let i = 0, j = 3 * start; i < out.length; i += 3, j += 3) {
    const x = p[j], y = p[j + 1], z = p[j + 2];
    out[i] = m[0] * x + m[4] * y + m[8] * z + m[12];
    out[i + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    out[i + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
  }
  return out;
}

/** Whether every `relative` value plus its origin component (f64) is finite as a float32. */
function allFinite(relative: Float32Array, origin: Float64Array): boolean {
  for (let i = 0; i < relative.length; i++) {
    if (!Number.isFinite(Math.fround(relative[i] + origin[i % 3]))) return false;
  }
  return true;
}

/**
 * `relative` plus `origin` in f64, as the numbers of a JSON array (`,` between them, and before the first
 * unless `first`). `String(x)` of a finite number is what `JSON.stringify` writes for it (ECMA-262
 * Number::toString both), so the text is the one `JSON.stringify` made of the whole array.
 */
function formatPositions(relative: Float32Array, origin: Float64Array, first: boolean): string {
  const ox = origin[0], oy = origin[1], oz = origin[2];
  let text = first ? '' : ',';
  for (let i = 0; i < relative.length; i += 3) {
    if (i > 0) text += ',';
    text += (relative[i] + ox) + ',' + (relative[i + 1] + oy) + ',' + (relative[i + 2] + oz);
  }
  return text;
}

/** `value`'s JSON object text without its closing brace, to append more members to. */
function openObject(value: object): string {
  return JSON.stringify(value).slice(0, -1);
}

/**
 * Evaluates every mesh instance's primitives on the CPU reference path at `timeSeconds` of one clip and writes
 * the {@link Evaluation} document as JSON text (the text `JSON.stringify` makes of it, then a newline) to
 * `sink`, as it goes: positions are evaluated {@link EVAL_CHUNK_VERTICES} at a time into one scratch array and
 * formatted chunk by chunk, so memory beyond the loaded model stays bounded whatever the vertex count.
 *
 * Per vertex: morph targets first, at the instance's weights of this pose (`p₀ + Σₜ wₜ·Δpₜ`, glTF 2.0
 * §3.7.2.2, docs/explanation/skinning-formulas.md M0; `MorphedPrimitive`), then skinned primitives by
 * `p = Σ wᵢ · jointWorldᵢ · inverseBindᵢ · v / Σ wᵢ` (glTF 2.0 §3.7.3, docs/explanation/skinning-formulas.md S0), rigid
 * ones by their node's world matrix. Joints the clip does not animate stay at rest. Computed relative to the
 * model's origin O (`AnimatedModel.origin`, float32) and reported in the file's space: O added back in f64.
 *
 * Every position is checked in a first pass, before any text is written: a model that fails writes nothing.
 *
 * @param clipIndex index into `asset.clips`, or −1 for the rest pose
 * @param timeSeconds finite; clamped to the clip's keys ({@link clampToClipKeys}), ignored at rest
 * @param method skinning mode and weight policy of the skinned primitives (default LBS, normalised weights)
 * @param options `joints: true` adds {@link Evaluation.joints}; `avatar` sets expressions and look-at (an avatar's
 *   expression morph weights then join the morph step, look-at's eye rotations the pose); `springHz` simulates the
 *   spring bones up to `timeSeconds` ({@link EvaluateOptions.springHz}; ignored for a model without them)
 * @param sink receives the text; when it resolves false, writing stops (the reader has gone)
 * @throws RangeError for a clip index outside [−1, clips.length); Error from {@link applyAvatarInputs};
 *   InvalidArgumentError from `simulateSprings` for more than `MAX_EVAL_SPRING_STEPS` steps; LoadError `NON_FINITE_RESULT` naming the
 *   primitive and the joint at fault when a position (or, with `joints`, a joint's matrix) is not finite as a
 *   float32; whatever `sink` rejects with
 */
export async function writeEvaluation(asset: ModelAsset, clipIndex: number, timeSeconds: number, method: SkinningMethod, options: EvaluateOptions, sink: TextSink): Promise<void> {
  const animated = new AnimatedModel(asset);
  const sample = animated.clipSample(clipIndex);
  const clip = clipIndex >= 0 ? asset.clips[clipIndex] : null;
  const time = clip ? clampToClipKeys(clip, timeSeconds) : 0;
  const poseAt = (t: number) => applyAvatarInputs(animated, sample.at(clip ? clampToClipKeys(clip, t) : 0), clipIndex, options.avatar ?? {});
  let springs: Evaluation['springs'];
  if (options.springHz !== undefined && animated.secondaryMotion?.springs) {
    springs = { hz: options.springHz, steps: simulateSprings(animated, poseAt, options.springHz, timeSeconds) };
  } else {
    // No simulation asked for: the clip's pose of the spring joints (not the tails left by the rest pose's evaluate).
    if (animated.secondaryMotion?.springs) animated.secondaryMotion.springs.enabled = false;
    animated.evaluate(poseAt(time));
  }
  const head: PosedHead = { clip: clip ? clip.name : null, time, duration: clip ? clip.duration : null, ...(springs ? { springs } : {}) };
  await writePosedModel(animated, head, method, options.joints === true, sink);
}

/** The members of the {@link Evaluation} document before `joints` and `primitives`, in order. */
export type PosedHead = Omit<Evaluation, 'joints' | 'primitives'>;

/**
 * The second half of {@link writeEvaluation}, for a model already posed (by a clip, or by an animation graph,
 * `sinew eval --graph`): writes `head`'s members, then (with `joints`) {@link Evaluation.joints}, then the
 * primitives' positions from `animated`'s current buffers, as {@link writeEvaluation} describes (every position
 * checked first; streamed {@link EVAL_CHUNK_VERTICES} at a time).
 * @throws LoadError `NON_FINITE_RESULT` as {@link writeEvaluation}; whatever `sink` rejects with
 */
export async function writePosedModel(animated: AnimatedModel, head: PosedHead, method: SkinningMethod, withJoints: boolean, sink: TextSink): Promise<void> {
  const asset = animated.asset;
  const joints = withJoints ? evaluateJoints(animated) : undefined;
  const items = instancePrimitives(asset);
  const origin = animated.origin;
  const scratch = new Float32Array(3 * EVAL_CHUNK_VERTICES);
  const skinnedOf = (item: InstancePrimitive, primitive: PrimitiveAsset) => item.instance.skin >= 0 && primitive.joints !== null;

  for (const item of items) {
    const primitive = morphed(animated, item), skinned = skinnedOf(item, primitive);
    for (let start = 0; start < primitive.vertexCount; start += EVAL_CHUNK_VERTICES) {
      const count = Math.min(EVAL_CHUNK_VERTICES, primitive.vertexCount - start);
      if (!allFinite(evaluateRange(animated, item, primitive, skinned, method, start, count, scratch), origin)) {
        throw nonFiniteResult(asset, animated.modelMatrices, origin, item.instance.mesh, item.index);
      }
    }
  }

  // After the head, small pieces (a primitive of a few vertices) are gathered up to EVAL_PIECE_CHARS before they go
  // to `sink`: one write per piece made a file of many small primitives wait on the I/O once per primitive.
  let pending = '';
  const put = async (text: string): Promise<boolean> => {
    pending += text;
    if (pending.length < EVAL_PIECE_CHARS) return true;
    const piece = pending;
    pending = '';
    return sink(piece);
  };
  let opening = openObject(head);
  if (joints) opening += ',"joints":' + JSON.stringify(joints);
  if (!await sink(opening + ',"primitives":[')) return;
  for (let p = 0; p < items.length; p++) {
    const item = items[p];
    const primitive = morphed(animated, item), skinned = skinnedOf(item, primitive);
    const fields = { node: item.instance.sourceNode, mesh: item.instance.mesh, primitive: item.index, skinned, vertexCount: primitive.vertexCount };
    let text = (p > 0 ? ',' : '') + openObject(fields) + ',"positions":[';
    for (let start = 0; start < primitive.vertexCount; start += EVAL_CHUNK_VERTICES) {
      const count = Math.min(EVAL_CHUNK_VERTICES, primitive.vertexCount - start);
      text += formatPositions(evaluateRange(animated, item, primitive, skinned, method, start, count, scratch), origin, start === 0);
      if (!await put(text)) return;
      text = '';
    }
    if (!await put(text + ']}')) return;
  }
  await sink(pending + ']}\n');
}

/** Characters of JSON text gathered before a piece goes to the sink (besides one chunk's text, {@link EVAL_CHUNK_VERTICES}). */
const EVAL_PIECE_CHARS = 1 << 16;
