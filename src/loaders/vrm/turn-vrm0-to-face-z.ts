import type { AnimationChannel, AnimationClip } from '../../asset/animation-clip.ts';
import type { LocalPose } from '../../skeleton/local-pose.ts';
import type { Skeleton } from '../../skeleton/skeleton.ts';

/**
 * Turns a VRM 0.x model half a turn about +Y so it faces +Z, as three-vrm's `VRMUtils.rotateVRM0` does (VRM 0.x
 * avatars face −Z; VRM 1.0 and VRMA clips face +Z). three-vrm turns its scene object; Sinew turns the data, so the
 * GPU path, the CPU reference and `sinew eval` all see the same turned model: each root joint's rest translation
 * and rotation, and every translation and rotation channel on a root joint, are premultiplied by
 * R = Ry(π): t ↦ (−t.x, t.y, −t.z), q ↦ (0, 1, 0, 0) ⊗ q = (q.z, q.w, −q.x, −q.y) (x, y, z, w). Every joint's
 * model-space matrix becomes R · M, so skinned vertices (M · inverse bind · v) and rigid meshes turn with it;
 * inverse bind matrices, meshes and morph targets stay as the file gives them. Both maps are linear, so
 * CUBICSPLINE tangents turn by the same rule, and a rotation track keeps its keys' hemisphere continuity.
 *
 * The head's own frame is not turned: a 0.x look-at keeps `faceFront` (0, 0, −1) (read-vrm-look-at.ts).
 *
 * @param restPose turned in place (the loader's own, not yet shared)
 * @param clips the file's clips (glTF interpolations: STEP, LINEAR, CUBICSPLINE)
 * @returns the clips with their root channels turned (new channel objects and value arrays; the rest shared)
 */
export function turnVrm0ToFaceZ(skeleton: Skeleton, restPose: LocalPose, clips: readonly AnimationClip[]): AnimationClip[] {
  const isRoot = (joint: number) => skeleton.parents[joint] < 0;
  for (let joint = 0; joint < skeleton.jointCount; joint++) {
    if (!isRoot(joint)) continue;
    turnTranslations(restPose.translations.subarray(3 * joint, 3 * joint + 3));
    turnRotations(restPose.rotations.subarray(4 * joint, 4 * joint + 4));
  }
  return clips.map((clip) => {
    if (!clip.channels.some((c) => isRoot(c.joint) && (c.path === 'translation' || c.path === 'rotation'))) return clip;
    return { ...clip, channels: clip.channels.map((channel): AnimationChannel => {
      if (!isRoot(channel.joint) || (channel.path !== 'translation' && channel.path !== 'rotation')) return channel;
      const values = channel.values.slice();
      if (channel.path === 'translation') turnTranslations(values);
      else turnRotations(values);
      return { ...channel, values };
    }) };
  });
}

/** (x, y, z) ↦ (−x, y, −z) for every triple of `values`. */
function turnTranslations(values: Float32Array): void {
  for (let i = 0; i + 2 < values.length; i += 3) {
    values[i] = -values[i];
    values[i + 2] = -values[i + 2];
  }
}

/** (x, y, z, w) ↦ (z, w, −x, −y): the quaternion of a half turn about +Y times each quadruple of `values`. */
function turnRotations(values: Float32Array): void {
  for (let i = 0; i + 3 < values.length; i += 4) {
    const x = values[i], y = values[i + 1], z = values[i + 2], w = values[i + 3];
    values[i] = z;
    values[i + 1] = w;
    values[i + 2] = -x;
    values[i + 3] = -y;
  }
}
