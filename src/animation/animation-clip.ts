/** Which local-pose property a channel animates. */
export type ChannelPath = 'translation' | 'rotation' | 'scale';

/**
 * How a sampler interpolates between keyframes.
 * - `STEP`: the value of the key at or before t (glTF 2.0 §3.11 "Animations", Appendix C).
 * - `LINEAR`: lerp for vectors, shortest-arc slerp for rotations.
 * - `CUBICSPLINE`: glTF cubic Hermite spline with in/out tangents per key (glTF 2.0 Appendix C).
 */
export type Interpolation = 'STEP' | 'LINEAR' | 'CUBICSPLINE';

/**
 * One animated property of one joint: a sampler (times, values, interpolation) bound to a target.
 * Values are float and already de-normalised by the loader.
 */
export interface AnimationChannel {
  /** Target joint: an index into the skeleton (after the loader's parent-first reordering). */
  readonly joint: number;
  readonly path: ChannelPath;
  readonly interpolation: Interpolation;
  /** `Float32Array(k)`: key times in seconds, strictly increasing. */
  readonly times: Float32Array;
  /**
   * Key values, c = 3 (translation, scale) or 4 (rotation x, y, z, w) components per element:
   * `Float32Array(k·c)` for STEP / LINEAR; `Float32Array(3·k·c)` for CUBICSPLINE, each key stored as
   * in-tangent, value, out-tangent (glTF 2.0 Appendix C).
   */
  readonly values: Float32Array;
}

/** A keyframe clip: channels over a time range [0, duration] seconds. */
export interface AnimationClip {
  readonly name: string;
  /** Seconds: the largest key time of any channel (0 for a clip with a single key). */
  readonly duration: number;
  readonly channels: readonly AnimationChannel[];
}

/** Number of components per element for a channel path. */
export function componentCount(path: ChannelPath): 3 | 4 {
  return path === 'rotation' ? 4 : 3;
}
