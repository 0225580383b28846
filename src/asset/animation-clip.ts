/**
 * Which local-pose property a channel animates: a joint's translation, rotation or scale, or (`weights`) the
 * morph target weights of one mesh instance (`LocalPose.morphWeights`, glTF 2.0 §3.11 `weights` path).
 */
export type ChannelPath = 'translation' | 'rotation' | 'scale' | 'weights';

/**
 * How a sampler interpolates between keyframes (docs/explanation/skinning-formulas.md S4).
 * Chosen per channel; {@link AnimationChannel.values} documents each layout.
 * - `STEP`: the value of the key at or before t (glTF 2.0 §3.11 "Animations", Appendix C).
 * - `LINEAR`: lerp for vectors, shortest-arc slerp for rotations (glTF 2.0 Appendix C).
 * - `CUBICSPLINE`: glTF cubic Hermite spline with in/out tangents per key (glTF 2.0 Appendix C).
 * - `HERMITE`: cubic Hermite with one explicit tangent per key (units per second).
 * - `BEZIER`: cubic Bézier with 2-D (time, value) handles per key, as FBX, COLLADA and Blender store them.
 * - `CATMULLROM`: Catmull-Rom spline through the keys, tangents from the neighbouring keys.
 */
export type Interpolation = 'STEP' | 'LINEAR' | 'CUBICSPLINE' | 'HERMITE' | 'BEZIER' | 'CATMULLROM';

/**
 * One animated property of one joint: a sampler (times, values, interpolation) bound to a target.
 * Values are float and already de-normalised by the loader.
 */
export interface AnimationChannel {
  /**
   * Target joint: an index into the skeleton (after the loader's parent-first reordering). For `weights`, the
   * joint (node) that carries the morphed mesh instance.
   */
  readonly joint: number;
  readonly path: ChannelPath;
  /**
   * `weights` channels: the first of the {@link morphTargetCount} entries of `LocalPose.morphWeights` the
   * channel writes (the instance's `MeshInstance.morphWeightOffset`). Ignored for the other paths.
   */
  readonly morphWeightOffset?: number;
  /** `weights` channels: the morph target count n, the channel's components per element. Ignored otherwise. */
  readonly morphTargetCount?: number;
  readonly interpolation: Interpolation;
  /** `Float32Array(k)`: key times in seconds, strictly increasing. */
  readonly times: Float32Array;
  /**
   * Key values, c = 3 (translation, scale), 4 (rotation x, y, z, w) or n (weights: one per morph target,
   * {@link componentCount}) components per element; key j starts
   * at `j · keyStride(interpolation, c)` ({@link keyStride}) and its value sits at
   * `keyValueOffset(interpolation, c)` inside the key ({@link keyValueOffset}):
   * - STEP, LINEAR, CATMULLROM: `Float32Array(k·c)`, value only.
   * - CUBICSPLINE: `Float32Array(3·k·c)`, each key in-tangent, value, out-tangent; tangents in units per
   *   second (glTF 2.0 Appendix C).
   * - HERMITE: `Float32Array(2·k·c)`, each key value, tangent (dv/dt, units per second; the same tangent
   *   leaves and enters the key, so the curve is C¹).
   * - BEZIER: `Float32Array(5·k·c)`, each key in-handle Δtime (c, seconds, ≤ 0), in-handle value (c),
   *   value (c), out-handle Δtime (c, seconds, ≥ 0), out-handle value (c). Handle times are offsets from the
   *   key's time (Blender stores absolute times: subtract the key's time); handle values are absolute, like
   *   the key's. Each component has its own handles (one scalar f-curve per component, as in Blender/FBX).
   *
   * Rotation channels of the cubic kinds are interpolated component-wise and normalised after; their keys
   * should lie in one hemisphere (q_j · q_{j+1} ≥ 0), which CATMULLROM enforces on the fly.
   */
  readonly values: Float32Array;
}

/**
 * A named instant of a clip (a footstep, a sound cue): the `Animator` reports it each time the playhead
 * crosses it (`AnimationEventList`, type `marker`). glTF files carry them in the animation's extras,
 * `extras: { markers: [{ time, name }] }` (docs/guide/events.md).
 */
export interface ClipMarker {
  /** Seconds, in [0, clip duration]. */
  readonly time: number;
  readonly name: string;
}

/**
 * An avatar expression's weight over time (VRMC_vrm_animation-1.0 `expressions`: the x translation of the
 * expression's node is its weight). Sampled like a one-component channel ({@link AnimationChannel.values} gives the
 * layout per interpolation).
 */
export interface ExpressionTrack {
  /** The expression's preset or custom name (`ExpressionAsset.name`). */
  readonly expression: string;
  readonly interpolation: 'STEP' | 'LINEAR' | 'CUBICSPLINE';
  /** `Float32Array(k)`: key times in seconds, strictly increasing. */
  readonly times: Float32Array;
  /** Weights in [0, 1], one per key (CUBICSPLINE: in-tangent, value, out-tangent per key). */
  readonly values: Float32Array;
}

/**
 * Where an avatar looks over time (VRMC_vrm_animation-1.0 `lookAt`): the look-at node's rotation, whose +Z axis
 * is the gaze direction in the avatar's head space.
 */
export interface LookAtTrack {
  readonly interpolation: 'STEP' | 'LINEAR' | 'CUBICSPLINE';
  /** `Float32Array(k)`: key times in seconds, strictly increasing. */
  readonly times: Float32Array;
  /** Quaternions (x, y, z, w), 4 per key (CUBICSPLINE: 12 per key, in-tangent, value, out-tangent). */
  readonly values: Float32Array;
}

/** A keyframe clip: channels over a time range [0, duration] seconds. */
export interface AnimationClip {
  readonly name: string;
  /** Seconds: the largest key time of any channel (0 for a clip with a single key). */
  readonly duration: number;
  readonly channels: readonly AnimationChannel[];
  /** Named instants of the clip, any order (absent: none). */
  readonly markers?: readonly ClipMarker[];
  /** Avatar expression weights over time (VRM Animation clips; absent: none). */
  readonly expressionTracks?: readonly ExpressionTrack[];
  /** Where the avatar looks over time (VRM Animation clips; absent: none). */
  readonly lookAtTrack?: LookAtTrack;
}

/**
 * Number of components per element of a channel: 3 (translation, scale), 4 (rotation), or for `weights` its
 * `morphTargetCount` (0 when missing, which {@link findChannelProblem} reports).
 */
export function componentCount(channel: Pick<AnimationChannel, 'path' | 'morphTargetCount'>): number {
  const path = channel.path;
  return path === 'rotation' ? 4 : path === 'weights' ? channel.morphTargetCount ?? 0 : 3;
}

/** Floats per key in `AnimationChannel.values` for an interpolation with c components per element. */
export function keyStride(interpolation: Interpolation, c: number): number {
  switch (interpolation) {
    case 'CUBICSPLINE': return 3 * c;
    case 'HERMITE': return 2 * c;
    case 'BEZIER': return 5 * c;
    default: return c;
  }
}

/** Offset of the key's value inside its `keyStride` floats (c for CUBICSPLINE, 2c for BEZIER, else 0). */
export function keyValueOffset(interpolation: Interpolation, c: number): number {
  return interpolation === 'CUBICSPLINE' ? c : interpolation === 'BEZIER' ? 2 * c : 0;
}

/** The first thing wrong with a channel's shape, as {@link findChannelProblem} reports it. */
export type ChannelProblem =
  | { readonly kind: 'joint' }
  | { readonly kind: 'morph-weights' }
  | { readonly kind: 'no-keys' }
  | { readonly kind: 'time-not-finite'; readonly key: number }
  | { readonly kind: 'times-not-increasing'; readonly key: number }
  | { readonly kind: 'value-count'; readonly expected: number };

/**
 * Finds the first problem with a channel's shape, in this order: a joint index that is not an integer in
 * [0, jointCount); a `weights` channel without an integer `morphWeightOffset` ≥ 0 and `morphTargetCount` ≥ 1
 * (`morph-weights`); no keys; a key time that is not finite; key times not strictly increasing (`key` is the
 * first key not above its predecessor); `values.length` other than `times.length · keyStride(…)` (the
 * layouts of {@link AnimationChannel.values}). Loaders word the problem in their file's terms;
 * {@link validateAnimationChannel} in the channel's.
 * @returns the problem, or null for a channel every sampler can read
 */
export function findChannelProblem(channel: AnimationChannel, jointCount: number): ChannelProblem | null {
  const { times, values, interpolation, path, joint } = channel;
  if (!Number.isInteger(joint) || joint < 0 || joint >= jointCount) return { kind: 'joint' };
  if (path === 'weights') {
    const offset = channel.morphWeightOffset, count = channel.morphTargetCount;
    if (!(Number.isInteger(offset) && offset! >= 0 && Number.isInteger(count) && count! >= 1)) return { kind: 'morph-weights' };
  }
  if (times.length === 0) return { kind: 'no-keys' };
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i])) return { kind: 'time-not-finite', key: i };
    if (i > 0 && !(times[i] > times[i - 1])) return { kind: 'times-not-increasing', key: i };
  }
  const expected = times.length * keyStride(interpolation, componentCount(channel));
  return values.length === expected ? null : { kind: 'value-count', expected };
}

/**
 * Checks a channel's shape ({@link findChannelProblem}).
 * @throws Error naming `where` and the first problem found
 */
export function validateAnimationChannel(channel: AnimationChannel, jointCount: number, where: string): void {
  const problem = findChannelProblem(channel, jointCount);
  if (!problem) return;
  const { times, values, interpolation, path, joint } = channel;
  switch (problem.kind) {
    case 'joint': throw new Error(`${where}: channel targets joint ${joint} of ${jointCount}`);
    case 'morph-weights':
      throw new Error(`${where}: weights channel needs an integer morphWeightOffset ≥ 0 and morphTargetCount ≥ 1 (has ${channel.morphWeightOffset}, ${channel.morphTargetCount})`);
    case 'no-keys': throw new Error(`${where}: channel has no keys`);
    case 'time-not-finite': throw new Error(`${where}: key time ${problem.key} is not finite`);
    case 'times-not-increasing':
      throw new Error(`${where}: ${timesNotIncreasing(times, problem.key)}`);
    case 'value-count':
      throw new Error(`${where}: ${interpolation} ${path} channel with ${times.length} keys needs ${problem.expected} values, has ${values.length}`);
  }
}

/** The words of a `times-not-increasing` problem at `key`, shared by every loader's message. */
export function timesNotIncreasing(times: Float32Array, key: number): string {
  return `key times are not strictly increasing at key ${key} (${times[key - 1]} then ${times[key]})`;
}
