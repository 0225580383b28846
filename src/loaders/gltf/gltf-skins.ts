import type { GLTF } from '@gltf-transform/core';
import { LoadError } from '../load-error.ts';
import type { SkinAsset } from '../../asset/model-asset.ts';
import type { GltfAccessors } from './gltf-accessors.ts';

/** How far an inverse bind matrix's bottom row may stray from 0 0 0 1 (float noise in exporters). */
const AFFINE_TOLERANCE = 1e-5;

/**
 * Converts `/skins` into SkinAssets (glTF 2.0 §3.7.3 "Skins"): each joint node index becomes a skeleton
 * joint index through `jointOfNode`; inverse bind matrices are the MAT4 float accessor's first
 * `joints.length` matrices, column-major, or identities when the skin gives none.
 *
 * @param jointOfNode `Int32Array(nodeCount)`: skeleton joint of each glTF node (buildGltfSkeleton)
 * @throws LoadError `fileName: /skins/s/inverseBindMatrices …` when the accessor is not MAT4 float or has fewer
 *   matrices than the skin has joints (glTF 2.0 requires at least as many), and `…/inverseBindMatrices/j is not
 *   affine` when a matrix's bottom row is not 0 0 0 1: the skinning path multiplies 3×4 affine parts only
 *   (src/skinning/skin-matrices.ts), and glTF joint transforms are affine by construction.
 */
export function buildGltfSkins(fileName: string, skinsJson: readonly GLTF.ISkin[], accessors: GltfAccessors, jointOfNode: Int32Array): SkinAsset[] {
  return skinsJson.map((skin, s) => {
    const jointCount = skin.joints.length;
    const joints = new Int32Array(jointCount);
    for (let j = 0; j < jointCount; j++) joints[j] = jointOfNode[skin.joints[j]];
    let inverseBindMatrices: Float32Array;
    if (skin.inverseBindMatrices === undefined) {
      inverseBindMatrices = new Float32Array(16 * jointCount);
      for (let j = 0; j < jointCount; j++) {
        inverseBindMatrices[16 * j] = inverseBindMatrices[16 * j + 5] = inverseBindMatrices[16 * j + 10] = inverseBindMatrices[16 * j + 15] = 1;
      }
    } else {
      const place = `/skins/${s}/inverseBindMatrices`;
      const matrices = accessors.readFloats(skin.inverseBindMatrices, place, ['MAT4'], []);
      const count = matrices.length / 16;
      if (count < jointCount) {
        throw new LoadError(fileName, place, 'INVALID_IBM_ACCESSOR_COUNT', `(accessor ${skin.inverseBindMatrices}) has ${count} matrices for ${jointCount} joints`);
      }
      inverseBindMatrices = count === jointCount ? matrices : matrices.slice(0, 16 * jointCount);
      for (let j = 0; j < jointCount; j++) {
        const o = 16 * j;
        const row = [inverseBindMatrices[o + 3], inverseBindMatrices[o + 7], inverseBindMatrices[o + 11], inverseBindMatrices[o + 15]];
        if (Math.abs(row[0]) > AFFINE_TOLERANCE || Math.abs(row[1]) > AFFINE_TOLERANCE || Math.abs(row[2]) > AFFINE_TOLERANCE || Math.abs(row[3] - 1) > AFFINE_TOLERANCE) {
          throw new LoadError(fileName, `${place}/${j}`, 'ACCESSOR_INDECOMPOSABLE_MATRIX', `is not affine: its bottom row is ${row.join(' ')}, not 0 0 0 1`);
        }
      }
    }
    return { name: skin.name ?? '', joints, inverseBindMatrices };
  });
}
