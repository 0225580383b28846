/**
 * How the IK jobs apply a correction rotation to a joint, as ozz-animation's IK jobs do: weighted from the
 * identity, then multiplied onto the joint's local rotation. Outputs into caller-owned arrays, no allocation.
 */

/**
 * Weights a correction as ozz-animation's IK jobs do: w made non-negative (the same rotation, so the blend takes
 * the short way), then for a weight below 1 a normalised lerp from identity (nlerp). The weight is
 * `weights[at]`, in (0, 1].
 */
export function weightCorrection(q: Float64Array, weights: Float64Array, at: number): Float64Array {
  if (q[3] < 0) { q[0] = -q[0]; q[1] = -q[1]; q[2] = -q[2]; q[3] = -q[3]; }
  const weight = weights[at];
  if (weight < 1) {
    const x = q[0] * weight, y = q[1] * weight, z = q[2] * weight, w = 1 - weight + q[3] * weight;
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    q[0] = x / l; q[1] = y / l; q[2] = z / l; q[3] = w / l;
  }
  return q;
}

/**
 * Multiplies joint `joint`'s local rotation by `correction` on the right (`r' = r·c`: a rotation in the joint's
 * own space, as ozz-animation's corrections are applied), stored as float32. Leaves the pose as it is when the
 * product is not finite.
 */
export function correctLocalRotation(rotations: Float32Array, joint: number, c: Float64Array): void {
  const o = 4 * joint;
  const ax = rotations[o], ay = rotations[o + 1], az = rotations[o + 2], aw = rotations[o + 3];
  const bx = c[0], by = c[1], bz = c[2], bw = c[3];
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  if (!Number.isFinite(x + y + z + w)) return;
  rotations[o] = x; rotations[o + 1] = y; rotations[o + 2] = z; rotations[o + 3] = w;
}
