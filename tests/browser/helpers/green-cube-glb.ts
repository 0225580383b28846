import { GltfBuilder } from '../../unit/helpers/gltf-builder.ts';

/**
 * A GLB of one rigid cube `size` metres wide centred on its node's origin, unlit pure green
 * (KHR_materials_unlit): a prop whose pixels nothing else on a test page shares. 24 vertices, outward
 * counter-clockwise faces.
 */
export function greenCubeGlb(size = 0.05): Uint8Array {
  const positions: number[] = [], indices: number[] = [];
  const h = size / 2;
  for (const [axis, sign] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
    const u = (axis + (sign > 0 ? 1 : 2)) % 3, v = (axis + (sign > 0 ? 2 : 1)) % 3;
    const first = positions.length / 3;
    for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      const p = [0, 0, 0];
      p[axis] = sign * h; p[u] = a * h; p[v] = b * h;
      positions.push(...p);
    }
    indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
  }
  const builder = new GltfBuilder();
  const position = builder.accessor(new Float32Array(positions), 'VEC3', { min: [-h, -h, -h], max: [h, h, h] });
  const index = builder.accessor(new Uint16Array(indices), 'SCALAR');
  Object.assign(builder.json, {
    extensionsUsed: ['KHR_materials_unlit'],
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'cube', mesh: 0 }],
    meshes: [{ name: 'cube', primitives: [{ attributes: { POSITION: position }, indices: index, material: 0 }] }],
    materials: [{ name: 'green', pbrMetallicRoughness: { baseColorFactor: [0, 1, 0, 1] }, extensions: { KHR_materials_unlit: {} } }],
  });
  return builder.glb();
}
