import type { Skeleton } from './skeleton.ts';
import type { LocalPose } from './local-pose.ts';
import { composeStrided, multiplyStrided } from '../math/strided-mat4.ts';

/**
 * Local-to-model: world (model-space) matrix of every joint, `world[i] = world[parent[i]] · T·R·S(i)`
 * (SEEDS S4 items 2, 5, 6; glTF 2.0 §3.5.3). One forward pass, relying on parents before children.
 * Allocates nothing.
 *
 * @param out `Float32Array(16·jointCount)`, column-major, joint i at `16i`
 * @returns `out`
 */
export function localToModel(out: Float32Array, skeleton: Skeleton, pose: LocalPose): Float32Array {
  const { parents, jointCount } = skeleton;
  const { translations, rotations, scales } = pose;
  for (let i = 0; i < jointCount; i++) {
    const o = 16 * i;
    composeStrided(out, o, translations, 3 * i, rotations, 4 * i, scales, 3 * i);
    const parent = parents[i];
    if (parent >= 0) multiplyStrided(out, o, out, 16 * parent, out, o);
  }
  return out;
}
