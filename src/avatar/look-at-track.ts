import type { LookAtTrack } from '../asset/animation-clip.ts';
import { findKeyframe } from '../animation/keyframe-search.ts';
import { hermiteInterval } from '../animation/samplers/cubic-hermite.ts';
import { normalizeQuatAt, slerpQuaternions } from '../animation/samplers/linear.ts';
import type { LookAtController } from './look-at.ts';

const DEGREES = 180 / Math.PI;

/**
 * A clip's look-at track (VRM Animation `lookAt`, `AnimationClip.lookAtTrack`) driving an avatar's look-at: the
 * track's rotation at a time, read as YXZ Euler angles, is the look-at yaw (about Y) and pitch (about X) in
 * degrees, as three-vrm-animation's look-at proxy sets them. Written only while the look-at has no point target
 * (a target the caller set wins, as three-vrm's look-at target overrides the clip each update); it puts the
 * look-at in `angles` mode. Sampling as glTF 2.0 Appendix C for rotations: STEP, LINEAR (slerp,
 * `animation/samplers/linear.ts`), CUBICSPLINE (cubic Hermite, then normalised); clamped to the first and last
 * keys. Allocates nothing after construction.
 */
export class LookAtTrackSampler {
  readonly track: LookAtTrack;
  private cursor = 0;
  private readonly clock = new Float64Array(1);
  private readonly factor = new Float64Array(1);
  private readonly q = new Float32Array(4);

  constructor(track: LookAtTrack) {
    this.track = track;
  }

  /** Sets `lookAt`'s yaw and pitch from the track at the time `clock[0]` (seconds), unless it looks at a point. */
  sample(lookAt: LookAtController, clock: Float64Array): void {
    if (lookAt.mode === 'point') return;
    this.sampleRotation(clock[0]);
    // YXZ Euler of the rotation matrix (three.js Euler.setFromQuaternion, order 'YXZ'): pitch = asin(−m₂₃), yaw = atan2(m₁₃, m₃₃).
    const q = this.q, x = q[0], y = q[1], z = q[2], w = q[3];
    const m23 = 2 * (y * z - w * x), m13 = 2 * (x * z + w * y), m33 = 1 - 2 * (x * x + y * y);
    const m31 = 2 * (x * z - w * y), m11 = 1 - 2 * (y * y + z * z);
    const s = m23 < -1 ? -1 : m23 > 1 ? 1 : m23;
    lookAt.pitch = Math.asin(-s) * DEGREES;
    lookAt.yaw = (Math.abs(s) < 0.9999999 ? Math.atan2(m13, m33) : Math.atan2(-m31, m11)) * DEGREES;
    lookAt.mode = 'angles';
  }

  /** The track's unit quaternion at `t` into `q`. */
  private sampleRotation(t: number): void {
    const { times, values, interpolation } = this.track;
    const cubic = interpolation === 'CUBICSPLINE';
    const stride = cubic ? 12 : 4, at = cubic ? 4 : 0, q = this.q;
    const last = times.length - 1;
    let key = -1;
    if (!(t > times[0]) || last === 0) key = 0;
    else if (t >= times[last]) key = last;
    if (key >= 0) {
      const o = stride * key + at;
      q[0] = values[o]; q[1] = values[o + 1]; q[2] = values[o + 2]; q[3] = values[o + 3];
      normalizeQuatAt(q, 0);
      return;
    }
    this.clock[0] = t;
    const k = findKeyframe(times, this.clock, this.cursor);
    this.cursor = k;
    if (interpolation === 'STEP') {
      q[0] = values[4 * k]; q[1] = values[4 * k + 1]; q[2] = values[4 * k + 2]; q[3] = values[4 * k + 3];
    } else if (interpolation === 'LINEAR') {
      this.factor[0] = (t - times[k]) / (times[k + 1] - times[k]);
      slerpQuaternions(values, 4 * k, 4 * k + 4, this.factor, 0, q, 0);
    } else {
      // Key j: in-tangent 12j, value 12j + 4, out-tangent 12j + 8.
      hermiteInterval(times, values, k, this.clock, 12 * k + 4, 12 * k + 8, 12 * k + 16, 12 * k + 12, 4, q, 0);
    }
    normalizeQuatAt(q, 0);
  }
}
