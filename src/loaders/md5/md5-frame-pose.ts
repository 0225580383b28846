import { MD5_ANIM_FLAGS, type Md5Anim } from './parse-md5-anim.ts';
import { md5QuaternionW } from './md5-quaternion.ts';

/**
 * The joint values of one `.md5anim` frame, in the file's joint order: each joint starts from its baseframe
 * value, the components its `flags` select (Tx, Ty, Tz, Qx, Qy, Qz in that order) are replaced by consecutive
 * numbers of the frame from its `startIndex`, and the quaternion's w is rebuilt ({@link md5QuaternionW}).
 * Values are parent-relative, except for roots, whose values are in model space (= parent-relative to the
 * model). Allocates nothing.
 *
 * @param outPositions `(3·jointCount)` translations
 * @param outOrientations `(4·jointCount)` rotations (x, y, z, w), as rebuilt (not renormalised)
 * @param frame 0 … frameCount − 1
 * @throws RangeError when `frame` is out of range
 */
export function computeMd5FramePose(
  outPositions: Float64Array | Float32Array,
  outOrientations: Float64Array | Float32Array,
  anim: Md5Anim,
  frame: number,
): void {
  if (!(frame >= 0 && frame < anim.frameCount) || !Number.isInteger(frame)) {
    throw new RangeError(`md5-frame-pose.ts: ${anim.fileName} has no frame ${frame} (numFrames ${anim.frameCount})`);
  }
  const c = anim.frameComponents;
  const base = frame * anim.numAnimatedComponents;
  for (let j = 0; j < anim.hierarchy.length; j++) {
    const { flags, startIndex } = anim.hierarchy[j];
    let k = base + startIndex;
    let tx = anim.basePositions[3 * j], ty = anim.basePositions[3 * j + 1], tz = anim.basePositions[3 * j + 2];
    let qx = anim.baseOrientations[4 * j], qy = anim.baseOrientations[4 * j + 1], qz = anim.baseOrientations[4 * j + 2];
    if (flags & MD5_ANIM_FLAGS.Tx) tx = c[k++];
    if (flags & MD5_ANIM_FLAGS.Ty) ty = c[k++];
    if (flags & MD5_ANIM_FLAGS.Tz) tz = c[k++];
    if (flags & MD5_ANIM_FLAGS.Qx) qx = c[k++];
    if (flags & MD5_ANIM_FLAGS.Qy) qy = c[k++];
    if (flags & MD5_ANIM_FLAGS.Qz) qz = c[k++];
    outPositions[3 * j] = tx;
    outPositions[3 * j + 1] = ty;
    outPositions[3 * j + 2] = tz;
    outOrientations[4 * j] = qx;
    outOrientations[4 * j + 1] = qy;
    outOrientations[4 * j + 2] = qz;
    outOrientations[4 * j + 3] = md5QuaternionW(qx, qy, qz);
  }
}
