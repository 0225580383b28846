import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { invertAffine, multiplyAffine, originIn, transformPoint, transformVector } from '../math/affine-mat4.ts';
import { quatBetween, quatIdentity, quatMultiply, quatRotate } from '../math/quaternion.ts';
import { correctLocalRotation, weightCorrection } from './joint-correction.ts';
import { finite3, setVector3 } from './vector-option.ts';
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
  /** Scratch 3-vectors: the unit mid axis, the target in the start joint's space, two temporaries. */
  private readonly axis = new Float64Array(3);
  private readonly goal = new Float64Array(3);
  private readonly v = new Float64Array(3);
  private readonly w = new Float64Array(3);
  private readonly q = new Float64Array(4);
  /** Element 0: the weight applied (in (0, 1]), passed to `weightCorrection` in an array (see src/math/quaternion.ts on boxed numbers). */
  private readonly scalars = new Float64Array(1);

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
    quatIdentity(this.startCorrection); quatIdentity(this.midCorrection);
    if (!(this.weight > 0)) return;
    if (!this.solve(pose, skeleton)) {
      quatIdentity(this.startCorrection); quatIdentity(this.midCorrection);
      this.reached = false;
      return;
    }
    correctLocalRotation(pose.rotations, this.start, this.startCorrection);
    correctLocalRotation(pose.rotations, this.mid, this.midCorrection);
  }

  /** Computes the two corrections; false (a fallback) when nothing should change. */
  private solve(pose: LocalPose, skeleton: Skeleton): boolean {
    const target = this.target, pole = this.pole, soften = this.soften, twist = this.twistAngle;
    if (!finite3(target) || !finite3(pole) || !finite3(this.midAxis) || !Number.isFinite(soften) || !Number.isFinite(twist)) return false;
    if (skeleton.jointCount <= Math.max(this.start, this.mid, this.end)) return false;
    const weight = this.weight < 1 ? this.weight : 1;
    this.scalars[0] = weight;
    const n = this.axis;
    const axisLength = Math.sqrt(this.midAxis[0] * this.midAxis[0] + this.midAxis[1] * this.midAxis[1] + this.midAxis[2] * this.midAxis[2]);
    if (!(axisLength > 0)) return false;
    const nx = this.midAxis[0] / axisLength, ny = this.midAxis[1] / axisLength, nz = this.midAxis[2] / axisLength;
    n[0] = nx; n[1] = ny; n[2] = nz;

    const Ms = poseJointMatrix(this.startMatrix, skeleton, pose, this.start);
    const Mm = multiplyAffine(this.midMatrix, Ms, poseJointMatrix(this.relative, skeleton, pose, this.mid, this.start));
    const Me = multiplyAffine(this.endMatrix, Mm, poseJointMatrix(this.relative, skeleton, pose, this.end, this.mid));
    if (!invertAffine(this.invStart, Ms) || !invertAffine(this.invMid, Mm)) return false;
    const v = this.v, w = this.w;

    // The bones in the mid joint's space (start → mid, mid → end) and in the start joint's (the start joint at 0).
    originIn(v, this.invMid, Ms);
    const smx = -v[0], smy = -v[1], smz = -v[2];
    originIn(w, this.invMid, Me); // mid → end, kept in w
    const mex = w[0], mey = w[1], mez = w[2];
    originIn(v, this.invStart, Mm);
    const msx = v[0], msy = v[1], msz = v[2];
    originIn(v, this.invStart, Me);
    const esx = v[0], esy = v[1], esz = v[2];
    const upper2 = msx * msx + msy * msy + msz * msz;
    const lower2 = (esx - msx) * (esx - msx) + (esy - msy) * (esy - msy) + (esz - msz) * (esz - msz);
    const startEnd2 = esx * esx + esy * esy + esz * esz;
    if (!(upper2 > 0) || !(lower2 > 0) || !Number.isFinite(upper2 + lower2)) return false;
    const upper = Math.sqrt(upper2), lower = Math.sqrt(lower2);

    // The target in the start joint's space, pulled in by the soften ratio.
    const goal = transformPoint(this.goal, this.invStart, target);
    const distance = Math.sqrt(goal[0] * goal[0] + goal[1] * goal[1] + goal[2] * goal[2]);
    const chain = upper + lower;
    const da = chain * (soften < 0 ? 0 : soften > 1 ? 1 : soften), ds = chain - da;
    let reach = distance;
    if (distance > da && distance > 0 && ds > 0) {
      const alpha = (distance - da) / ds, a3 = alpha + 3;
      reach = da + ds - (ds * 81) / (a3 * a3 * a3 * a3);
      const scale = reach / distance;
      goal[0] *= scale; goal[1] *= scale; goal[2] *= scale;
    }
    const reachable = distance <= da && distance > Math.abs(upper - lower);

    // Mid joint: law of cosines for the angle between the bones now and for the target distance.
    const inv2ul = 0.5 / (upper * lower);
    let cosWanted = (upper2 + lower2 - reach * reach) * inv2ul;
    cosWanted = cosWanted < -1 ? -1 : cosWanted > 1 ? 1 : cosWanted;
    let cosNow = (upper2 + lower2 - startEnd2) * inv2ul;
    cosNow = cosNow < -1 ? -1 : cosNow > 1 ? 1 : cosNow;
    // The angle now is negative when the chain bends against the mid axis.
    const sideX = smy * nz - smz * ny, sideY = smz * nx - smx * nz, sideZ = smx * ny - smy * nx;
    const angleNow = sideX * mex + sideY * mey + sideZ * mez < 0 ? -Math.acos(cosNow) : Math.acos(cosNow);
    const half = 0.5 * (Math.acos(cosWanted) - angleNow), sinHalf = Math.sin(half);
    const mid = this.midCorrection;
    mid[0] = nx * sinHalf; mid[1] = ny * sinHalf; mid[2] = nz * sinHalf; mid[3] = Math.cos(half);

    // Start joint: turn the corrected end onto the target, then roll the chain's plane onto the pole's.
    quatRotate(w, mid, w);
    transformVector(w, Mm, w);
    transformVector(w, this.invStart, w);
    w[0] += msx; w[1] += msy; w[2] += msz;
    const start = quatBetween(this.startCorrection, w, goal);
    const tx = goal[0], ty = goal[1], tz = goal[2];
    const reach2 = tx * tx + ty * ty + tz * tz;
    if (reach2 > 0) {
      const tl = Math.sqrt(reach2);
      transformVector(v, this.invStart, pole);
      const px = v[0], py = v[1], pz = v[2];
      // The pole plane's normal, target × pole, and the chain plane's, the mid axis after the turn.
      const rx = ty * pz - tz * py, ry = tz * px - tx * pz, rz = tx * py - ty * px;
      transformVector(v, Mm, n);
      transformVector(v, this.invStart, v);
      quatRotate(v, start, v);
      const jx = v[0], jy = v[1], jz = v[2];
      const rl = Math.sqrt(rx * rx + ry * ry + rz * rz), jl = Math.sqrt(jx * jx + jy * jy + jz * jz);
      const q = this.q;
      if (rl > 1e-12 * tl * Math.sqrt(px * px + py * py + pz * pz) && jl > 0) {
        let cos = (rx * jx + ry * jy + rz * jz) / (rl * jl);
        cos = cos < -1 ? -1 : cos > 1 ? 1 : cos;
        // About the start→target line, turning the way that brings the chain's normal onto the pole plane's.
        const s = (jx * px + jy * py + jz * pz < 0 ? -1 : 1) * Math.sqrt(0.5 * (1 - cos)) / tl;
        q[0] = tx * s; q[1] = ty * s; q[2] = tz * s; q[3] = Math.sqrt(0.5 * (1 + cos));
        quatMultiply(start, q, start);
      }
      if (twist !== 0) {
        const s = Math.sin(0.5 * twist) / tl;
        q[0] = tx * s; q[1] = ty * s; q[2] = tz * s; q[3] = Math.cos(0.5 * twist);
        quatMultiply(start, q, start);
      }
    }
    weightCorrection(start, this.scalars, 0);
    weightCorrection(mid, this.scalars, 0);
    if (!Number.isFinite(start[0] + start[1] + start[2] + start[3]) || !Number.isFinite(mid[0] + mid[1] + mid[2] + mid[3])) return false;
    this.reached = reachable && weight >= 1;
    return true;
  }
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
  const a = originIn(new Float64Array(3), inv, Ms);
  const b = originIn(new Float64Array(3), inv, Me);
  const x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  const l = Math.sqrt(x * x + y * y + z * z), la = Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), lb = Math.sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  // Straight within about a tenth of a degree: the axis would be noise.
  if (!(la > 0) || !(lb > 0) || !(l > 2e-3 * la * lb)) {
    throw new RangeError(`midAxisFromPose: the chain ${jointLabel(skeleton, s)} → ${jointLabel(skeleton, m)} → ${jointLabel(skeleton, e)} is straight or has a bone of zero length in the pose; give midAxis yourself`);
  }
  out[0] = x / l; out[1] = y / l; out[2] = z / l;
  return out;
}
