import { didYouMean } from '../math/did-you-mean.ts';

/**
 * Most joints (nodes) a {@link Skeleton} holds: 2²⁴, so a joint index is exact in a float32 (textures address
 * joints by float rows). The memory budget (docs/guide/memory-ceiling.md) bounds real files long before it.
 */
export const MAX_SKELETON_JOINTS = 1 << 24;

/**
 * A skeleton: the transform hierarchy that animation drives. For glTF it holds every node of the file
 * (joints and the non-joint nodes above, between and beside them, since a glTF joint's model-space matrix
 * includes its non-joint ancestors); for MD5 it holds the file's joints. Its roots' space is *model space*
 * (docs/explanation/skinning-formulas.md "Spaces and poses").
 *
 * Invariant (checked by {@link validateSkeleton}): parents come before children, so one forward pass over
 * the arrays computes every model-space matrix (docs/explanation/skinning-formulas.md S4).
 */
export interface Skeleton {
  /** Number of joints (nodes) n. */
  readonly jointCount: number;
  /** Joint names, length n; empty string when the file gives none. */
  readonly names: readonly string[];
  /** `Int32Array(n)`: parent joint index, −1 for a root; `parents[i] < i` for every non-root i. */
  readonly parents: Int32Array;
  /**
   * `Int32Array(n)`: the joint's index in the source file (glTF node index, MD5 joint index), since loaders
   * reorder joints to put parents first.
   */
  readonly sourceIndices: Int32Array;
}

/**
 * Checks the parent-before-child invariant.
 * @throws Error naming `where` and the first joint whose parent is out of range or not before it.
 */
export function validateSkeleton(skeleton: Skeleton, where: string): void {
  const { parents, jointCount } = skeleton;
  if (parents.length !== jointCount) throw new Error(`${where}: skeleton has ${parents.length} parents for ${jointCount} joints`);
  for (let i = 0; i < jointCount; i++) {
    const p = parents[i];
    if (p < -1 || p >= i) throw new Error(`${where}: joint ${i} has parent ${p}, which does not come before it`);
  }
}

/** Index of the first joint named `name`, or −1. Linear in n: meant for set-up, not per frame. */
export function findJoint(skeleton: Skeleton, name: string): number {
  return skeleton.names.indexOf(name);
}

/**
 * For a message about a joint {@link findJoint} did not find: a case-insensitive "did you mean" naming the
 * closest joint names of `skeleton` (src/math/did-you-mean.ts), then `after`; `''` for an index or when no
 * name is close. One form wherever a joint is asked for by name (attachments, hotspots, IK, joint matrices).
 */
export function didYouMeanJoint(skeleton: Skeleton, joint: unknown, after = ' '): string {
  return typeof joint === 'string' ? didYouMean(joint, skeleton.names, after) : '';
}
