import type { MaterialAsset, ModelAsset, PrimitiveAsset } from '../asset/model-asset.ts';
import { createLocalPose } from '../skeleton/local-pose.ts';

/** Metal blade (metallic 1), a brass guard and pommel, a dark leather grip (dielectric). */
const MATERIALS: readonly MaterialAsset[] = [
  { name: 'sword-blade', baseColorFactor: [0.8, 0.82, 0.85, 1], baseColorTexture: -1, doubleSided: false, metallicFactor: 1, roughnessFactor: 0.25 },
  { name: 'sword-brass', baseColorFactor: [0.75, 0.52, 0.17, 1], baseColorTexture: -1, doubleSided: false, metallicFactor: 1, roughnessFactor: 0.4 },
  // sRGB (0.3, 0.16, 0.08) leather, in linear.
  { name: 'sword-grip', baseColorFactor: [0.073, 0.022, 0.007, 1], baseColorTexture: -1, doubleSided: false, metallicFactor: 0, roughnessFactor: 0.7 },
];

/**
 * Axis-aligned boxes as one primitive of `material`: each box (min x, y, z, max x, y, z) is 24 vertices (4 per
 * face, outward normals) and 12 counter-clockwise triangles; with `tip`, the top face of each box is pulled
 * in to a ridge along z at its centre (a blade's point).
 */
function boxes(list: readonly (readonly number[])[], material: number, tip = false): PrimitiveAsset {
  const positions: number[] = [], normals: number[] = [], indices: number[] = [];
  for (const [x0, y0, z0, x1, y1, z1] of list) {
    const lo = [x0, y0, z0], hi = [x1, y1, z1];
    for (const [axis, sign] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
      const u = (axis + (sign > 0 ? 1 : 2)) % 3, v = (axis + (sign > 0 ? 2 : 1)) % 3;
      const first = positions.length / 3;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const p = [0, 0, 0];
        p[axis] = sign > 0 ? hi[axis] : lo[axis];
        p[u] = a > 0 ? hi[u] : lo[u];
        p[v] = b > 0 ? hi[v] : lo[v];
        if (tip && p[1] === hi[1]) p[0] = (lo[0] + hi[0]) / 2;
        positions.push(p[0], p[1], p[2]);
        const n = [0, 0, 0];
        n[axis] = sign;
        normals.push(n[0], n[1], n[2]);
      }
      indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
    }
  }
  return {
    vertexCount: positions.length / 3, positions: new Float32Array(positions), normals: new Float32Array(normals), uvs: null,
    joints: null, weights: null, indices: new Uint16Array(indices), material,
  };
}

/**
 * The built-in prop, made in code (deterministic, no I/O): a sword `length` metres long (default 0.9) held
 * at its grip, to attach to a hand joint (docs/guide/attachments.md). Y is along the blade: the grip's centre at
 * the origin, the blade toward +Y (its flat facing ±Z), the pommel toward −Y; width 0.05 m at the blade, 0.18 m
 * at the guard. One node (`sword`), no skin, one mesh of three primitives (blade and point, brass guard and
 * pommel, leather grip), no clips. Y up, metres.
 * @throws RangeError when `length` is not in (0.3, 10]
 */
export function createSwordAsset(length = 0.9): ModelAsset {
  if (!(length > 0.3 && length <= 10)) throw new RangeError(`createSwordAsset: length ${length} m is not in (0.3, 10]`);
  const grip = 0.09, guardTop = grip + 0.025, point = 0.12;
  const blade = boxes([[-0.025, guardTop, -0.004, 0.025, length - grip - point, 0.004]], 0);
  const tip = boxes([[-0.025, length - grip - point, -0.004, 0.025, length - grip, 0.004]], 0, true);
  const restPose = createLocalPose(1);
  return {
    name: 'sword',
    skeleton: { jointCount: 1, names: ['sword'], parents: Int32Array.of(-1), sourceIndices: Int32Array.of(0) },
    restPose,
    meshes: [{
      name: 'sword',
      primitives: [
        { ...blade, vertexCount: blade.vertexCount + tip.vertexCount, positions: concat(blade.positions, tip.positions), normals: concat(blade.normals, tip.normals), indices: Uint16Array.from([...blade.indices, ...tip.indices.map((i) => i + blade.vertexCount)]) },
        boxes([[-0.09, grip, -0.015, 0.09, guardTop, 0.015], [-0.022, -grip - 0.035, -0.022, 0.022, -grip, 0.022]], 1),
        boxes([[-0.016, -grip, -0.014, 0.016, grip, 0.014]], 2),
      ],
    }],
    skins: [],
    meshInstances: [{ node: 0, sourceNode: 0, mesh: 0, skin: -1 }],
    materials: MATERIALS,
    images: [],
    clips: [],
    upAxis: 'y',
    warnings: [],
  };
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
