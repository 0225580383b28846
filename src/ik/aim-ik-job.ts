import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { invertAffine, multiplyAffine, transformPoint, transformVector } from '../math/affine-mat4.ts';
import { quatBetween, quatIdentity, quatMultiply, quatRotate } from '../math/quaternion.ts';
import { correctLocalRotation, weightCorrection } from './joint-correction.ts';
import { finite3, setVector3 } from './vector-option.ts';
import { isAncestor, jointLabel, poseJointMatrix, resolveJoint } from './pose-joint-matrix.ts';

/** What an {@link AimIkJob} is set up with. */
export interface AimIkOptions {
  /**
   * The chain, from its top to the joint that aims: e.g. `[spine, neck, head]`, or one joint. Each must be an
   * ancestor of the next (not necessarily its parent). By skeleton index or name.
   */
  joints: ReadonlyArray<number | string>;
  /**
   * Per joint of {@link joints}, same order, in [0, 1]: the share of the remaining correction that joint takes.
   * Default: 1 for the top joint, 0.5 for the others (ozz-animation's look-at sample), so the aim completes.
   */
  jointWeights?: ArrayLike<number>;
  /** Initial {@link AimIkJob.forward}, the aiming joint's local space; default (1, 0, 0). */
  forward?: ArrayLike<number>;
  /** Initial {@link AimIkJob.up}, the aiming joint's local space; default (0, 1, 0). */
  up?: ArrayLike<number>;
  /** Initial {@link AimIkJob.offset}, the aiming joint's local space; default (0, 0, 0). */
  offset?: ArrayLike<number>;
  /** Initial {@link AimIkJob.pole}, model space; default (0, 1, 0). */
  pole?: ArrayLike<number>;
  /** Initial {@link AimIkJob.target}, model space; default (0, 0, 0). */
  target?: ArrayLike<number>;
  /** Initial {@link AimIkJob.twistAngle}, radians; default 0. */
  twistAngle?: number;
  /** Initial {@link AimIkJob.weight}; default 1. */
  weight?: number;
}

/**
 * Aim / look-at inverse kinematics on the local pose, with the semantics of ozz-animation's `IKAimJob`, on one
 * joint or a chain (spine → neck → head). For one joint: the correction turns its {@link forward} axis, cast from
 * its {@link offset} point, onto the {@link target}, then rolls it about the joint-to-target line so that its
 * {@link up} axis lies in the plane of that line and the {@link pole}, on the pole's side, then by
 * {@link twistAngle}. For a chain (ozz-animation's look-at sample), the aiming joint goes first, then each ancestor
 * in turn aims the forward axis and offset as the joints below it left them (carried into its own space), each
 * correction weighted by `weight × jointWeights[i]`; with the top joint's weight 1 the last step completes the aim.
 * Corrections are multiplied into the local rotations (`r' = r·c`), so blending, layers and the GPU path stay as
 * they are. Exact for joints with uniform scale.
 *
 * Fallbacks ({@link apply} never throws and never writes NaN): weight ≤ 0 (or NaN) leaves the pose untouched,
 * bit for bit; a non-finite target, pole, forward, up, offset or twist angle, a zero forward axis, or a joint
 * scaled to zero leave it untouched with {@link reached} false; a step whose target lies inside the offset's
 * reach (closer to the joint than the offset line) or at the joint itself turns that joint by nothing; an up
 * axis or pole parallel to the joint-to-target line skips the roll (the twist still applies).
 */
export class AimIkJob implements PoseJob {
  /** Skeleton indices of the chain, top first, the aiming joint last. */
  readonly joints: Int32Array;
  /** `Float64Array(n)`: per joint of {@link joints}, in [0, 1] (clamped at apply). Written by the caller. */
  readonly jointWeights: Float64Array;
  /** `Float64Array(3)`: the target, model space (the file's units). Written by the caller. */
  readonly target = new Float64Array(3);
  /** `Float64Array(3)`: the aiming joint's axis that should point at the target, its local space (normalised at apply). */
  readonly forward = new Float64Array([1, 0, 0]);
  /** `Float64Array(3)`: the aiming joint's axis kept toward the pole, its local space. */
  readonly up = new Float64Array([0, 1, 0]);
  /** `Float64Array(3)`: where the aim starts (e.g. between the eyes), a point in the aiming joint's local space. */
  readonly offset = new Float64Array(3);
  /** `Float64Array(3)`: the pole vector, model space: where {@link up} should lean (e.g. the model's up). */
  readonly pole = new Float64Array([0, 1, 0]);
  /** Radians: a roll about the joint-to-target line after the pole alignment. */
  twistAngle = 0;
  /** The whole job's weight in [0, 1] (clamped): multiplies every joint's. 0 leaves the pose untouched. */
  weight = 1;
  /**
   * Output of the last {@link apply}: every step could aim (the target outside the offset's reach) and the top
   * joint's effective weight (`weight × jointWeights[0]`) is 1, so the forward axis now points at the target.
   */
  reached = false;

  /** Per joint of the chain: its model-space matrix, its matrix relative to the joint above, the inverse of the first. */
  private readonly matrices: Float64Array[];
  private readonly relatives: Float64Array[];
  private readonly inverses: Float64Array[];
  private inverse: Float64Array;
  private readonly correction = new Float64Array(4);
  private readonly q = new Float64Array(4);
  /** Scratch 3-vectors: the carried forward, up and offset, the target in the joint's space, a temporary. */
  private readonly f = new Float64Array(3);
  private readonly u = new Float64Array(3);
  private readonly o = new Float64Array(3);
  private readonly t = new Float64Array(3);
  private readonly v = new Float64Array(3);
  /** Element 0: the step's weight, passed to `weightCorrection` in an array (see src/math/quaternion.ts on boxed numbers). */
  private readonly scalars = new Float64Array(1);

  /**
   * @throws RangeError for an empty chain, an unknown joint (naming it), a joint that is not an ancestor of the
   *   next (naming both), joint weights of the wrong count or outside [0, 1], a vector option that is not three
   *   finite numbers (or a zero forward axis), a twist angle or weight that is not a finite number
   */
  constructor(skeleton: Skeleton, options: AimIkOptions) {
    const list = options.joints;
    if (!list || list.length === 0) throw new RangeError('AimIkJob: joints must name at least one joint (a chain of zero length)');
    this.joints = Int32Array.from(list, (joint, i) => resolveJoint(skeleton, joint, `AimIkJob joints[${i}]`));
    for (let i = 1; i < this.joints.length; i++) {
      if (!isAncestor(skeleton, this.joints[i - 1], this.joints[i])) {
        throw new RangeError(`AimIkJob: joints[${i - 1}] ${jointLabel(skeleton, this.joints[i - 1])} is not an ancestor of joints[${i}] ${jointLabel(skeleton, this.joints[i])} (list the chain from its top to the aiming joint)`);
      }
    }
    const n = this.joints.length;
    this.jointWeights = new Float64Array(n).fill(0.5);
    this.jointWeights[0] = 1;
    if (options.jointWeights !== undefined) {
      if (options.jointWeights.length !== n) throw new RangeError(`AimIkJob: jointWeights has ${options.jointWeights.length} entries for ${n} joints`);
      for (let i = 0; i < n; i++) {
        const w = options.jointWeights[i];
        if (!(w >= 0 && w <= 1)) throw new RangeError(`AimIkJob: jointWeights[${i}] must be in [0, 1], got ${String(w)}`);
        this.jointWeights[i] = w;
      }
    }
    if (options.forward !== undefined) setVector3(this.forward, options.forward, 'AimIkJob forward', true);
    if (options.up !== undefined) setVector3(this.up, options.up, 'AimIkJob up', false);
    if (options.offset !== undefined) setVector3(this.offset, options.offset, 'AimIkJob offset', false);
    if (options.pole !== undefined) setVector3(this.pole, options.pole, 'AimIkJob pole', false);
    if (options.target !== undefined) setVector3(this.target, options.target, 'AimIkJob target', false);
    for (const key of ['twistAngle', 'weight'] as const) {
      const value = options[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`AimIkJob ${key} must be a finite number, got ${String(value)}`);
      this[key] = value;
    }
    const matrices = (): Float64Array[] => Array.from({ length: n }, () => new Float64Array(16));
    this.matrices = matrices();
    this.relatives = matrices();
    this.inverses = matrices();
    this.inverse = this.inverses[0];
  }

  /**
   * Corrects the chain's local rotations in `pose` so that the aiming joint's forward axis points at
   * {@link target} (see the class for the fallbacks); sets {@link reached}. Allocates nothing.
   */
  apply(pose: LocalPose, skeleton: Skeleton): void {
    this.reached = false;
    if (!(this.weight > 0)) return;
    const w = this.weight < 1 ? this.weight : 1;
    const target = this.target, pole = this.pole, forward = this.forward;
    if (!finite3(target) || !finite3(pole) || !finite3(forward) || !finite3(this.up) || !finite3(this.offset) || !Number.isFinite(this.twistAngle)) return;
    const joints = this.joints, n = joints.length;
    for (let i = 0; i < n; i++) if (joints[i] >= skeleton.jointCount) return;
    const fl = Math.sqrt(forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
    if (!(fl > 0)) return;

    // Every joint's model-space matrix before any correction: each step reads its own, and the corrections of the
    // joints below it only through the carried forward, up and offset.
    const M = this.matrices, R = this.relatives, I = this.inverses;
    poseJointMatrix(M[0], skeleton, pose, joints[0]);
    for (let i = 1; i < n; i++) multiplyAffine(M[i], M[i - 1], poseJointMatrix(R[i], skeleton, pose, joints[i], joints[i - 1]));
    for (let i = 0; i < n; i++) if (!invertAffine(I[i], M[i])) return;

    const f = this.f, u = this.u, o = this.o, c = this.correction;
    f[0] = forward[0] / fl; f[1] = forward[1] / fl; f[2] = forward[2] / fl;
    u.set(this.up); o.set(this.offset);
    quatIdentity(c);
    let all = true;
    for (let i = n - 1; i >= 0; i--) {
      if (i < n - 1) {
        // Carry the joint below's corrected axes into this joint's space: rel(i+1 → i) · c · axis.
        const rel = R[i + 1];
        transformVector(f, rel, quatRotate(f, c, f));
        const l = Math.sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        f[0] /= l; f[1] /= l; f[2] /= l;
        transformVector(u, rel, quatRotate(u, c, u));
        transformPoint(o, rel, quatRotate(o, c, o));
      }
      this.inverse = I[i];
      const jw = this.jointWeights[i];
      this.scalars[0] = w * (jw > 0 ? (jw < 1 ? jw : 1) : 0);
      all = this.aimStep(c) && all;
      if (c[0] !== 0 || c[1] !== 0 || c[2] !== 0) correctLocalRotation(pose.rotations, joints[i], c);
    }
    this.reached = all && w * this.jointWeights[0] >= 1;
  }

  /**
   * One joint's correction into `c` from the carried axes (this.f, this.u, this.o, its space), its inverse
   * model matrix and the step's weight (this.scalars[0]); false when the target cannot be aimed at (then `c` is
   * identity).
   */
  private aimStep(c: Float64Array): boolean {
    const f = this.f, u = this.u, o = this.o, v = this.v, q = this.q;
    quatIdentity(c);
    const t = transformPoint(this.t, this.inverse, this.target);
    const tx = t[0], ty = t[1], tz = t[2];
    const r2 = tx * tx + ty * ty + tz * tz;
    // The forward ray cast from the offset meets the sphere through the target around the joint at offset + f·s:
    // that point is what must turn onto the target (ozz-animation's offsetted forward).
    const along = f[0] * o[0] + f[1] * o[1] + f[2] * o[2];
    const across2 = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] - along * along;
    if (across2 > r2 || !(r2 > 0)) return false;
    if (!(this.scalars[0] > 0)) return true;
    const s = Math.sqrt(r2 - across2) - along;
    v[0] = o[0] + f[0] * s; v[1] = o[1] + f[1] * s; v[2] = o[2] + f[2] * s;
    const aim = quatBetween(c, v, t);
    // Roll: the up axis (after the aim) onto the plane of the target line and the pole, on the pole's side.
    quatRotate(v, aim, u);
    const ux = v[0], uy = v[1], uz = v[2];
    transformVector(v, this.inverse, this.pole);
    const px = v[0], py = v[1], pz = v[2];
    const rx = py * tz - pz * ty, ry = pz * tx - px * tz, rz = px * ty - py * tx; // pole × target
    const jx = uy * tz - uz * ty, jy = uz * tx - ux * tz, jz = ux * ty - uy * tx; // up × target
    const rl = Math.sqrt(rx * rx + ry * ry + rz * rz), jl = Math.sqrt(jx * jx + jy * jy + jz * jz), tl = Math.sqrt(r2);
    if (rl > 1e-12 * tl * Math.sqrt(px * px + py * py + pz * pz) && jl > 1e-12 * tl * Math.sqrt(ux * ux + uy * uy + uz * uz)) {
      let cos = (rx * jx + ry * jy + rz * jz) / (rl * jl);
      cos = cos < -1 ? -1 : cos > 1 ? 1 : cos;
      // About the joint→target line, turning the way that brings the up axis's plane onto the pole's.
      const h = (rx * ux + ry * uy + rz * uz < 0 ? -1 : 1) * Math.sqrt(0.5 * (1 - cos)) / tl;
      q[0] = tx * h; q[1] = ty * h; q[2] = tz * h; q[3] = Math.sqrt(0.5 * (1 + cos));
      quatMultiply(c, q, c);
    }
    const twist = this.twistAngle;
    if (twist !== 0) {
      const h = Math.sin(0.5 * twist) / tl;
      q[0] = tx * h; q[1] = ty * h; q[2] = tz * h; q[3] = Math.cos(0.5 * twist);
      quatMultiply(c, q, c);
    }
    weightCorrection(c, this.scalars, 0);
    if (!Number.isFinite(c[0] + c[1] + c[2] + c[3])) quatIdentity(c);
    return true;
  }
}
