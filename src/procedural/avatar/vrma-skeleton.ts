import type { Document, Node, Scene } from '@gltf-transform/core';
import type { HumanoidBoneName } from '../../asset/avatar-asset.ts';
import { AVATAR_BONES } from './avatar-bones.ts';

/**
 * Adds the generated avatar's humanoid bones to `document` as a VRM Animation's rest skeleton: one node per bone of
 * `AVATAR_BONES`, named by its humanoid name, translated from its parent (metres, the T-pose facing +Z, identity
 * rest rotations: VRMC_vrm_animation-1.0's rest pose), the hips under `scene`. Nodes are created in
 * `AVATAR_BONES` order, so the same document gives the same bytes.
 * @returns each bone's node
 */
export function addVrmaSkeleton(document: Document, scene: Scene): Map<HumanoidBoneName, Node> {
  const nodes = new Map<HumanoidBoneName, Node>();
  for (const bone of AVATAR_BONES) {
    const node = document.createNode(bone.name);
    if (bone.parent >= 0) {
      const parent = AVATAR_BONES[bone.parent];
      node.setTranslation([0, 1, 2].map((i) => bone.position[i] - parent.position[i]) as [number, number, number]);
      nodes.get(parent.name)!.addChild(node);
    } else {
      node.setTranslation([...bone.position]);
      scene.addChild(node);
    }
    nodes.set(bone.name, node);
  }
  return nodes;
}
