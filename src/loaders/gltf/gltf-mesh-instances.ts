import type { GLTF } from '@gltf-transform/core';
import { LoadError } from '../load-error.ts';
import type { MeshInstance, SkinAsset } from '../../asset/model-asset.ts';
import type { GltfMeshes } from './gltf-meshes.ts';
import type { GltfReading } from './gltf-reading.ts';

/** The mesh instances of a file and the morph weights of their rest pose. */
export interface GltfMeshInstances {
  readonly instances: MeshInstance[];
  /**
   * `Float32Array(w)`: rest-pose morph weights of every instance with morph targets, at its
   * `morphWeightOffset` (the node's `weights`, else the mesh's defaults): `LocalPose.morphWeights`.
   */
  readonly morphWeights: Float32Array;
}

/**
 * One MeshInstance per node that has a mesh, in file node order: `joint` = the node's skeleton joint,
 * `sourceNode` = its glTF index, `skin` = its `skin` or −1. Several nodes may share a mesh, with different
 * skins (each skin's joint count is checked against the mesh's influences).
 *
 * A node with a skin whose mesh has no JOINTS_0 / WEIGHTS_0 at all, and a node without a skin whose mesh has
 * them, are drawn rigid (skin −1) with a warning. A skinned node whose mesh mixes primitives with and without
 * skin attributes keeps its skin: the renderer and the CPU reference skin the primitives that have influences
 * and draw the others rigidly with the node, as three.js does (one warning for the file lists such nodes).
 *
 * An instance of a mesh with morph targets gets its own range of morph weights (`morphWeightOffset`, in node
 * order), filled with the node's `weights` when it has them, else the mesh's defaults (glTF 2.0 §3.7.2.2).
 *
 * @throws LoadError `fileName: mesh m primitive p vertex v influence i names joint j of skin s's n` when an
 *   influence with a weight > 0 names a joint past the skin's joint list; `/nodes/n/weights`
 *   (`NODE_WEIGHTS_INVALID`) when a node's `weights` do not match its mesh's morph target count
 */
export function buildGltfMeshInstances(
  file: Pick<GltfReading, 'fileName' | 'warnings'>,
  nodesJson: readonly GLTF.INode[],
  skins: readonly SkinAsset[],
  meshes: GltfMeshes,
  jointOfNode: Int32Array,
): GltfMeshInstances {
  const { fileName, warnings } = file;
  const instances: MeshInstance[] = [];
  const weights: number[] = [];
  const mixed: number[] = [];
  nodesJson.forEach((node, n) => {
    if (node.mesh === undefined) {
      if (node.weights !== undefined) throw new LoadError(fileName, `/nodes/${n}/weights`, 'NODE_WEIGHTS_INVALID', 'is given for a node without a mesh');
      return;
    }
    const mesh = node.mesh;
    const influences = meshes.influences[mesh];
    const skinned = influences.filter((x) => x !== null).length;
    let skin = node.skin ?? -1;
    if (skin >= 0) {
      if (skinned === 0) {
        warnings.push(`${fileName}: node ${n} has skin ${skin} but mesh ${mesh} has no JOINTS_0/WEIGHTS_0; drawn rigid`);
        skin = -1;
      } else {
        if (skinned < influences.length) mixed.push(n);
        const jointCount = skins[skin].joints.length;
        for (const raw of influences) {
          if (raw === null || raw.maxJoint < jointCount) continue;
          const { influenceCount, joints, weights } = raw;
          for (let i = 0; i < joints.length; i++) {
            if (weights[i] > 0 && joints[i] >= jointCount) {
              const vertex = Math.floor(i / influenceCount), influence = i % influenceCount;
              // No JSON pointer: the message names the vertex in words (where stays null).
              throw new LoadError(
                fileName, null, 'ACCESSOR_JOINTS_INDEX_OOB',
                `mesh ${mesh} primitive ${raw.primitive} vertex ${vertex} influence ${influence} ` +
                `names joint ${joints[i]} of skin ${skin}'s ${jointCount}`,
              );
            }
          }
        }
      }
    } else if (skinned > 0) {
      warnings.push(`${fileName}: node ${n} carries mesh ${mesh}, which has JOINTS_0/WEIGHTS_0, without a skin; drawn rigid`);
    }
    const targetCount = meshes.meshes[mesh].morphTargetCount ?? 0;
    if (node.weights !== undefined && node.weights.length !== targetCount) {
      throw new LoadError(fileName, `/nodes/${n}/weights`, 'NODE_WEIGHTS_INVALID', `has ${node.weights.length} weights; mesh ${mesh} has ${targetCount} morph targets`);
    }
    if (targetCount > 0) {
      const morphWeightOffset = weights.length;
      const own = node.weights ?? meshes.meshes[mesh].defaultMorphWeights!;
      for (let t = 0; t < targetCount; t++) {
        const w = Math.fround(own[t]);
        if (!Number.isFinite(w)) throw new LoadError(fileName, `/nodes/${n}/weights/${t}`, 'VALUE_NOT_IN_RANGE', 'is beyond the float32 range (±3.4e38)');
        weights.push(w);
      }
      instances.push({ node: jointOfNode[n], sourceNode: n, mesh, skin, morphWeightOffset });
    } else {
      instances.push({ node: jointOfNode[n], sourceNode: n, mesh, skin });
    }
  });
  if (mixed.length > 0) {
    warnings.push(
      `${fileName}: skinned node${mixed.length > 1 ? 's' : ''} ${mixed.join(', ')} carr${mixed.length > 1 ? 'y meshes that mix' : 'ies a mesh that mixes'} ` +
      'primitives with and without JOINTS_0/WEIGHTS_0; the ones without are drawn rigidly with the node',
    );
  }
  return { instances, morphWeights: Float32Array.from(weights) };
}
