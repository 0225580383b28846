import type { ModelAsset, PrimitiveAsset } from '../../../src/asset/model-asset.ts';

/**
 * A copy of `asset` with a rigid (unskinned) box mesh added, carried by skeleton joint `node`: a "prop" held
 * by that joint, `size` wide, its centre `offset` from the joint in the joint's space, so the joint's rotation
 * swings it. 24 vertices (4 per face, outward normals), counter-clockwise front faces, material 0, and one more
 * mesh instance with `skin: −1`. Other arrays are shared with `asset`.
 */
export function withRigidProp(asset: ModelAsset, node: number, size: number, offset: readonly [number, number, number]): ModelAsset {
  const positions: number[] = [], normals: number[] = [], indices: number[] = [];
  const h = size / 2;
  // Per face: the axis it faces along, its sign, and two in-plane axes ordered so (u × v) points outward.
  for (const [axis, sign] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
    const u = (axis + (sign > 0 ? 1 : 2)) % 3, v = (axis + (sign > 0 ? 2 : 1)) % 3;
    const first = positions.length / 3;
    for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      const p = [0, 0, 0];
      p[axis] = sign * h; p[u] = a * h; p[v] = b * h;
      positions.push(p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]);
      const n = [0, 0, 0];
      n[axis] = sign;
      normals.push(n[0], n[1], n[2]);
    }
    indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
  }
  const prop: PrimitiveAsset = {
    vertexCount: 24, positions: new Float32Array(positions), normals: new Float32Array(normals), uvs: null,
    joints: null, weights: null, indices: new Uint16Array(indices), material: 0,
  };
  return {
    ...asset,
    name: `${asset.name} with a rigid prop`,
    meshes: [...asset.meshes, { name: 'prop', primitives: [prop] }],
    meshInstances: [...asset.meshInstances, { node, sourceNode: null, mesh: asset.meshes.length, skin: -1 }],
  };
}
