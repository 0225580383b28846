import { GltfBuilder } from '../../helpers/gltf-builder.ts';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';
import type { SecondaryMotionReading } from '../../../../src/loaders/vrm/secondary-motion-reading.ts';

/**
 * The nodes of a small tree for spring bone and constraint tests: name, rest translation, children (glTF node
 * indices). Node 0 (`ear`) is a child of node 8, so the loader reorders joints and a joint index is not a node index.
 */
export const TREE: readonly (readonly [string, readonly [number, number, number], readonly number[]])[] = [
  ['ear', [0.1, 0, 0], []], // 0
  ['root', [0, 1, 0], [2, 6, 8, 9]], // 1
  ['hair', [0, 0.1, 0], [3]], // 2
  ['hair1', [0, -0.1, 0], [4, 5]], // 3
  ['hair2', [0, -0.1, 0.02], []], // 4
  ['hair2b', [0.05, -0.1, 0], []], // 5
  ['tail', [0, 0, -0.1], [7]], // 6
  ['tail1', [0, 0, -0.1], [12]], // 7
  ['head', [0, 0.5, 0], [0]], // 8
  ['arm', [0.2, 0, 0], [10]], // 9
  ['twist', [0.1, 0, 0], [11]], // 10
  ['hand', [0.1, 0, 0], []], // 11
  ['tail2', [0, 0, -0.1], []], // 12
];

/** The glTF node named `name` in {@link TREE}. */
export const treeNode = (name: string): number => TREE.findIndex(([n]) => n === name);

/** {@link TREE} as a glTF with only nodes (one scene, root `root`); `extensions` merged in at the top level. */
export function springTree(extensions: Record<string, unknown> = {}, extensionsUsed: string[] = Object.keys(extensions)): GltfBuilder {
  const b = new GltfBuilder();
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [1] }],
    nodes: TREE.map(([name, translation, children]) => ({ name, translation: [...translation], ...(children.length > 0 ? { children: [...children] } : {}) })),
    extensionsUsed,
    extensions,
  });
  return b;
}

/** The glTF node of each skeleton joint of `asset` (`sourceIndices`), as a function. */
export const nodeOfJoint = (asset: ModelAsset) => (joint: number): number => asset.skeleton.sourceIndices[joint];

/** A reading of `asset`'s file for calling the secondary motion readers directly (with JSON no GLB can carry: NaN). */
export function readingOf(asset: ModelAsset, json: any, fileName = 't.glb'): SecondaryMotionReading & { warnings: string[] } {
  const jointOfNode = new Int32Array(asset.skeleton.jointCount);
  asset.skeleton.sourceIndices.forEach((node, joint) => { jointOfNode[node] = joint; });
  return { fileName, json, jointOfNode, parents: asset.skeleton.parents, restTranslations: asset.restPose.translations, warnings: [] };
}
