import { quat } from 'gl-matrix';
import { normalizeQuatAt } from '../animation/samplers/linear.ts';
import type { OctopusRig } from './octopus-rig.ts';

/**
 * The two axes an octopus clip turns a tentacle chain joint about, in the joint's parent frame (the same
 * coordinates in every frame of the chain, since every rest rotation of the chain is about b):
 * `bend` b, the tentacle's horizontal bend axis (a positive angle raises the tentacle outward and up, a
 * negative one curls it in and under), and `sway` a = b × Y = (−b_z, 0, b_x), sideways out of the
 * tentacle's plane.
 */
export interface TentacleAxes {
  readonly bend: Float64Array;
  readonly sway: Float64Array;
}

/** The bend and sway axes of tentacle `k` (unit vectors). */
export function tentacleAxes(rig: OctopusRig, k: number): TentacleAxes {
  const b = rig.tentacles[k].curve.bendAxis;
  return { bend: Float64Array.of(b[0], b[1], b[2]), sway: Float64Array.of(-b[2], 0, b[0]) };
}

/** `out` = d/dφ of the unit quaternion rot(axis, φ) = (axis·sin(φ/2), cos(φ/2)), per radian. */
function axisAngleDerivative(out: Float64Array, axis: Float64Array, angle: number): Float64Array {
  const c = 0.5 * Math.cos(angle / 2);
  out[0] = axis[0] * c; out[1] = axis[1] * c; out[2] = axis[2] * c;
  out[3] = -0.5 * Math.sin(angle / 2);
  return out;
}

/**
 * A tentacle chain joint's local rotation `q = rest · rot(b, bend) · rot(a, sway)` (angles in radians)
 * and optionally its time derivative dq/dt for angular rates `bendRate`, `swayRate` (radians per second),
 * in quaternion units per second: `rest · (rot′(b)·bendRate · rot(a) + rot(b) · rot′(a)·swayRate)`.
 * Allocates its few quaternions of scratch (clips are built once, at load; no module-level state).
 *
 * @param out `Float64Array(4)`: q (x, y, z, w)
 * @param rate `Float64Array(4)` for dq/dt, or null
 * @param rest `Float64Array(4)`: the joint's rest rotation (unit quaternion)
 */
export function tentacleJointRotation(
  out: Float64Array, rate: Float64Array | null, rest: Float64Array, axes: TentacleAxes,
  bend: number, sway: number, bendRate = 0, swayRate = 0,
): Float64Array {
  const bendQ = quat.setAxisAngle(new Float64Array(4), axes.bend, bend);
  const swayQ = quat.setAxisAngle(new Float64Array(4), axes.sway, sway);
  quat.multiply(out, rest, bendQ);
  quat.multiply(out, out, swayQ);
  if (rate) {
    const bendDerivative = axisAngleDerivative(new Float64Array(4), axes.bend, bend);
    const swayDerivative = axisAngleDerivative(new Float64Array(4), axes.sway, sway);
    const term = quat.multiply(new Float64Array(4), bendDerivative, swayQ);
    quat.scale(term, term, bendRate);
    quat.multiply(rate, bendQ, swayDerivative);
    quat.scale(rate, rate, swayRate);
    quat.add(rate, rate, term);
    quat.multiply(rate, rest, rate);
  }
  return out;
}

/**
 * Stores the unit quaternion `q` as float32 at `values[offset…offset+4)` such that the samplers'
 * renormalisation (`normalizeQuatAt`, applied after every cubic interpolation) leaves it bit-for-bit
 * unchanged: the stored value is a fixed point of that rounding, so a clip sampled exactly at a key time
 * returns the key's stored value exactly. `q` is first flipped into the hemisphere of `previous` (the
 * preceding key's stored value, or null), so consecutive keys satisfy q_j · q_{j+1} ≥ 0 as the cubic
 * samplers expect.
 *
 * @returns +1 if q was stored as is, −1 if it was negated (negate its tangent too)
 */
export function storeKeyQuaternion(values: Float32Array, offset: number, q: ArrayLike<number>, previous: ArrayLike<number> | null): 1 | -1 {
  let sign: 1 | -1 = 1;
  if (previous && q[0] * previous[0] + q[1] * previous[1] + q[2] * previous[2] + q[3] * previous[3] < 0) sign = -1;
  for (let i = 0; i < 4; i++) values[offset + i] = sign * q[i];
  // Renormalising a float32 unit quaternion moves it by at most an ulp or so; a few rounds settle.
  for (let round = 0; round < 8; round++) {
    const x = values[offset], y = values[offset + 1], z = values[offset + 2], w = values[offset + 3];
    normalizeQuatAt(values, offset);
    if (values[offset] === x && values[offset + 1] === y && values[offset + 2] === z && values[offset + 3] === w) return sign;
  }
  throw new Error(`octopus clip: quaternion (${Array.from(q).join(', ')}) does not settle under renormalisation`);
}
