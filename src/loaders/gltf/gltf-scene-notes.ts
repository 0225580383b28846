import type { GLTF } from '@gltf-transform/core';

/**
 * Warnings about how a file organises its scenes and skins, for deviations that change nothing Sinew draws
 * (docs/explanation/compatibility.md), one per kind and file:
 * - several scenes and no `scene` (glTF 2.0 §3.4 "Scenes" leaves the choice to the client): Sinew draws
 *   every mesh node, of every scene;
 * - a skin's `skeleton` that is not a common root of its joints (glTF 2.0 §3.7.3 "Skins" requires it to be
 *   one): Sinew does not use `skeleton` (joint matrices are model-space, as in three.js), so it is ignored.
 *
 * @param nodesJson the validated `/nodes` (each node the child of at most one node, no cycles)
 */
export function noteSceneDeviations(fileName: string, json: GLTF.IGLTF, warnings: string[]): void {
  const scenes = json.scenes ?? [];
  if (json.scene === undefined && scenes.length > 1) {
    warnings.push(`${fileName}: has ${scenes.length} scenes and no default /scene; drew the mesh nodes of every scene`);
  }
  const nodes = json.nodes ?? [];
  const parentOf = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, n) => { for (const child of node.children ?? []) parentOf[child] = n; });
  const isAncestorOrSelf = (ancestor: number, node: number): boolean => {
    for (let n = node; n >= 0; n = parentOf[n]) if (n === ancestor) return true;
    return false;
  };
  const notRoots: string[] = [];
  (json.skins ?? []).forEach((skin, s) => {
    if (skin.skeleton === undefined) return;
    if (!skin.joints.every((joint) => isAncestorOrSelf(skin.skeleton!, joint))) notRoots.push(`/skins/${s}/skeleton (node ${skin.skeleton})`);
  });
  if (notRoots.length > 0) {
    warnings.push(`${fileName}: ${notRoots.join(', ')} ${notRoots.length > 1 ? 'are not common roots' : 'is not a common root'} of the skin's joints; ignored (Sinew does not need it)`);
  }
}
