import type { Skeleton } from './skeleton.ts';

/**
 * A per-joint layer mask (`Animator.setLayerMask`) that is 1 on joint `root` and every joint below it in the
 * hierarchy and 0 elsewhere: a layer limited to one limb (an arm waving over a walk).
 * @returns `Float32Array(skeleton.jointCount)`
 * @throws RangeError when `root` is not a joint of `skeleton`
 */
export function subtreeMask(skeleton: Skeleton, root: number): Float32Array {
  if (!Number.isInteger(root) || root < 0 || root >= skeleton.jointCount) {
    throw new RangeError(`subtreeMask: joint ${root} does not exist (${skeleton.jointCount} joints)`);
  }
  const mask = new Float32Array(skeleton.jointCount);
  for (let j = 0; j < skeleton.jointCount; j++) {
    for (let a = j; a >= 0; a = skeleton.parents[a]) {
      if (a === root) {
        mask[j] = 1;
        break;
      }
    }
  }
  return mask;
}
