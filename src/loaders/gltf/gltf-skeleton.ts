import type { GLTF, Node } from '@gltf-transform/core';
import { LoadError } from '../load-error.ts';
import { createLocalPose, type LocalPose } from '../../skeleton/local-pose.ts';
import { MAX_SKELETON_JOINTS, validateSkeleton, type Skeleton } from '../../skeleton/skeleton.ts';

/** The skeleton of a glTF file and the map from glTF node index to skeleton joint index. */
export interface GltfSkeleton {
  readonly skeleton: Skeleton;
  /** The nodes' local transforms: node TRS, matrices decomposed (glTF 2.0 §3.5.3 "Transformations"). */
  readonly restPose: LocalPose;
  /** `Int32Array(nodeCount)`: skeleton joint index of glTF node i. */
  readonly jointOfNode: Int32Array;
}

/** A node's TRS where the JSON leaves them out (glTF 2.0 §5.25 "Node"). */
const IDENTITY_T = [0, 0, 0], IDENTITY_R = [0, 0, 0, 1], IDENTITY_S = [1, 1, 1];

/**
 * Builds a skeleton holding every node of the file (joints and non-joints alike: glTF joint world matrices
 * include non-joint ancestors), ordered parents before children by a depth-first pre-order walk from the
 * roots in file order, children in their `children` order (docs/explanation/skinning-formulas.md S4: one forward pass then computes
 * every world matrix). `sourceIndices` holds the glTF node index, `names` the node names ('' when absent).
 *
 * Rest pose: each node's translation, rotation (x, y, z, w) and scale, read from the JSON; a `matrix` node is
 * decomposed into TRS by gltf-transform's reader (negative determinant → negative x scale).
 *
 * @param nodesJson the validated `/nodes` array (each node the child of at most one node)
 * @param nodes gltf-transform nodes in file order (`root.listNodes()`), for the decomposed TRS of `matrix` nodes:
 *   at least up to the last of them (slim-for-reader.ts)
 * @throws LoadError `fileName: …` when nodes form a cycle (unreachable from any root) or there are more than
 *   {@link MAX_SKELETON_JOINTS} nodes
 */
export function buildGltfSkeleton(fileName: string, nodesJson: readonly GLTF.INode[], nodes: readonly Node[]): GltfSkeleton {
  const nodeCount = nodesJson.length;
  if (nodeCount > MAX_SKELETON_JOINTS) throw new LoadError(fileName, '/nodes', 'TOO_MANY_NODES', `has ${nodeCount} nodes; Sinew's skeleton holds at most ${MAX_SKELETON_JOINTS}`);
  const hasParent = new Uint8Array(nodeCount);
  for (const node of nodesJson) for (const child of node.children ?? []) hasParent[child] = 1;

  const order: number[] = [];
  const parentOfOrder: number[] = [];
  const jointOfNode = new Int32Array(nodeCount).fill(-1);
  // Iterative pre-order DFS from each root in file order: a stack of (node, parent joint) pairs, children
  // pushed in reverse so they are visited in their `children` order.
  const stack: number[] = [];
  for (let r = 0; r < nodeCount; r++) {
    if (hasParent[r]) continue;
    stack.length = 0;
    stack.push(r, -1);
    while (stack.length > 0) {
      const parentJoint = stack.pop()!;
      const node = stack.pop()!;
      const joint = order.length;
      jointOfNode[node] = joint;
      order.push(node);
      parentOfOrder.push(parentJoint);
      const children = nodesJson[node].children ?? [];
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c], joint);
    }
  }
  if (order.length !== nodeCount) {
    const cyclic: number[] = [];
    for (let i = 0; i < nodeCount && cyclic.length < 8; i++) if (jointOfNode[i] < 0) cyclic.push(i);
    throw new LoadError(fileName, '/nodes', 'NODE_LOOP', `${cyclic.join(', ')} form a cycle (no root above them)`);
  }

  const parents = new Int32Array(nodeCount);
  const sourceIndices = new Int32Array(nodeCount);
  const names: string[] = [];
  const restPose = createLocalPose(nodeCount);
  for (let joint = 0; joint < nodeCount; joint++) {
    const nodeIndex = order[joint];
    parents[joint] = parentOfOrder[joint];
    sourceIndices[joint] = nodeIndex;
    names.push(nodesJson[nodeIndex].name ?? '');
    const json = nodesJson[nodeIndex];
    if (json.matrix !== undefined) {
      const node = nodes[nodeIndex];
      if (!node) throw new LoadError(fileName, `/nodes/${nodeIndex}/matrix`, 'INTERNAL', 'was not decomposed by the reader');
      restPose.translations.set(node.getTranslation(), 3 * joint);
      restPose.rotations.set(node.getRotation(), 4 * joint);
      restPose.scales.set(node.getScale(), 3 * joint);
    } else {
      // glTF 2.0 §5.25 "Node": defaults (0, 0, 0), (0, 0, 0, 1), (1, 1, 1); the JSON is validated.
      restPose.translations.set(json.translation ?? IDENTITY_T, 3 * joint);
      restPose.rotations.set(json.rotation ?? IDENTITY_R, 4 * joint);
      restPose.scales.set(json.scale ?? IDENTITY_S, 3 * joint);
    }
    // JSON numbers are finite, but a value past ±3.4e38 becomes ±∞ in the float32 pose.
    for (const [path, values, n] of [['translation', restPose.translations, 3], ['rotation', restPose.rotations, 4], ['scale', restPose.scales, 3]] as const) {
      for (let k = 0; k < n; k++) {
        if (Number.isFinite(values[n * joint + k])) continue;
        const where = `/nodes/${nodeIndex}/${nodesJson[nodeIndex].matrix !== undefined ? 'matrix' : path}`;
        throw new LoadError(fileName, where, 'VALUE_NOT_IN_RANGE', 'is beyond the float32 range (±3.4e38): the node cannot be placed');
      }
    }
  }
  const skeleton: Skeleton = { jointCount: nodeCount, names, parents, sourceIndices };
  validateSkeleton(skeleton, fileName);
  return { skeleton, restPose, jointOfNode };
}
