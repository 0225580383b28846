import { interpolateKey } from './trs-math.ts';

/** Which node property a track animates (glTF 2.0 §3.11: `channel.target.path`, morph weights excluded). */
export type TrackPath = 'translation' | 'rotation' | 'scale';

/** A sampler's interpolation (glTF 2.0 §3.11 "Animations", `sampler.interpolation`). */
export type TrackInterpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

/**
 * The node tree a clip moves, in the compression room's own terms (no glTF-Transform objects), nodes in depth-first
 * pre-order so node j's descendants are the nodes j + 1 … j + subtreeSizes[j] − 1.
 */
export interface MotionSkeleton {
  /** Parent of each node, −1 for a root; parents come before children (pre-order). */
  readonly parents: Int32Array;
  /** Nodes in node j's subtree, j included. */
  readonly subtreeSizes: Int32Array;
  /** Rest pose: 10 numbers per node, translation x y z, rotation x y z w, scale x y z. */
  readonly rest: Float64Array;
  /** Node names for reports ('' when the file gives none). */
  readonly names: readonly string[];
  /**
   * The points whose model-space error is measured, per node, in the node's local frame: x y z triples (metres
   * of the node's frame). See {@link virtualPoints}.
   */
  readonly points: readonly Float64Array[];
}

/** One animated property of one node, as the file gives it. */
export interface MotionTrack {
  /** Node index in {@link MotionSkeleton} order. */
  readonly node: number;
  readonly path: TrackPath;
  readonly interpolation: TrackInterpolation;
  /** Key times in seconds, increasing. */
  readonly times: Float64Array;
  /**
   * Key values, 3 (translation, scale) or 4 (rotation x y z w) per key; CUBICSPLINE: in-tangent, value,
   * out-tangent per key (glTF 2.0 Appendix C).
   */
  readonly values: Float64Array;
}

/** Components per key value of a path: 4 for rotations, 3 otherwise. */
export function strideOf(path: TrackPath): number {
  return path === 'rotation' ? 4 : 3;
}

/** Offset of a path's components inside the 10-number translation, rotation, scale record. */
export function trsOffsetOf(path: TrackPath): number {
  return path === 'translation' ? 0 : path === 'rotation' ? 3 : 7;
}

/** Index of the last key at or before `t` (0 before the first key). */
function keyBefore(times: Float64Array, t: number): number {
  let lo = 0, hi = times.length - 1;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid; else hi = mid;
  }
  return lo;
}

/**
 * The track's value at `t` seconds into `out[o..)`, as glTF 2.0 §3.11 and Appendix C define its interpolation:
 * clamped to the first and last keys; STEP holds a key's value until the next key; LINEAR lerps (slerps
 * rotations along the shorter arc); CUBICSPLINE evaluates the cubic Hermite spline with tangents scaled by
 * the key interval, rotations normalised after.
 */
export function sampleTrack(track: MotionTrack, t: number, out: Float64Array, o: number): void {
  const { times, values, interpolation } = track;
  const stride = strideOf(track.path), n = times.length;
  const cubic = interpolation === 'CUBICSPLINE';
  const valueAt = (k: number) => (cubic ? 3 * k + 1 : k) * stride;
  const a = keyBefore(times, t);
  if (a === n - 1 || t <= times[0] || interpolation === 'STEP') {
    for (let c = 0; c < stride; c++) out[o + c] = values[valueAt(t <= times[0] ? 0 : a) + c];
    return;
  }
  const dt = times[a + 1] - times[a], u = (t - times[a]) / dt;
  if (interpolation === 'LINEAR') {
    interpolateKey(out, o, values, a, a + 1, u, stride);
    return;
  }
  const u2 = u * u, u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  const va = valueAt(a), vb = valueAt(a + 1), outTangentA = va + stride, inTangentB = vb - stride;
  let len = 0;
  for (let c = 0; c < stride; c++) {
    const v = h00 * values[va + c] + h10 * dt * values[outTangentA + c] + h01 * values[vb + c] + h11 * dt * values[inTangentB + c];
    out[o + c] = v;
    len += v * v;
  }
  if (stride === 4) for (let c = 0; c < 4; c++) out[o + c] /= Math.sqrt(len);
}

/**
 * The times the error is measured at for a clip: every key time of every track, the midpoint of each gap
 * between them (where linear interpolation of a rotation departs most from its keys), and, for STEP tracks, an
 * instant `stepLead` before each key (where the step's LINEAR form holds the previous value), sorted, distinct.
 * CUBICSPLINE tracks add `cubicDivisions − 1` times inside each key interval, so their LINEAR form follows the curve.
 */
export function clipSampleTimes(tracks: readonly MotionTrack[], cubicDivisions = 4): Float64Array {
  const set = new Set<number>();
  for (const track of tracks) {
    const { times } = track;
    for (let k = 0; k < times.length; k++) {
      set.add(times[k]);
      if (k === 0) continue;
      if (track.interpolation === 'STEP') set.add(times[k] - stepLead(times[k] - times[k - 1]));
      if (track.interpolation === 'CUBICSPLINE') {
        for (let d = 1; d < cubicDivisions; d++) set.add(times[k - 1] + ((times[k] - times[k - 1]) * d) / cubicDivisions);
      }
    }
  }
  const keys = Float64Array.from(set).sort();
  const all = new Float64Array(Math.max(0, 2 * keys.length - 1));
  for (let i = 0; i < keys.length; i++) {
    all[2 * i] = keys[i];
    if (i + 1 < keys.length) all[2 * i + 1] = (keys[i] + keys[i + 1]) / 2;
  }
  return all;
}

/** How long before a STEP key its LINEAR form still holds the previous value: a tenth of the gap, at most 1 ms. */
export function stepLead(gap: number): number {
  return Math.min(0.001, gap / 10);
}

/**
 * A track as LINEAR keys that reproduce it at every time of `sampleTimes` (from {@link clipSampleTimes}): a LINEAR
 * track's own keys; a STEP track's keys, each preceded by the previous value {@link stepLead} earlier; a
 * CUBICSPLINE track sampled at every sample time inside its key range.
 * @returns key times (seconds) and values (stride per key)
 */
export function linearKeysOf(track: MotionTrack, sampleTimes: Float64Array): { times: Float64Array; values: Float64Array } {
  const stride = strideOf(track.path), { times } = track;
  if (track.interpolation === 'LINEAR') return { times: Float64Array.from(times), values: Float64Array.from(track.values) };
  let keyTimes: number[];
  if (track.interpolation === 'STEP') {
    keyTimes = [];
    for (let k = 0; k < times.length; k++) {
      if (k > 0) keyTimes.push(times[k] - stepLead(times[k] - times[k - 1]));
      keyTimes.push(times[k]);
    }
  } else {
    keyTimes = Array.from(sampleTimes).filter((t) => t >= times[0] && t <= times[times.length - 1]);
  }
  const values = new Float64Array(keyTimes.length * stride);
  keyTimes.forEach((t, k) => sampleTrack(track, t, values, k * stride));
  return { times: Float64Array.from(keyTimes), values };
}
