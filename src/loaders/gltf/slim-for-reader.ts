import type { GLTF } from '@gltf-transform/core';

/**
 * The glTF JSON as gltf-transform needs to see it when no primitive is Draco-compressed: Sinew reads from its
 * document only the accessors' arrays, the nodes' TRS and the textures (parse-gltf.ts); meshes, skins,
 * animations, scenes and the nodes' links are read from the JSON itself. Leaving them out spares the reader a
 * graph of objects and edges per mesh, primitive and node, the largest part of loading a file of many mesh
 * nodes (bench key `nodes20k.load_ms`). Nodes keep their places (indices) and transforms; the JSON given is
 * not changed.
 */
export function slimForReader(json: GLTF.IGLTF): GLTF.IGLTF {
  const nodes = json.nodes?.map((node): GLTF.INode => {
    const slim: GLTF.INode = {};
    if (node.matrix !== undefined) slim.matrix = node.matrix;
    if (node.translation !== undefined) slim.translation = node.translation;
    if (node.rotation !== undefined) slim.rotation = node.rotation;
    if (node.scale !== undefined) slim.scale = node.scale;
    return slim;
  });
  const { meshes: _meshes, skins: _skins, animations: _animations, scenes: _scenes, scene: _scene, ...rest } = json;
  return nodes ? { ...rest, nodes } : rest;
}
