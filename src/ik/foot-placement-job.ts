import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { invertAffine, originIn, transformVector } from '../math/affine-mat4.ts';
import { finite3, setVector3 } from './vector-option.ts';
import { isAncestor, jointLabel, poseJointMatrix, resolveJoint } from './pose-joint-matrix.ts';
import { TwoBoneIkJob } from './two-bone-ik-job.ts';

/** One leg of a {@link FootPlacementJob}: hip, knee, ankle, by skeleton index or name. */
export interface FootPlacementLeg {
  start: number | string;
  mid: number | string;
  end: number | string;
  /** The knee's hinge axis in its local space (`TwoBoneIkJob.midAxis`; see `midAxisFromPose`); default (0, 0, 1). */
  midAxis?: ArrayLike<number>;
}

/** What a {@link FootPlacementJob} is set up with. */
export interface FootPlacementOptions {
  /** The joint moved to lower the body (hips, pelvis): an ancestor of every leg's start joint. */
  pelvis: number | string;
  /** The legs (usually two; any number ≥ 1). */
  legs: readonly FootPlacementLeg[];
  /** Initial {@link FootPlacementJob.planePoint}, model space; default (0, 0, 0). */
  planePoint?: ArrayLike<number>;
  /** Initial {@link FootPlacementJob.planeNormal}, model space; default (0, 1, 0). */
  planeNormal?: ArrayLike<number>;
  /** Initial {@link FootPlacementJob.down}, model space; default (0, −1, 0). */
  down?: ArrayLike<number>;
  /** Initial {@link FootPlacementJob.ankleHeights}, one per leg or one for all; default 0. */
  ankleHeight?: number | ArrayLike<number>;
}

/**
 * Feet on a ground plane (ozz-animation's foot IK sample, as a job): a ray along {@link down} from each ankle
 * meets the plane; the ankle's target is the point of that ray {@link ankleHeights} above the plane (measured
 * along its normal); the pelvis moves along `down` by the largest of the legs' corrections, so the leg that
 * must reach farthest down gets there by the body sinking and the others by bending (it rises when every foot
 * must rise); then a {@link TwoBoneIkJob} per leg takes each ankle to its target, its pole the knee's current
 * direction from the hip–ankle line (the leg keeps its plane). Everything in the pose's model space. The feet
 * themselves are not turned to the slope.
 *
 * Fallbacks ({@link apply} never throws and never writes NaN): weight ≤ 0 (or NaN) leaves the pose untouched, bit
 * for bit; a non-finite plane, down or ankle height, a zero normal or down, a down parallel to the plane, or a
 * parent of the pelvis scaled to zero leave it untouched with {@link reached} false; each leg falls back as its
 * `TwoBoneIkJob` does.
 */
export class FootPlacementJob implements PoseJob {
  readonly pelvis: number;
  /** The legs' two-bone jobs (their `target`, `pole`, `weight`, `soften` are rewritten at each apply; `midAxis` and `reached` are theirs). */
  readonly legs: readonly TwoBoneIkJob[];
  /** `Float64Array(3)`: a point of the ground plane, model space (the file's units). */
  readonly planePoint = new Float64Array(3);
  /** `Float64Array(3)`: the ground plane's normal, model space, pointing up out of the ground (normalised at apply). */
  readonly planeNormal = new Float64Array([0, 1, 0]);
  /** `Float64Array(3)`: the direction of the rays from the ankles and of the pelvis's move, model space (normalised at apply). */
  readonly down = new Float64Array([0, -1, 0]);
  /** `Float64Array(legs)`: per leg, how high the ankle stays above the plane (the file's units, along the normal). */
  readonly ankleHeights: Float64Array;
  /** [0, 1] (clamped): scales the pelvis's move and each leg's weight. 0 leaves the pose untouched. */
  weight = 1;
  /** Each leg's `TwoBoneIkJob.soften`, [0, 1]. */
  soften = 1;
  /** Output: every leg reached its target at the last {@link apply}. */
  reached = false;
  /** Output `Float64Array(3)`: how far the last {@link apply} moved the pelvis, model space. */
  readonly pelvisOffset = new Float64Array(3);
  /** Output `Float64Array(3·legs)`: each ankle's target at the last {@link apply}, model space. */
  readonly ankleTargets: Float64Array;

  private readonly parentOfPelvis: number;
  private readonly matrix = new Float64Array(16);
  private readonly pelvisMatrix = new Float64Array(16);
  private readonly positions: Float64Array;
  private readonly v = new Float64Array(3);

  /**
   * @throws RangeError for an unknown joint, no legs, a leg that is not a chain below the pelvis (naming the
   *   joints), ankle heights of the wrong count or not finite, a vector option that is not three finite numbers
   *   (or a zero normal or down); `TwoBoneIkJob`'s errors for a leg
   */
  constructor(skeleton: Skeleton, options: FootPlacementOptions) {
    this.pelvis = resolveJoint(skeleton, options.pelvis, 'FootPlacementJob pelvis');
    if (!options.legs || options.legs.length === 0) throw new RangeError('FootPlacementJob: legs must list at least one leg');
    this.legs = options.legs.map((leg, i) => {
      const job = new TwoBoneIkJob(skeleton, { start: leg.start, mid: leg.mid, end: leg.end, midAxis: leg.midAxis });
      if (!isAncestor(skeleton, this.pelvis, job.start)) {
        throw new RangeError(`FootPlacementJob: pelvis ${jointLabel(skeleton, this.pelvis)} is not an ancestor of legs[${i}] start ${jointLabel(skeleton, job.start)}`);
      }
      return job;
    });
    const n = this.legs.length;
    this.ankleHeights = new Float64Array(n);
    const heights = options.ankleHeight;
    if (typeof heights === 'number') this.ankleHeights.fill(heights);
    else if (heights !== undefined) {
      if (heights.length !== n) throw new RangeError(`FootPlacementJob: ankleHeight has ${heights.length} entries for ${n} legs`);
      this.ankleHeights.set(Array.from(heights));
    }
    for (let i = 0; i < n; i++) if (!Number.isFinite(this.ankleHeights[i])) throw new RangeError(`FootPlacementJob: ankleHeight must be finite, got ${String(this.ankleHeights[i])}`);
    if (options.planePoint !== undefined) setVector3(this.planePoint, options.planePoint, 'FootPlacementJob planePoint', false);
    if (options.planeNormal !== undefined) setVector3(this.planeNormal, options.planeNormal, 'FootPlacementJob planeNormal', true);
    if (options.down !== undefined) setVector3(this.down, options.down, 'FootPlacementJob down', true);
    this.parentOfPelvis = skeleton.parents[this.pelvis];
    this.positions = new Float64Array(9 * n);
    this.ankleTargets = new Float64Array(3 * n);
  }

  /** Moves the pelvis and bends the legs in `pose` (see the class). Allocates nothing. */
  apply(pose: LocalPose, skeleton: Skeleton): void {
    this.reached = false;
    this.pelvisOffset.fill(0);
    const weight = this.weight;
    if (!(weight > 0)) return;
    const w = weight < 1 ? weight : 1;
    const P = this.planePoint, N = this.planeNormal, D = this.down, legs = this.legs, n = legs.length;
    if (!finite3(P) || !finite3(N) || !finite3(D) || skeleton.jointCount <= this.pelvis) return;
    for (let i = 0; i < n; i++) if (!Number.isFinite(this.ankleHeights[i]) || skeleton.jointCount <= legs[i].end) return;
    const nl = Math.sqrt(N[0] * N[0] + N[1] * N[1] + N[2] * N[2]), dl = Math.sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]);
    if (!(nl > 0) || !(dl > 0)) return;
    const nx = N[0] / nl, ny = N[1] / nl, nz = N[2] / nl, dx = D[0] / dl, dy = D[1] / dl, dz = D[2] / dl;
    const dn = dx * nx + dy * ny + dz * nz;
    if (!(Math.abs(dn) > 1e-6)) return;

    // Hip, knee and ankle of every leg, model space, before anything moves.
    const pelvis = poseJointMatrix(this.pelvisMatrix, skeleton, pose, this.pelvis);
    const X = this.positions, m = this.matrix, v = this.v;
    for (let i = 0; i < n; i++) {
      const leg = legs[i];
      for (let k = 0; k < 3; k++) {
        originIn(v, pelvis, poseJointMatrix(m, skeleton, pose, k === 0 ? leg.start : k === 1 ? leg.mid : leg.end, this.pelvis));
        X[9 * i + 3 * k] = v[0]; X[9 * i + 3 * k + 1] = v[1]; X[9 * i + 3 * k + 2] = v[2];
      }
    }
    // Each ankle's target: on its ray, ankleHeight above the plane; the pelvis moves by the largest correction.
    let largest = -Infinity;
    for (let i = 0; i < n; i++) {
      const ax = X[9 * i + 6], ay = X[9 * i + 7], az = X[9 * i + 8];
      const s = (this.ankleHeights[i] - ((ax - P[0]) * nx + (ay - P[1]) * ny + (az - P[2]) * nz)) / dn;
      this.ankleTargets[3 * i] = ax + dx * s; this.ankleTargets[3 * i + 1] = ay + dy * s; this.ankleTargets[3 * i + 2] = az + dz * s;
      if (s > largest) largest = s;
    }
    if (!Number.isFinite(largest)) return;
    const move = largest * w;
    v[0] = dx * move; v[1] = dy * move; v[2] = dz * move;
    this.pelvisOffset.set(v);
    if (move !== 0) {
      if (this.parentOfPelvis >= 0) {
        // Model-space offset → the pelvis's parent space, where its translation lives.
        if (!invertAffine(this.matrix, poseJointMatrix(this.matrix, skeleton, pose, this.parentOfPelvis))) {
          this.pelvisOffset.fill(0);
          return;
        }
        transformVector(v, this.matrix, v);
      }
      const T = pose.translations, t = 3 * this.pelvis;
      T[t] += v[0]; T[t + 1] += v[1]; T[t + 2] += v[2];
    }

    let all = true;
    for (let i = 0; i < n; i++) {
      const job = legs[i], o = 9 * i;
      // Pole: the knee's direction from the hip–ankle line (unchanged by the pelvis's move, a translation).
      const hx = X[o], hy = X[o + 1], hz = X[o + 2];
      const kx = X[o + 3] - hx, ky = X[o + 4] - hy, kz = X[o + 5] - hz;
      const ax = X[o + 6] - hx, ay = X[o + 7] - hy, az = X[o + 8] - hz;
      const a2 = ax * ax + ay * ay + az * az;
      const along = a2 > 0 ? (kx * ax + ky * ay + kz * az) / a2 : 0;
      job.pole[0] = kx - ax * along; job.pole[1] = ky - ay * along; job.pole[2] = kz - az * along;
      job.target[0] = this.ankleTargets[3 * i]; job.target[1] = this.ankleTargets[3 * i + 1]; job.target[2] = this.ankleTargets[3 * i + 2];
      job.weight = w;
      job.soften = this.soften;
      job.apply(pose, skeleton);
      all = all && job.reached;
    }
    this.reached = all;
  }
}
