/** Which local-pose property a channel animates. */
export type ChannelPath = 'translation' | 'rotation' | 'scale';

/**
 * How a sampler interpolates between keyframes (SEEDS S4 item 4: "linear, Hermite, Bézier, spline").
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
  /** Target joint: an index into the skeleton (after the loader's parent-first reordering). */
  readonly joint: number;
  readonly path: ChannelPath;
  readonly interpolation: Interpolation;
  /** `Float32Array(k)`: key times in seconds, strictly increasing. */
  readonly times: Float32Array;
  /**
   * Key values, c = 3 (translation, scale) or 4 (rotation x, y, z, w) components per element; key j starts
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

/**
 * Checks a channel's shape: at least one key, strictly increasing finite times, `values.length` matching
 * the interpolation's layout, a non-negative joint index below `jointCount`.
 * @throws Error naming `where` and the first problem found
 */
export function validateAnimationChannel(channel: AnimationChannel, jointCount: number, where: string): void {
  const { times, values, interpolation, path, joint } = channel;
  if (!Number.isInteger(joint) || joint < 0 || joint >= jointCount) {
    throw new Error(`${where}: channel targets joint ${joint} of ${jointCount}`);
  }
  if (times.length === 0) throw new Error(`${where}: channel has no keys`);
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i])) throw new Error(`${where}: key time ${i} is not finite`);
    if (i > 0 && !(times[i] > times[i - 1])) {
      throw new Error(`${where}: key times are not strictly increasing at key ${i} (${times[i - 1]} then ${times[i]})`);
    }
  }
  const expected = times.length * keyStride(interpolation, componentCount(path));
  if (values.length !== expected) {
    throw new Error(`${where}: ${interpolation} ${path} channel with ${times.length} keys needs ${expected} values, has ${values.length}`);
  }
}
