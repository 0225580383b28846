import { LoadError } from '../loaders/load-error.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import type { AnimationClip } from '../asset/animation-clip.ts';
import { AnimatedModel } from '../scene/animated-model.ts';
import { skinVertices } from '../skinning/skin-vertices.ts';
import { MorphedPrimitive } from '../skinning/morph-targets.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../skinning/skinning-method.ts';
import { findClipIndex } from '../animation/find-clip.ts';

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
   * precision origin O added back in f64 (docs/skinning-formulas.md S4).
   */
  matrix: number[];
}

/** The document `sinew eval` writes (README "Command line: `sinew`"). */
export interface Evaluation {
  /** Name of the clip applied, or null for the rest pose. */
  clip: string | null;
  /** Seconds into the clip actually applied: the requested time clamped to the clip's keys; 0 at rest. */
  time: number;
  /** The clip's duration in seconds (its last key time), or null for the rest pose. */
  duration: number | null;
  /** With `joints: true` only: every joint of any skin, once each, in skeleton order (parents first). */
  joints?: EvaluatedJoint[];
  primitives: EvaluatedPrimitive[];
}

/** What {@link evaluateModel} adds to the vertices. */
export interface EvaluateOptions {
  /** Also report every skin joint's model-space matrix (`sinew eval --joints`); default false. */
  joints?: boolean;
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
  const names = asset.clips.map((c, i) => `${i}: ${c.name}`).join(', ') || 'none';
  throw new Error(`${asset.name}: no clip ${JSON.stringify(clip)} (clips: ${names})`);
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

/** `relative` (x, y, z per vertex, relative to `origin`) plus `origin`, in f64. */
function withOrigin(relative: Float32Array, origin: Float64Array): number[] {
  const out = Array.from(relative);
  if (origin[0] === 0 && origin[1] === 0 && origin[2] === 0) return out;
  for (let i = 0; i < out.length; i += 3) {
    out[i] += origin[0]; out[i + 1] += origin[1]; out[i + 2] += origin[2];
  }
  return out;
}

/**
 * Evaluates every mesh instance's primitives on the CPU reference path at `timeSeconds` of one clip:
 * morph targets first, at the instance's weights of this pose (`p₀ + Σₜ wₜ·Δpₜ`, glTF 2.0 §3.7.2.2,
 * docs/skinning-formulas.md M0; `MorphedPrimitive`), then skinned primitives by `p = Σ wᵢ · jointWorldᵢ · inverseBindᵢ · v / Σ wᵢ` (glTF 2.0 §3.7.3, docs/skinning-formulas.md S0),
 * rigid ones by their node's world matrix. Joints the clip does not animate stay at rest. Computed relative to
 * the model's origin O (`AnimatedModel.origin`, float32) and reported in the file's space: O added back in f64.
 *
 * @param clipIndex index into `asset.clips`, or −1 for the rest pose
 * @param timeSeconds finite; clamped to the clip's keys ({@link clampToClipKeys}), ignored at rest
 * @param method skinning mode and weight policy of the skinned primitives (default LBS, normalised weights:
 *   the formula above; `skinVertices` documents the others)
 * @param options `joints: true` adds {@link Evaluation.joints}
 * @returns the evaluation, with the clamped time (0 at rest) and the clip's duration (null at rest)
 * @throws RangeError for a clip index outside [−1, clips.length); LoadError `NON_FINITE_RESULT` naming the
 *   primitive and the joint at fault when a position (or, with `joints`, a joint's matrix) is not finite as a
 *   float32
 */
export function evaluateModel(asset: ModelAsset, clipIndex: number, timeSeconds: number, method: SkinningMethod = DEFAULT_SKINNING_METHOD, options: EvaluateOptions = {}): Evaluation {
  const animated = new AnimatedModel(asset);
  const sample = animated.clipSample(clipIndex);
  const clip = clipIndex >= 0 ? asset.clips[clipIndex] : null;
  const time = clip ? clampToClipKeys(clip, timeSeconds) : 0;
  animated.evaluate(sample.at(time));
  const joints = options.joints ? evaluateJoints(animated) : undefined;
  const primitives: EvaluatedPrimitive[] = [];
  for (const instance of asset.meshInstances) {
    asset.meshes[instance.mesh].primitives.forEach((sourcePrimitive, primitiveIndex) => {
      const morphOffset = instance.morphWeightOffset ?? -1;
      const primitive = sourcePrimitive.morphTargets && morphOffset >= 0
        ? new MorphedPrimitive(sourcePrimitive).apply(animated.morphWeights, morphOffset)
        : sourcePrimitive;
      const out = new Float32Array(3 * primitive.vertexCount);
      const skinned = instance.skin >= 0 && primitive.joints !== null;
      if (skinned) {
        skinVertices(out, null, primitive, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin], method);
      } else {
        const m = animated.modelMatrices.subarray(16 * instance.node, 16 * instance.node + 16);
        const p = primitive.positions;
        for (let i = 0; i < out.length; i += 3) {
          const x = p[i], y = p[i + 1], z = p[i + 2];
          out[i] = m[0] * x + m[4] * y + m[8] * z + m[12];
          out[i + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
          out[i + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
        }
      }
      const positions = withOrigin(out, animated.origin);
      if (!positions.every((x) => Number.isFinite(Math.fround(x)))) {
        throw nonFiniteResult(asset, animated.modelMatrices, animated.origin, instance.mesh, primitive.sourceIndex ?? primitiveIndex);
      }
      primitives.push({
        node: instance.sourceNode,
        mesh: instance.mesh,
        primitive: primitive.sourceIndex ?? primitiveIndex,
        skinned,
        vertexCount: primitive.vertexCount,
        positions,
      });
    });
  }
  const head = { clip: clip ? clip.name : null, time, duration: clip ? clip.duration : null };
  return joints ? { ...head, joints, primitives } : { ...head, primitives };
}
