import type { HumanoidMap, LookAtAsset, LookAtRangeMap } from '../asset/avatar-asset.ts';
import { poseJointMatrix } from '../ik/pose-joint-matrix.ts';
import { invertAffine, transformPoint } from '../math/affine-mat4.ts';
import { polarRotation } from '../math/polar-rotation.ts';
import { quatConjugateMultiplyAt, quatConjugateRotateAt, quatMultiplyAt, quatRotateAt } from '../math/quaternion.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { ExpressionState } from './expression-state.ts';

const DEGREES = 180 / Math.PI;
/** Indices of the range maps in `LookAtController`'s table. */
const INNER = 0, OUTER = 1, DOWN = 2, UP = 3;
const ONE = Float64Array.of(1);

/**
 * A look-at range map applied to an angle (VRMC_vrm-1.0 `lookAt.md` "RangeMap"):
 * `outputScale · min(|degrees|, inputMaxValue) / inputMaxValue`. The result is degrees for bone look-at and an
 * expression weight for expression look-at. An `inputMaxValue` ≤ 0 maps everything to 0.
 */
export function mapLookAtRange(map: LookAtRangeMap, degrees: number): number {
  const max = map.inputMaxValue;
  if (!(max > 0)) return 0;
  const a = Math.abs(degrees);
  return map.outputScale * (a < max ? a / max : 1);
}

/**
 * Yaw and pitch, degrees, of a direction `direction[0…3)` given in look-at space (VRMC_vrm-1.0 `lookAt.md` "Yaw and
 * Pitch in lookAt space"): `yaw = atan2(x, z)`, positive towards +X (the avatar's left); `pitch = atan2(−y,
 * √(x² + z²))`, positive downwards. A zero direction gives (0, 0).
 * @param out `Float64Array(≥ 2)`: receives yaw at 0, pitch at 1; returned
 */
export function yawPitchOfDirection(out: Float64Array, direction: Float64Array): Float64Array {
  const x = direction[0], y = direction[1], z = direction[2];
  out[0] = Math.atan2(x, z) * DEGREES;
  out[1] = Math.atan2(-y, Math.sqrt(x * x + z * z)) * DEGREES;
  return out;
}

/** One eye bone that bone look-at turns: its joint, its parent's rest rotation P (model space) and its rest local rotation R. */
interface EyeBone {
  readonly joint: number;
  /** `Float64Array(4)`: the parent's model-space rest rotation (x, y, z, w); identity for a root. */
  readonly parentRest: Float64Array;
  /** `Float64Array(4)`: the eye's rest local rotation. */
  readonly restLocal: Float64Array;
  /** Horizontal range map (index into the controller's ranges: 0 inner, 1 outer) for yaw > 0 (towards the avatar's left) and yaw < 0. */
  readonly positiveYaw: number;
  readonly negativeYaw: number;
}

/** Where look-at takes its yaw and pitch from: nothing (the eyes stay as posed), a point, or given angles. */
export type LookAtMode = 'none' | 'point' | 'angles';

/**
 * An avatar's look-at at run time (VRMC_vrm-1.0 `lookAt.md`), one per avatar instance, caller-owned: a target (a
 * point in model space, {@link setTarget}; in world space through {@link setTargetWorld}), or yaw and pitch given
 * directly ({@link setAngles}); each frame {@link update} finds the yaw and pitch from the posed head, then
 * {@link applyExpressions} (`expression` type: lookLeft/Right/Up/Down weights) or {@link applyBones} (`bone` type:
 * the leftEye and rightEye local rotations) writes them. Allocates nothing after construction.
 *
 * Look-at space is the head's posed frame turned back by its model-space rest rotation, origin at
 * `offsetFromHeadBone` in the head's frame. Bone look-at sets each eye's rotation relative to its rest frame in
 * model space: `local = P⁻¹ · E · P · R`, with E the YXZ Euler rotation (yaw about Y, then pitch about X) of the
 * mapped angles, P the eye's parent's model-space rest rotation and R the eye's rest local rotation — what
 * three-vrm's bone applier writes through its normalised eye bones (this does the same without a normalised
 * humanoid view).
 *
 * Range maps follow the specification's table: yaw > 0 (left) uses `rangeMapHorizontalOuter` for the left eye and
 * `Inner` for the right; pitch > 0 (down) `rangeMapVerticalDown`, pitch < 0 (up) `rangeMapVerticalUp`. three-vrm's
 * bone applier (3.x) reads the Down map for an upward gaze and the Up map for a downward one; Sinew follows the
 * specification, so the two agree only when both vertical maps are equal. Expression look-at agrees with both.
 * An active expression's `overrideLookAt` scales bone look-at's angles by the look-at multiplier (the brief of
 * the expressions' overrides: "block/blend it"); three-vrm applies the override to the look expressions only.
 *
 * `LookAtAsset.faceFront` is not read, on purpose. A VRM 0.x avatar is turned at load by premultiplying its root
 * joints (turnVrm0ToFaceZ), so the head's model-space rest rotation carries the half turn: look-at space, the head
 * turned back by that rest rotation, is model space facing +Z, and E above turns the eyes in model space. three-vrm
 * turns the scene instead and works in the file's frame, so it must turn +Z to the 0.x `faceFront` (0, 0, −1)
 * (F · E · F⁻¹ in its bone applier); applying F here as well would turn twice and mirror the pitch. The generated
 * 0.x avatar's look-at matches three-vrm's at targets left, right, above and below (tests/unit/avatar).
 */
export class LookAtController {
  readonly lookAt: LookAtAsset;
  /** The head joint (humanoid `head`). */
  readonly head: number;
  /** Where yaw and pitch come from; {@link setTarget}, {@link setAngles} and {@link clear} set it. */
  mode: LookAtMode = 'none';
  /** `Float64Array(3)`: the target point in model space (the skeleton roots' space), metres. */
  readonly target = new Float64Array(3);
  /** Degrees: the yaw of the last {@link update} (or {@link setAngles}), positive towards the avatar's left. */
  yaw = 0;
  /** Degrees: the pitch of the last {@link update} (or {@link setAngles}), positive downwards. */
  pitch = 0;
  /** `Float64Array(4)`: the head's model-space rest rotation. */
  private readonly restHead = new Float64Array(4);
  private readonly eyes: readonly EyeBone[];
  /** Expression indices of lookLeft, lookRight, lookUp, lookDown (−1: absent), for the `expression` type. */
  private readonly lookExpressions: Int32Array;
  private readonly matrix = new Float64Array(16);
  private readonly inverse = new Float64Array(16);
  private readonly point = new Float64Array(3);
  private readonly quat = new Float64Array(8);
  /** Scratch: yaw and pitch (degrees) of {@link update}; the mapped yaw and pitch (radians) of {@link applyBones}. */
  private readonly angles = new Float64Array(4);
  /**
   * The four range maps as (inputMaxValue, outputScale / inputMaxValue) pairs: inner, outer, down, up. The hot
   * paths apply {@link mapLookAtRange}'s formula from here, as `min(|x|, max) · scale`, with no call taking or
   * returning a float (V8 boxes those when it does not inline the call).
   */
  private readonly ranges = new Float64Array(8);

  /**
   * @param restPose the skeleton's rest pose (`ModelAsset.restPose`): the rest rotations look-at space and the
   *   eyes are measured from
   * @param expressions the avatar's expression state, for the `expression` type's look expressions (null: none)
   * @throws RangeError when the humanoid has no head joint in the skeleton
   */
  constructor(lookAt: LookAtAsset, humanoid: HumanoidMap, skeleton: Skeleton, restPose: LocalPose, expressions: ExpressionState | null) {
    this.lookAt = lookAt;
    const head = humanoid.bones.head;
    if (head === undefined || !(head >= 0 && head < skeleton.jointCount)) throw new RangeError(`look-at: the humanoid's head (${head}) is not a joint of the skeleton`);
    this.head = head;
    polarRotation(poseJointMatrix(this.matrix, skeleton, restPose, head), 0, this.restHead, 0);
    const eyes: EyeBone[] = [];
    const eye = (joint: number | undefined, positiveYaw: number, negativeYaw: number): void => {
      if (joint === undefined || !(joint >= 0 && joint < skeleton.jointCount)) return;
      const parentRest = new Float64Array([0, 0, 0, 1]);
      const parent = skeleton.parents[joint];
      if (parent >= 0) polarRotation(poseJointMatrix(this.matrix, skeleton, restPose, parent), 0, parentRest, 0);
      const restLocal = Float64Array.from(restPose.rotations.subarray(4 * joint, 4 * joint + 4));
      eyes.push({ joint, parentRest, restLocal, positiveYaw, negativeYaw });
    };
    eye(humanoid.bones.leftEye, OUTER, INNER);
    eye(humanoid.bones.rightEye, INNER, OUTER);
    this.eyes = eyes;
    [lookAt.rangeMapHorizontalInner, lookAt.rangeMapHorizontalOuter, lookAt.rangeMapVerticalDown, lookAt.rangeMapVerticalUp].forEach((map, i) => {
      this.ranges[2 * i] = map.inputMaxValue > 0 ? map.inputMaxValue : 0;
      this.ranges[2 * i + 1] = map.inputMaxValue > 0 ? map.outputScale / map.inputMaxValue : 0;
    });
    const index = (name: string): number => expressions?.indexOf(name) ?? -1;
    this.lookExpressions = Int32Array.of(index('lookLeft'), index('lookRight'), index('lookUp'), index('lookDown'));
  }

  /** Looks at the point (x, y, z), model space, metres, from the next {@link update} on. */
  setTarget(x: number, y: number, z: number): void {
    this.target[0] = x; this.target[1] = y; this.target[2] = z;
    this.mode = 'point';
  }

  /**
   * Looks at a point given in world space, for a model placed by `world` (`AnimatedModel.world`: model → world,
   * column-major): the point is carried into model space now, so call again when either moves. Allocates nothing.
   * @returns false (and the target unchanged) when `world` cannot be inverted
   */
  setTargetWorld(point: ArrayLike<number>, world: Float64Array): boolean {
    if (!invertAffine(this.inverse, world)) return false;
    this.point[0] = point[0]; this.point[1] = point[1]; this.point[2] = point[2];
    transformPoint(this.target, this.inverse, this.point);
    this.mode = 'point';
    return true;
  }

  /** Sets yaw and pitch (degrees, the signs of {@link yaw} and {@link pitch}) directly, e.g. from a VRMA look-at track. */
  setAngles(yawDegrees: number, pitchDegrees: number): void {
    this.yaw = yawDegrees;
    this.pitch = pitchDegrees;
    this.mode = 'angles';
  }

  /** Stops looking: the eyes (or look expressions) stay as the pose and the caller set them. */
  clear(): void {
    this.mode = 'none';
    this.yaw = 0;
    this.pitch = 0;
  }

  /**
   * In `point` mode, {@link yaw} and {@link pitch} of {@link target} as seen from look-at space in `pose` (the
   * head as posed now, read from the local pose, so this runs before the matrix stages). Allocates nothing.
   */
  update(pose: LocalPose, skeleton: Skeleton): void {
    if (this.mode !== 'point') return;
    const m = poseJointMatrix(this.matrix, skeleton, pose, this.head);
    const o = this.lookAt.offsetFromHeadBone, q = this.quat, p = this.point;
    // Origin: the offset in the head's frame; direction into look-at space: restHead · headNow⁻¹ · (target − origin).
    p[0] = this.target[0] - (m[0] * o[0] + m[4] * o[1] + m[8] * o[2] + m[12]);
    p[1] = this.target[1] - (m[1] * o[0] + m[5] * o[1] + m[9] * o[2] + m[13]);
    p[2] = this.target[2] - (m[2] * o[0] + m[6] * o[1] + m[10] * o[2] + m[14]);
    polarRotation(m, 0, q, 0);
    quatConjugateRotateAt(p, 0, q, 0, p, 0);
    quatRotateAt(p, 0, this.restHead, 0, p, 0);
    yawPitchOfDirection(this.angles, p);
    this.yaw = this.angles[0];
    this.pitch = this.angles[1];
  }

  /**
   * `expression` type, while looking ({@link mode} not `none`): sets the input weights of lookLeft / lookRight
   * (`rangeMapHorizontalOuter` of |yaw|, the other 0) and lookDown / lookUp (`rangeMapVerticalDown` /
   * `rangeMapVerticalUp` of |pitch|, the other 0) in `expressions`, before it resolves, so their overrides apply
   * (VRMC_vrm-1.0 `lookAt.md` "Apply Yaw and Pitch to expression"). Nothing for the `bone` type.
   */
  applyExpressions(expressions: ExpressionState): void {
    if (this.mode === 'none' || this.lookAt.type !== 'expression') return;
    const looks = this.lookExpressions, weights = expressions.weights, r = this.ranges;
    const yaw = this.yaw, pitch = this.pitch;
    const h = Math.min(Math.abs(yaw), r[2 * OUTER]) * r[2 * OUTER + 1];
    const v = pitch > 0 ? Math.min(pitch, r[2 * DOWN]) * r[2 * DOWN + 1] : Math.min(-pitch, r[2 * UP]) * r[2 * UP + 1];
    // Input weights clamped to [0, 1] as ExpressionState.setWeight does, written in place (no float passed to a call).
    if (looks[0] >= 0) weights[looks[0]] = yaw > 0 ? Math.min(1, Math.max(0, h)) : 0;
    if (looks[1] >= 0) weights[looks[1]] = yaw < 0 ? Math.min(1, Math.max(0, h)) : 0;
    if (looks[2] >= 0) weights[looks[2]] = pitch < 0 ? Math.min(1, Math.max(0, v)) : 0;
    if (looks[3] >= 0) weights[looks[3]] = pitch > 0 ? Math.min(1, Math.max(0, v)) : 0;
  }

  /**
   * `bone` type, while looking: writes the leftEye and rightEye local rotations into `pose` (class comment),
   * their mapped angles scaled by `multiplier[m]` (the expressions' look-at multiplier,
   * `ExpressionState.multipliers` at `ExpressionGroup.LookAt`; default 1). Nothing for the `expression` type.
   * Allocates nothing.
   */
  applyBones(pose: LocalPose, multiplier: ArrayLike<number> = ONE, m = 0): void {
    if (this.mode === 'none' || this.lookAt.type !== 'bone') return;
    const q = this.quat, angles = this.angles, rotations = pose.rotations, r = this.ranges;
    const yaw = this.yaw, pitch = this.pitch, scale = multiplier[m] / DEGREES;
    const pitchOut = pitch > 0 ? Math.min(pitch, r[2 * DOWN]) * r[2 * DOWN + 1] : -Math.min(-pitch, r[2 * UP]) * r[2 * UP + 1];
    for (let e = 0; e < this.eyes.length; e++) {
      const eye = this.eyes[e];
      const map = yaw > 0 ? eye.positiveYaw : eye.negativeYaw;
      const yawOut = (yaw > 0 ? 1 : -1) * Math.min(Math.abs(yaw), r[2 * map]) * r[2 * map + 1];
      angles[2] = yawOut * scale;
      angles[3] = pitchOut * scale;
      eulerYxzQuat(q, 0, angles, 2);
      // local = P⁻¹ · E · P · R
      quatMultiplyAt(q, 4, q, 0, eye.parentRest, 0);
      quatConjugateMultiplyAt(q, 0, eye.parentRest, 0, q, 4);
      quatMultiplyAt(q, 4, q, 0, eye.restLocal, 0);
      const o = 4 * eye.joint;
      rotations[o] = q[4]; rotations[o + 1] = q[5]; rotations[o + 2] = q[6]; rotations[o + 3] = q[7];
    }
  }

  /** Whether {@link applyBones} writes joints (bone type, looking, with eyes): the matrix stages must then see them. */
  get movesJoints(): boolean {
    return this.mode !== 'none' && this.lookAt.type === 'bone' && this.eyes.length > 0;
  }
}

/**
 * `out[o…o+4)` = the rotation of YXZ Euler angles yaw = `angles[a]`, pitch = `angles[a + 1]` (radians): yaw about Y
 * applied after pitch about X, `qY(yaw) · qX(pitch)` (three.js `Euler` order 'YXZ', Unity's `Quaternion.Euler`
 * with z = 0). The angles travel in an array so that the call allocates nothing.
 */
export function eulerYxzQuat(out: Float64Array, o: number, angles: ArrayLike<number>, a: number): Float64Array {
  const yaw = angles[a], pitch = angles[a + 1];
  const sy = Math.sin(yaw / 2), cy = Math.cos(yaw / 2), sx = Math.sin(pitch / 2), cx = Math.cos(pitch / 2);
  out[o] = cy * sx; out[o + 1] = sy * cx; out[o + 2] = -sy * sx; out[o + 3] = cy * cx;
  return out;
}
