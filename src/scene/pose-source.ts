import type { LocalPose } from '../skeleton/local-pose.ts';

/**
 * Where a frame's local pose comes from, chosen by the caller of `AnimatedModel.evaluate(source)`: one clip
 * at a time ({@link ClipSample}, e.g. `sinew eval`, parity tests) or an `Animator` (the viewer: speed, loop
 * modes, crossfades, layers), which fits this interface as it is.
 */
export interface PoseSource {
  /**
   * Writes the local pose of every joint into `out`: `restPose` where the source animates nothing. Must not
   * allocate (it runs once per frame).
   * @param out pose of the skeleton's joint count, overwritten
   * @param restPose the skeleton's rest pose (`ModelAsset.restPose`, the file's node transforms)
   */
  evaluate(out: LocalPose, restPose: LocalPose): unknown;
}
