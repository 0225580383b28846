import { describe, expect, it } from 'vitest';
import { subtreeMask } from '../../../src/skeleton/subtree-mask.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

/** root 0 → spine 1 → (arm 2 → hand 3), leg 4 under the root. */
const skeleton: Skeleton = {
  jointCount: 5,
  names: ['root', 'spine', 'arm', 'hand', 'leg'],
  parents: Int32Array.from([-1, 0, 1, 2, 0]),
  sourceIndices: Int32Array.from([0, 1, 2, 3, 4]),
} as Skeleton;

describe('subtreeMask', () => {
  it('is 1 on the joint and everything below it, 0 elsewhere', () => {
    expect([...subtreeMask(skeleton, 2)]).toEqual([0, 0, 1, 1, 0]);
    expect([...subtreeMask(skeleton, 1)]).toEqual([0, 1, 1, 1, 0]);
    expect([...subtreeMask(skeleton, 4)]).toEqual([0, 0, 0, 0, 1]);
    expect([...subtreeMask(skeleton, 0)]).toEqual([1, 1, 1, 1, 1]);
  });

  it('refuses a joint the skeleton does not have', () => {
    expect(() => subtreeMask(skeleton, 5)).toThrow(RangeError);
    expect(() => subtreeMask(skeleton, -1)).toThrow(RangeError);
  });
});
