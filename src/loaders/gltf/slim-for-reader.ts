import type { GLTF } from '@gltf-transform/core';

/**
 * The glTF JSON as gltf-transform needs to see it when no primitive is Draco-compressed: Sinew reads from its
 * document only the accessors' arrays, the matrix nodes' decomposed TRS and the textures (parse-gltf.ts); meshes, skins,
 * animations, scenes and the nodes' links are read from the JSON itself. Leaving them out spares the reader a
 * graph of objects and edges per mesh, primitive and node, the largest part of loading a file of many mesh
 * nodes (bench key `nodes20k.load_ms`). Matrix nodes keep their places (indices); the JSON given is not changed.
 */
export function slimForReader(json: GLTF.IGLTF): GLTF.IGLTF {
  // Only a `matrix` node needs the reader (to decompose it); the others' TRS are read from the JSON
  // (gltf-skeleton.ts). The nodes up to the last matrix node keep their places, the rest are left out: a file of
  // TRS nodes only gives the reader none, sparing it an object and its events per node (bench `nodes.flat100k.eval_s`).
  const source = json.nodes ?? [];
  let end = source.length;
  while (end > 0 && source[end - 1].matrix === undefined) end--;
  const nodes = source.slice(0, end).map((node): GLTF.INode => (node.matrix !== undefined ? { matrix: node.matrix } : {}));
  const { meshes: _meshes, skins: _skins, animations: _animations, scenes: _scenes, scene: _scene, nodes: _nodes, ...rest } = json;
  return nodes.length > 0 ? { ...rest, nodes } : rest;
}
