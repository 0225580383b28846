import type { NodeConstraintAsset } from '../asset/secondary-motion-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { PoseJob } from '../skeleton/pose-job.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { quatConjugateMultiplyAt, quatMultiplyAt, quatRotateAt } from '../math/quaternion.ts';
import { multiplyTrsAt, quatFromUnitVectorsAt, quatSlerpAt } from './secondary-math.ts';

const ROLL = 0, AIM = 1, ROTATION = 2;

/**
 * VRMC_node_constraint 1.0 as a pose job: roll, aim and rotation constraints, each blended from the destination's
 * rest rotation by its weight, in the order `SecondaryMotionAsset.nodeConstraints` gives (sources before the
 * constraints that read them; the loader broke any cycle). The formulas are three-vrm-node-constraint 3.5.5's
 * (VRMRollConstraint, VRMAimConstraint, VRMRotationConstraint), in f64, writing `pose.rotations` (f32):
 * - rotation: `slerp(dstRest, dstRest · srcRest⁻¹ · src, w)`;
 * - roll: with `δ = dstRest⁻¹ · src · srcRest⁻¹ · dstRest`, `slerp(dstRest, dstRest · fromTo(δ·axis, axis) · δ, w)`
 *   (the part of the source's rotation about the axis, carried into the destination's rest frame);
 * - aim: `slerp(dstRest, P⁻¹ · fromTo(P·dstRest·aimAxis, dir) · P · dstRest, w)`, P the destination's parent's
 *   rotation in model space (the product of its ancestors' local rotations) and `dir` the unit direction from the
 *   destination's position to the source's, both from this pose.
 * "Rest" is the rest pose the job was built with (three-vrm's `setInitState` at load). The aim is computed in model
 * space: it equals three-vrm's world-space result for a model placed by rotation, translation and uniform scale,
 * and for ancestors without non-uniform scale (three-vrm decomposes the parent's world matrix).
 */
export class NodeConstraintJob implements PoseJob {
  /** The constraints, in evaluation order. */
  readonly count: number;
  private readonly kinds: Uint8Array;
  private readonly nodes: Int32Array;
  private readonly sources: Int32Array;
  /** `Float64Array(N)` in [0, 1]. */
  private readonly weights: Float64Array;
  /** `Float64Array(3N)`: roll axis or aim axis, unit. */
  private readonly axes: Float64Array;
  /** `Float64Array(4N)`: the destination's rest rotation. */
  private readonly destinationRest: Float64Array;
  /** `Float64Array(4N)`: the source's rest rotation. */
  private readonly sourceRest: Float64Array;
  private readonly q = new Float64Array(16);
  private readonly v = new Float64Array(12);
  private readonly m = new Float64Array(32);

  /**
   * @param constraints the model's node constraints in evaluation order (`SecondaryMotionAsset.nodeConstraints`)
   * @param skeleton the model's skeleton; `restPose` its rest pose
   * @throws RangeError naming the constraint when a joint index is outside the skeleton or a weight is not in [0, 1]
   */
  constructor(constraints: readonly NodeConstraintAsset[], skeleton: Skeleton, restPose: LocalPose) {
    const N = this.count = constraints.length;
    this.kinds = new Uint8Array(N);
    this.nodes = new Int32Array(N);
    this.sources = new Int32Array(N);
    this.weights = new Float64Array(N);
    this.axes = new Float64Array(3 * N);
    this.destinationRest = new Float64Array(4 * N);
    this.sourceRest = new Float64Array(4 * N);
    constraints.forEach((c, i) => {
      for (const j of [c.node, c.source]) {
        if (!Number.isInteger(j) || j < 0 || j >= skeleton.jointCount) throw new RangeError(`NodeConstraintJob: constraint ${i} (${c.kind}) names joint ${j}, outside the skeleton's ${skeleton.jointCount}`);
      }
      if (!(c.weight >= 0 && c.weight <= 1)) throw new RangeError(`NodeConstraintJob: constraint ${i} (${c.kind}) has weight ${c.weight}, not in [0, 1]`);
      this.nodes[i] = c.node;
      this.sources[i] = c.source;
      this.weights[i] = c.weight;
      if (c.kind === 'roll') {
        this.kinds[i] = ROLL;
        this.axes[3 * i + 'XYZ'.indexOf(c.rollAxis)] = 1;
      } else if (c.kind === 'aim') {
        this.kinds[i] = AIM;
        this.axes[3 * i + 'XYZ'.indexOf(c.aimAxis.slice(-1))] = c.aimAxis.startsWith('Negative') ? -1 : 1;
      } else {
        this.kinds[i] = ROTATION;
      }
      for (let k = 0; k < 4; k++) {
        this.destinationRest[4 * i + k] = restPose.rotations[4 * c.node + k];
        this.sourceRest[4 * i + k] = restPose.rotations[4 * c.source + k];
      }
    });
  }

  apply(pose: LocalPose, skeleton: Skeleton): void {
    const q = this.q, R = pose.rotations, rest = this.destinationRest, srcRest = this.sourceRest;
    for (let i = 0; i < this.count; i++) {
      const i4 = 4 * i, dst = this.nodes[i], src = this.sources[i], kind = this.kinds[i];
      // q[0…4): the source's rotation, f64.
      q[0] = R[4 * src]; q[1] = R[4 * src + 1]; q[2] = R[4 * src + 2]; q[3] = R[4 * src + 3];
      if (kind === ROTATION) {
        quatConjugateMultiplyAt(q, 4, srcRest, i4, q, 0); // srcRest⁻¹ · src
        quatMultiplyAt(q, 8, rest, i4, q, 4); // target
      } else if (kind === ROLL) {
        quatConjugateMultiplyAt(q, 4, rest, i4, q, 0); // dstRest⁻¹ · src
        quatConjugateMultiplyAt(q, 12, srcRest, i4, rest, i4); // srcRest⁻¹ · dstRest
        quatMultiplyAt(q, 4, q, 4, q, 12); // δ
        quatRotateAt(this.v, 0, q, 4, this.axes, 3 * i); // δ · axis
        quatFromUnitVectorsAt(q, 12, this.v, 0, this.axes, 3 * i);
        quatMultiplyAt(q, 12, rest, i4, q, 12);
        quatMultiplyAt(q, 8, q, 12, q, 4); // target
      } else {
        this.aimTarget(pose, skeleton, i);
      }
      quatSlerpAt(q, 8, rest, i4, q, 8, this.weights, i);
      R[4 * dst] = q[8]; R[4 * dst + 1] = q[9]; R[4 * dst + 2] = q[10]; R[4 * dst + 3] = q[11];
    }
  }

  /** The aim constraint i's unblended target rotation into `q[8…12)`. */
  private aimTarget(pose: LocalPose, skeleton: Skeleton, i: number): void {
    const q = this.q, v = this.v, dst = this.nodes[i], src = this.sources[i], R = pose.rotations;
    const parents = skeleton.parents;
    // P = the parent's model-space rotation, the product of its ancestors' rotations (root first) in q[4…8).
    q[4] = 0; q[5] = 0; q[6] = 0; q[7] = 1;
    for (let a = parents[dst]; a >= 0; a = parents[a]) quatMultiplyAt(q, 4, R, 4 * a, q, 4);
    // a0 = P · dstRest · aimAxis in v[0…3).
    quatRotateAt(v, 0, this.destinationRest, 4 * i, this.axes, 3 * i);
    quatRotateAt(v, 0, q, 4, v, 0);
    // a1 = the unit direction from the destination's position to the source's, in v[3…6).
    this.modelPosition(v, 6, pose, skeleton, src);
    this.modelPosition(v, 9, pose, skeleton, dst);
    let x = v[6] - v[9], y = v[7] - v[10], z = v[8] - v[11];
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) { x /= l; y /= l; z /= l; }
    v[3] = x; v[4] = y; v[5] = z;
    quatFromUnitVectorsAt(q, 12, v, 0, v, 3);
    quatConjugateMultiplyAt(q, 12, q, 4, q, 12); // P⁻¹ · fromTo
    quatMultiplyAt(q, 12, q, 12, q, 4); // · P
    quatMultiplyAt(q, 8, q, 12, this.destinationRest, 4 * i); // · dstRest
  }

  /** Joint j's model-space position from the pose into `out[o…o+3)` (its ancestors' T·R·S applied in f64). */
  private modelPosition(out: Float64Array, o: number, pose: LocalPose, skeleton: Skeleton, j: number): void {
    const T = pose.translations, m = this.m;
    let x = T[3 * j], y = T[3 * j + 1], z = T[3 * j + 2];
    for (let a = skeleton.parents[j]; a >= 0; a = skeleton.parents[a]) {
      multiplyTrsAt(m, 0, null, 0, T, 3 * a, pose.rotations, 4 * a, pose.scales, 3 * a);
      const nx = m[0] * x + m[4] * y + m[8] * z + m[12], ny = m[1] * x + m[5] * y + m[9] * z + m[13], nz = m[2] * x + m[6] * y + m[10] * z + m[14];
      x = nx; y = ny; z = nz;
    }
    out[o] = x; out[o + 1] = y; out[o + 2] = z;
  }
}
