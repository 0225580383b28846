import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import {
  correctLocalRotation, finite3, invertAffine, multiplyAffine, quatAxisAngle, quatAxisCos, quatBetween, quatMultiply,
  quatRotate, setIdentity, setVector3, transformPoint, transformVector, weightCorrection,
} from './ik-math.ts';
import { isAncestor, jointLabel, poseJointMatrix, resolveJoint } from './pose-joint-matrix.ts';

/** What a {@link TwoBoneIkJob} is set up with; joints by skeleton index or name. */
export interface TwoBoneIkOptions {
  /** The chain's first joint (shoulder, hip): an ancestor of `mid`. */
  start: number | string;
  /** The middle joint (elbow, knee): an ancestor of `end`. */
  mid: number | string;
  /** The end joint (hand, ankle): what reaches the target. */
  end: number | string;
  /** Initial {@link TwoBoneIkJob.target}, model space; default (0, 0, 0). */
  target?: ArrayLike<number>;
  /** Initial {@link TwoBoneIkJob.pole}, model space; default (0, 1, 0). */
  pole?: ArrayLike<number>;
  /** Initial {@link TwoBoneIkJob.midAxis}, the mid joint's local space; default (0, 0, 1). */
  midAxis?: ArrayLike<number>;
  /** Initial {@link TwoBoneIkJob.soften}; default 1. */
  soften?: number;
  /** Initial {@link TwoBoneIkJob.twistAngle}, radians; default 0. */
  twistAngle?: number;
  /** Initial {@link TwoBoneIkJob.weight}; default 1. */
  weight?: number;
}

/**
 * Two-bone inverse kinematics (shoulder–elbow–hand, hip–knee–ankle) on the local pose, with the semantics of
 * ozz-animation's `IKTwoBoneJob`: the law of cosines gives the mid joint's angle for the start-to-target
 * distance, then the start joint turns the end onto the target and rolls the chain's plane onto the pole's.
 * Both results are corrections in the joints' own spaces, multiplied into their local rotations (`r' = r·c`),
 * so blending, layers and the GPU path stay as they are. The three joints must be ancestors of one another
 * but need not be parent and child (joints between them keep their local transforms). Exact for joints with
 * uniform scale (the correction then commutes with the scale).
 *
 * Set-up (constructor) resolves and checks the joints once; each frame the caller writes the public inputs and
 * `AnimatedModel.evaluate` runs {@link apply} (`model.poseJobs.push(job)`). A target in world space goes to
 * model space through the inverse of `AnimatedModel.world` (the pose's model space has no origin subtracted).
 *
 * Fallbacks ({@link apply} never throws and never writes NaN): weight ≤ 0 (or NaN) leaves the pose untouched,
 * bit for bit; a non-finite target, pole, mid axis, soften or twist angle, a zero mid axis, a bone of zero
 * length or a joint scaled to zero in the pose leave it untouched too, with {@link reached} false; a pole of
 * zero length or parallel to the start-to-target line keeps the chain's current bend plane (no roll onto the
 * pole); a target at the start joint turns nothing but the mid joint.
 */
export class TwoBoneIkJob implements PoseJob {
  /** Skeleton indices of the chain's joints. */
  readonly start: number;
  readonly mid: number;
  readonly end: number;
  /** `Float64Array(3)`: where the end joint should be, model space (the file's units). Written by the caller. */
  readonly target = new Float64Array(3);
  /**
   * `Float64Array(3)`: the pole vector, model space: the direction the mid joint (elbow, knee) points to, as
   * seen from the start-to-target line. The chain's plane flips when the target crosses the pole's line.
   */
  readonly pole = new Float64Array([0, 1, 0]);
  /**
   * `Float64Array(3)`: the mid joint's hinge axis in its local space (normalised at each apply; not zero). A
   * positive rotation about it opens the angle between the two bones, which also says which way the chain bends;
   * for a bent chain it is `(mid→start) × (mid→end)` in the mid joint's space ({@link midAxisFromPose}).
   */
  readonly midAxis = new Float64Array([0, 0, 1]);
  /**
   * Soften ratio in [0, 1] (clamped): beyond `soften × (chain length)` from the start joint the end lags behind the
   * target, easing the last degrees before the chain straightens instead of snapping (ozz-animation's soften:
   * `1 − 3⁴ / (α + 3)⁴` of the remaining length, α the distance past that point over the remaining length). 1: none.
   */
  soften = 1;
  /** Radians: the chain rolled about the start-to-target line after aligning its plane with the pole. */
  twistAngle = 0;
  /** How much of the correction applies, [0, 1] (clamped): nlerp from identity. 0 leaves the pose untouched. */
  weight = 1;
  /**
   * Output of the last {@link apply}: the target was within reach — no farther than `soften × (chain length)`,
   * farther than |bone₁ − bone₂| — and the weight 1. False after a fallback.
   */
  reached = false;
  /** `Float64Array(4)`: the last correction multiplied into the start joint's local rotation (x, y, z, w). */
  readonly startCorrection = new Float64Array([0, 0, 0, 1]);
  /** `Float64Array(4)`: the last correction multiplied into the mid joint's local rotation (x, y, z, w). */
  readonly midCorrection = new Float64Array([0, 0, 0, 1]);

  private readonly startMatrix = new Float64Array(16);
  private readonly midMatrix = new Float64Array(16);
  private readonly endMatrix = new Float64Array(16);
  private readonly relative = new Float64Array(16);
  private readonly invStart = new Float64Array(16);
  private readonly invMid = new Float64Array(16);
  private readonly v = new Float64Array(3);
  private readonly q = new Float64Array(4);
  private readonly q2 = new Float64Array(4);

  /**
   * @throws RangeError for an unknown joint (naming it and its role), a joint repeated, a chain whose joints are
   *   not ancestors of one another (naming both), a vector option that is not three finite numbers (or a zero mid
   *   axis), a soften, twist angle or weight that is not a finite number
   */
  constructor(skeleton: Skeleton, options: TwoBoneIkOptions) {
    this.start = resolveJoint(skeleton, options.start, 'TwoBoneIkJob start');
    this.mid = resolveJoint(skeleton, options.mid, 'TwoBoneIkJob mid');
    this.end = resolveJoint(skeleton, options.end, 'TwoBoneIkJob end');
    if (this.start === this.mid || this.mid === this.end || this.start === this.end) {
      throw new RangeError(`TwoBoneIkJob: start, mid and end must be three different joints (a chain of zero length), got ${jointLabel(skeleton, this.start)}, ${jointLabel(skeleton, this.mid)}, ${jointLabel(skeleton, this.end)}`);
    }
    if (!isAncestor(skeleton, this.start, this.mid)) throw new RangeError(`TwoBoneIkJob: start ${jointLabel(skeleton, this.start)} is not an ancestor of mid ${jointLabel(skeleton, this.mid)}`);
    if (!isAncestor(skeleton, this.mid, this.end)) throw new RangeError(`TwoBoneIkJob: mid ${jointLabel(skeleton, this.mid)} is not an ancestor of end ${jointLabel(skeleton, this.end)}`);
    if (options.target !== undefined) setVector3(this.target, options.target, 'TwoBoneIkJob target', false);
    if (options.pole !== undefined) setVector3(this.pole, options.pole, 'TwoBoneIkJob pole', false);
    if (options.midAxis !== undefined) setVector3(this.midAxis, options.midAxis, 'TwoBoneIkJob midAxis', true);
    for (const key of ['soften', 'twistAngle', 'weight'] as const) {
      const value = options[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`TwoBoneIkJob ${key} must be a finite number, got ${String(value)}`);
      this[key] = value;
    }
  }

  /**
   * Corrects the start and mid joints' local rotations in `pose` so that the end joint reaches {@link target}
   * (see the class for the fallbacks); sets {@link reached}, {@link startCorrection}, {@link midCorrection}.
   * Allocates nothing.
   */
  apply(pose: LocalPose, skeleton: Skeleton): void {
    this.reached = false;
    const weight = this.weight;
    if (!(weight > 0)) {
      setIdentity(this.startCorrection); setIdentity(this.midCorrection);
      return;
    }
    if (!this.solve(pose, skeleton, weight < 1 ? weight : 1)) {
      setIdentity(this.startCorrection); setIdentity(this.midCorrection);
      this.reached = false;
      return;
    }
    correctLocalRotation(pose.rotations, this.start, this.startCorrection);
    correctLocalRotation(pose.rotations, this.mid, this.midCorrection);
  }

  /** Computes the two corrections; false (a fallback) when nothing should change. */
  private solve(pose: LocalPose, skeleton: Skeleton, weight: number): boolean {
    const target = this.target, pole = this.pole, axis = this.midAxis, soften = this.soften, twist = this.twistAngle;
    if (!finite3(target) || !finite3(pole) || !finite3(axis) || !Number.isFinite(soften) || !Number.isFinite(twist)) return false;
    if (skeleton.jointCount <= Math.max(this.start, this.mid, this.end)) return false;
    const axisLength = Math.hypot(axis[0], axis[1], axis[2]);
    if (!(axisLength > 0)) return false;
    const nx = axis[0] / axisLength, ny = axis[1] / axisLength, nz = axis[2] / axisLength;

    const Ms = poseJointMatrix(this.startMatrix, skeleton, pose, this.start);
    const Mm = multiplyAffine(this.midMatrix, Ms, poseJointMatrix(this.relative, skeleton, pose, this.mid, this.start));
    const Me = multiplyAffine(this.endMatrix, Mm, poseJointMatrix(this.relative, skeleton, pose, this.end, this.mid));
    if (!invertAffine(this.invStart, Ms) || !invertAffine(this.invMid, Mm)) return false;
    const v = this.v;

    // The bones in the mid joint's space (_m) and in the start joint's (_s, the start joint at 0).
    transformPoint(v, this.invMid, Ms[12], Ms[13], Ms[14]);
    const smx = -v[0], smy = -v[1], smz = -v[2]; // start → mid
    transformPoint(v, this.invMid, Me[12], Me[13], Me[14]);
    const mex = v[0], mey = v[1], mez = v[2]; // mid → end
    transformPoint(v, this.invStart, Mm[12], Mm[13], Mm[14]);
    const msx = v[0], msy = v[1], msz = v[2]; // start → mid
    transformPoint(v, this.invStart, Me[12], Me[13], Me[14]);
    const esx = v[0], esy = v[1], esz = v[2]; // start → end
    const upper2 = msx * msx + msy * msy + msz * msz;
    const lower2 = (esx - msx) ** 2 + (esy - msy) ** 2 + (esz - msz) ** 2;
    const startEnd2 = esx * esx + esy * esy + esz * esz;
    if (!(upper2 > 0) || !(lower2 > 0) || !Number.isFinite(upper2 + lower2)) return false;
    const upper = Math.sqrt(upper2), lower = Math.sqrt(lower2);

    // The target in the start joint's space, pulled in by the soften ratio.
    transformPoint(v, this.invStart, target[0], target[1], target[2]);
    let tx = v[0], ty = v[1], tz = v[2];
    const distance = Math.hypot(tx, ty, tz);
    const chain = upper + lower;
    const da = chain * Math.min(1, Math.max(0, soften)), ds = chain - da;
    let reach = distance;
    if (distance > da && distance > 0 && ds > 0) {
      const alpha = (distance - da) / ds;
      const ratio = 81 / (alpha + 3) ** 4;
      reach = da + ds - ds * ratio;
      const scale = reach / distance;
      tx *= scale; ty *= scale; tz *= scale;
    }
    const reachable = distance <= da && distance > Math.abs(upper - lower);

    // Mid joint: law of cosines for the angle between the bones now and for the target distance.
    const inv2ul = 0.5 / (upper * lower);
    const cosWanted = clamp1((upper2 + lower2 - reach * reach) * inv2ul);
    const cosNow = clamp1((upper2 + lower2 - startEnd2) * inv2ul);
    // The angle now is negative when the chain bends against the mid axis.
    const sideX = smy * nz - smz * ny, sideY = smz * nx - smx * nz, sideZ = smx * ny - smy * nx;
    const backward = sideX * mex + sideY * mey + sideZ * mez < 0;
    const angleNow = backward ? -Math.acos(cosNow) : Math.acos(cosNow);
    const midRotation = quatAxisAngle(this.midCorrection, nx, ny, nz, Math.acos(cosWanted) - angleNow);

    // Start joint: turn the corrected end onto the target, then roll the chain's plane onto the pole's.
    quatRotate(v, midRotation, mex, mey, mez);
    transformVector(v, Mm, v[0], v[1], v[2]);
    transformVector(v, this.invStart, v[0], v[1], v[2]);
    const endToTarget = quatBetween(this.q, msx + v[0], msy + v[1], msz + v[2], tx, ty, tz);
    const start = this.startCorrection;
    start.set(endToTarget);
    const reach2 = tx * tx + ty * ty + tz * tz;
    if (reach2 > 0) {
      transformVector(v, this.invStart, pole[0], pole[1], pole[2]);
      const px = v[0], py = v[1], pz = v[2];
      // The pole plane's normal, target × pole, and the chain plane's, the mid axis after endToTarget.
      const rx = ty * pz - tz * py, ry = tz * px - tx * pz, rz = tx * py - ty * px;
      transformVector(v, Mm, nx, ny, nz);
      transformVector(v, this.invStart, v[0], v[1], v[2]);
      quatRotate(v, endToTarget, v[0], v[1], v[2]);
      const jx = v[0], jy = v[1], jz = v[2];
      const rl = Math.hypot(rx, ry, rz), jl = Math.hypot(jx, jy, jz), tl = Math.sqrt(reach2);
      if (rl > 1e-12 * tl * Math.hypot(px, py, pz) && jl > 0) {
        const cos = clamp1((rx * jx + ry * jy + rz * jz) / (rl * jl));
        const sign = jx * px + jy * py + jz * pz < 0 ? -1 : 1;
        quatAxisCos(this.q2, (sign * tx) / tl, (sign * ty) / tl, (sign * tz) / tl, cos);
        quatMultiply(start, this.q2, start);
      }
      if (twist !== 0) {
        quatAxisAngle(this.q2, tx / tl, ty / tl, tz / tl, twist);
        quatMultiply(start, this.q2, start);
      }
    }
    weightCorrection(start, weight);
    weightCorrection(this.midCorrection, weight);
    if (!Number.isFinite(start[0] + start[1] + start[2] + start[3]) || !Number.isFinite(midRotation[0] + midRotation[1] + midRotation[2] + midRotation[3])) return false;
    this.reached = reachable && weight >= 1;
    return true;
  }
}

function clamp1(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/**
 * The hinge axis of the mid joint for a bent chain in `pose`: `(mid→start) × (mid→end)`, normalised, in the mid
 * joint's local space — the {@link TwoBoneIkJob.midAxis} that keeps the chain bending the way it bends in that
 * pose (usually the rest pose or a clip's first frame). For set-up.
 * @param out `Float64Array(3)`; written and returned
 * @throws RangeError for unknown joints, or when the chain is straight or has a bone of zero length in `pose`
 *   (then give the axis yourself)
 */
export function midAxisFromPose(
  out: Float64Array, skeleton: Skeleton, pose: LocalPose, start: number | string, mid: number | string, end: number | string,
): Float64Array {
  const s = resolveJoint(skeleton, start, 'midAxisFromPose start');
  const m = resolveJoint(skeleton, mid, 'midAxisFromPose mid');
  const e = resolveJoint(skeleton, end, 'midAxisFromPose end');
  const Mm = poseJointMatrix(new Float64Array(16), skeleton, pose, m);
  const Ms = poseJointMatrix(new Float64Array(16), skeleton, pose, s);
  const Me = poseJointMatrix(new Float64Array(16), skeleton, pose, e);
  const inv = new Float64Array(16);
  if (!invertAffine(inv, Mm)) throw new RangeError(`midAxisFromPose: mid ${jointLabel(skeleton, m)} is scaled to zero in the pose`);
  const a = transformPoint(new Float64Array(3), inv, Ms[12], Ms[13], Ms[14]);
  const b = transformPoint(new Float64Array(3), inv, Me[12], Me[13], Me[14]);
  const x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  const l = Math.hypot(x, y, z), la = Math.hypot(a[0], a[1], a[2]), lb = Math.hypot(b[0], b[1], b[2]);
  // Straight within about a tenth of a degree: the axis would be noise.
  if (!(la > 0) || !(lb > 0) || !(l > 2e-3 * la * lb)) {
    throw new RangeError(`midAxisFromPose: the chain ${jointLabel(skeleton, s)} → ${jointLabel(skeleton, m)} → ${jointLabel(skeleton, e)} is straight or has a bone of zero length in the pose; give midAxis yourself`);
  }
  out[0] = x / l; out[1] = y / l; out[2] = z / l;
  return out;
}
