import type { HumanoidBoneName, HumanoidMap } from '../asset/avatar-asset.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { computeModelFrames, createModelFrames } from '../skeleton/model-frames.ts';
import { quatConjugateMultiplyAt, quatConjugateRotateAt, quatMultiplyAt, quatRotateAt } from '../math/quaternion.ts';
import { HUMANOID_BONES, humanoidBoneIndex } from './humanoid-bones.ts';

/**
 * The normalised pose of a humanoid as a view over a skeleton (three-vrm's normalized humanoid bones,
 * `VRMHumanoidRig`): per humanoid bone a *normalised local rotation* n that is the identity in the rest pose and
 * turns the bone about axes of model space, whatever the rig's own joint frames. Made once by
 * {@link createNormalizedHumanoid}; read and written by {@link setNormalizedRotation},
 * {@link getNormalizedRotation}, {@link setNormalizedHipsPosition} and {@link getNormalizedHipsPosition}, which
 * allocate nothing. Caller-owned: each call overwrites `scratch`. three-vrm's world space is Sinew's model space
 * (the skeleton roots' space): the model's own placement turns the normalised frames with everything else.
 *
 * Per humanoid bone b (index in `HUMANOID_BONES`), its joint j and j's skeleton parent:
 * - `joints`: `Int32Array(55)`, j or −1 when the rig lacks b;
 * - `parentRestRotations`: `Float64Array(4·55)` (x, y, z, w at `4b`), P: the rest model rotation of j's skeleton
 *   parent (the identity for a root);
 * - `restModelRotations`: `Float64Array(4·55)`, the rest model rotation of j (P · the rest local rotation);
 * - `restModelPositions`: `Float64Array(3·55)`, j's rest model position (the skeleton's units).
 * Rows of bones the rig lacks hold the identity and zeros.
 */
export interface NormalizedHumanoid {
  readonly skeleton: Skeleton;
  readonly joints: Int32Array;
  readonly parentRestRotations: Float64Array;
  readonly restModelRotations: Float64Array;
  readonly restModelPositions: Float64Array;
  /** The hips joint's skeleton ancestors, root first (`Int32Array`): the hips parent's current frame. */
  readonly hipsAncestors: Int32Array;
  /** f64 working space of the calls: 3 rotations, then a frame (rotation, position, scale) and a vector. */
  readonly scratch: Float64Array;
}

/**
 * Builds the normalised view of `skeleton` in `restPose` (its bind or T-pose: VRM 1.0 requires a T-pose rest,
 * VRMC_vrm-1.0 `humanoid.md`; a clip's rest for VRMA) through `humanoid`. Allocates (set-up, not per frame).
 * @throws RangeError when a humanoid bone's joint is not a joint of `skeleton` (out of range or not an integer)
 */
export function createNormalizedHumanoid(skeleton: Skeleton, restPose: LocalPose, humanoid: HumanoidMap): NormalizedHumanoid {
  const count = HUMANOID_BONES.length;
  const joints = new Int32Array(count).fill(-1);
  const parentRestRotations = new Float64Array(4 * count);
  const restModelRotations = new Float64Array(4 * count);
  const restModelPositions = new Float64Array(3 * count);
  const frames = computeModelFrames(createModelFrames(skeleton.jointCount), skeleton, restPose, [0, 0, 0, 1]);
  for (let b = 0; b < count; b++) {
    parentRestRotations[4 * b + 3] = 1;
    restModelRotations[4 * b + 3] = 1;
    const j = humanoid.bones[HUMANOID_BONES[b].name];
    if (j === undefined) continue;
    if (!Number.isInteger(j) || j < 0 || j >= skeleton.jointCount) {
      throw new RangeError(`humanoid bone "${HUMANOID_BONES[b].name}" names joint ${j}, not a joint of a skeleton of ${skeleton.jointCount}`);
    }
    joints[b] = j;
    const p = skeleton.parents[j];
    if (p >= 0) parentRestRotations.set(frames.q.subarray(4 * p, 4 * p + 4), 4 * b);
    restModelRotations.set(frames.q.subarray(4 * j, 4 * j + 4), 4 * b);
    restModelPositions.set(frames.p.subarray(3 * j, 3 * j + 3), 3 * b);
  }
  const ancestors: number[] = [];
  if (joints[0] >= 0) for (let p = skeleton.parents[joints[0]]; p >= 0; p = skeleton.parents[p]) ancestors.unshift(p);
  return {
    skeleton, joints, parentRestRotations, restModelRotations, restModelPositions,
    hipsAncestors: Int32Array.from(ancestors), scratch: new Float64Array(4 * 3 + 4 + 3 + 3 + 3),
  };
}

/** A humanoid bone name or its index in `HUMANOID_BONES` → the index (−1 when neither). */
function boneIndexOf(bone: HumanoidBoneName | number): number {
  return typeof bone === 'number' ? (bone >= 0 && bone < HUMANOID_BONES.length ? bone : -1) : humanoidBoneIndex(bone);
}

/** The joint of a humanoid bone (by name or index) in `view`'s skeleton, or −1 when the rig lacks it. */
export function normalizedBoneJoint(view: NormalizedHumanoid, bone: HumanoidBoneName | number): number {
  const b = boneIndexOf(bone);
  return b < 0 ? -1 : view.joints[b];
}

/**
 * Writes into `pose` the raw local rotation of humanoid bone `bone` for the normalised local rotation `rotation`
 * (x, y, z, w at `offset`, a unit quaternion: it is not normalised, as three-vrm does not), as three-vrm's
 * `VRMHumanoidRig.update` does:
 * `raw = P⁻¹ · n · P · rest`, P the rest model rotation of the joint's skeleton parent and rest its rest local
 * rotation ({@link NormalizedHumanoid}); written here as `P⁻¹ · (n · R)` with R = P · rest the joint's rest model
 * rotation. Then, while the non-humanoid joints between humanoid bones keep their rest rotations, the joint's
 * model rotation is the product of the normalised rotations down its humanoid chain times R: n turns the bone
 * about model axes. The VRM Animation notes give the same conversion (VRMC_vrm_animation-1.0
 * `how_to_transform_human_pose.md`, non-normative: `local = L · W⁻¹ · n · W`, W = R and L = rest, so L·W⁻¹ =
 * P⁻¹). A bone the rig lacks is skipped, as three-vrm skips it; those notes suggest folding a missing bone's
 * rotation into its children instead, which Sinew leaves to retargeting (retargetClip's model-space rule).
 * Allocates nothing.
 * @returns pose
 */
export function setNormalizedRotation(pose: LocalPose, view: NormalizedHumanoid, bone: HumanoidBoneName | number, rotation: ArrayLike<number>, offset = 0): LocalPose {
  const b = boneIndexOf(bone);
  const j = b < 0 ? -1 : view.joints[b];
  if (j < 0) return pose;
  const s = view.scratch;
  quatMultiplyAt(s, 0, rotation, offset, view.restModelRotations, 4 * b);
  quatConjugateMultiplyAt(s, 4, view.parentRestRotations, 4 * b, s, 0);
  const r = pose.rotations, o = 4 * j;
  r[o] = s[4]; r[o + 1] = s[5]; r[o + 2] = s[6]; r[o + 3] = s[7];
  return pose;
}

/**
 * The normalised local rotation of humanoid bone `bone` in `pose`, the inverse of {@link setNormalizedRotation}:
 * `n = P · raw · R⁻¹` (x, y, z, w into `out` at `offset`); the identity for a bone the rig lacks. Allocates nothing.
 * @returns out
 */
export function getNormalizedRotation<T extends Float32Array | Float64Array>(out: T, view: NormalizedHumanoid, pose: LocalPose, bone: HumanoidBoneName | number, offset = 0): T {
  const b = boneIndexOf(bone);
  const j = b < 0 ? -1 : view.joints[b];
  if (j < 0) {
    out[offset] = 0; out[offset + 1] = 0; out[offset + 2] = 0; out[offset + 3] = 1;
    return out;
  }
  const s = view.scratch, m = view.restModelRotations;
  quatMultiplyAt(s, 0, view.parentRestRotations, 4 * b, pose.rotations, 4 * j);
  // R⁻¹ as a conjugate copy: n = (P · raw) · R*.
  s[8] = -m[4 * b]; s[9] = -m[4 * b + 1]; s[10] = -m[4 * b + 2]; s[11] = m[4 * b + 3];
  quatMultiplyAt(s, 4, s, 0, s, 8);
  out[offset] = s[4]; out[offset + 1] = s[5]; out[offset + 2] = s[6]; out[offset + 3] = s[7];
  return out;
}

/**
 * The current model frame of the hips joint's skeleton parent in `pose` into `scratch`: rotation at `[12…16)`,
 * position at `[16…19)`, accumulated scale at `[19…22)`, composed from the root down as computeModelFrames
 * composes (src/skeleton/model-frames.ts) but over the hips' ancestors only and without its normalisation, whose
 * `Math.hypot` allocates in V8: this runs each frame. The identity frame when the hips is a root.
 */
function hipsParentFrame(view: NormalizedHumanoid, pose: LocalPose): Float64Array {
  const s = view.scratch, a = view.hipsAncestors, t = pose.translations, sc = pose.scales;
  s[12] = 0; s[13] = 0; s[14] = 0; s[15] = 1;
  s[16] = 0; s[17] = 0; s[18] = 0; s[19] = 1; s[20] = 1; s[21] = 1;
  for (let i = 0; i < a.length; i++) {
    const j3 = 3 * a[i];
    s[22] = s[19] * t[j3]; s[23] = s[20] * t[j3 + 1]; s[24] = s[21] * t[j3 + 2];
    quatRotateAt(s, 22, s, 12, s, 22);
    s[16] += s[22]; s[17] += s[23]; s[18] += s[24];
    quatMultiplyAt(s, 12, s, 12, pose.rotations, 4 * a[i]);
    s[19] *= sc[j3]; s[20] *= sc[j3 + 1]; s[21] *= sc[j3 + 2];
  }
  return s;
}

/**
 * Writes into `pose` the hips joint's local translation that puts the hips at `position` (model space, x, y, z at
 * `offset`, the skeleton's units), through the current frame of its skeleton parent in `pose` — three-vrm's
 * `VRMHumanoidRig.update` for the hips, where the normalised hips' position is its world position. Skipped when
 * the rig has no hips. Allocates nothing.
 * @returns pose
 */
export function setNormalizedHipsPosition(pose: LocalPose, view: NormalizedHumanoid, position: ArrayLike<number>, offset = 0): LocalPose {
  const hips = view.joints[0];
  if (hips < 0) return pose;
  const s = hipsParentFrame(view, pose), t = pose.translations, h = 3 * hips;
  s[22] = position[offset] - s[16]; s[23] = position[offset + 1] - s[17]; s[24] = position[offset + 2] - s[18];
  quatConjugateRotateAt(s, 22, s, 12, s, 22);
  t[h] = s[22] / s[19]; t[h + 1] = s[23] / s[20]; t[h + 2] = s[24] / s[21];
  return pose;
}

/**
 * The hips' model-space position in `pose` (x, y, z into `out` at `offset`), the inverse of
 * {@link setNormalizedHipsPosition}; zeros when the rig has no hips. Allocates nothing.
 * @returns out
 */
export function getNormalizedHipsPosition<T extends Float32Array | Float64Array>(out: T, view: NormalizedHumanoid, pose: LocalPose, offset = 0): T {
  const hips = view.joints[0];
  if (hips < 0) {
    out[offset] = 0; out[offset + 1] = 0; out[offset + 2] = 0;
    return out;
  }
  const s = hipsParentFrame(view, pose), h = 3 * hips, t = pose.translations;
  s[22] = s[19] * t[h]; s[23] = s[20] * t[h + 1]; s[24] = s[21] * t[h + 2];
  quatRotateAt(s, 22, s, 12, s, 22);
  out[offset] = s[22] + s[16]; out[offset + 1] = s[23] + s[17]; out[offset + 2] = s[24] + s[18];
  return out;
}
