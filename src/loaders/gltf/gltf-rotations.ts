/** How far a quaternion's length may stray from 1 and be kept as stored: float noise, and the rounding of
 * rotations quantised to normalized bytes or shorts (up to about 0.8 %), which every interpolation normalises anyway. */
const UNIT_TOLERANCE = 1e-2;

/**
 * Normalises the quaternions (x, y, z, w) stored in `values` at `offset + k·stride`, k = 0…count−1, in place:
 * every one when `all` is true, else only those whose length is more than 1 % away from 1 (closer ones are
 * kept exactly as the file stores them). glTF 2.0 §3.5.3 and §3.11 require unit rotations; exporters write
 * slightly or plainly longer ones, and rotations quantised to normalized bytes or shorts (KHR_mesh_quantization,
 * glTF 2.0 §3.11) are only about unit. A rotation with length 0 or a non-finite length cannot be normalised and
 * is reported, not changed.
 *
 * Keys that slerp or step (LINEAR, STEP) pass `all`: slerp's angle comes from the keys' dot product, so a key
 * off unit length by ε moves the interpolated rotation by O(ε) unless both keys are normalised first, which
 * is the Khronos glTF Sample Viewer's rule (and a STEP key is the pose itself).
 *
 * @param all normalise every quaternion, not only those more than 1 % away from unit length
 * @returns how many quaternions were more than 1 % away from unit length (and normalised), and the index k of the first one
 *   with length 0 or not finite (−1 when none)
 */
export function normalizeRotations(values: Float32Array, offset: number, stride: number, count: number, all = false): { notUnit: number; degenerate: number } {
  let notUnit = 0;
  for (let k = 0; k < count; k++) {
    const o = offset + k * stride;
    const length = Math.hypot(values[o], values[o + 1], values[o + 2], values[o + 3]);
    if (!(length > 0) || !Number.isFinite(length)) return { notUnit, degenerate: k };
    if (Math.abs(length - 1) <= UNIT_TOLERANCE) {
      if (!all || length === 1) continue;
    } else {
      notUnit++;
    }
    for (let c = 0; c < 4; c++) values[o + c] /= length;
  }
  return { notUnit, degenerate: -1 };
}
