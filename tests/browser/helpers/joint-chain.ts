import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { computeVertexNormals } from '../../../src/asset/vertex-normals.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

/**
 * A test model made in code with many joints, beyond any uniform-palette budget: a chain of `jointCount`
 * joints 0.05 m apart along +y, skinning a square tube with one ring per joint; ring k blends joints k−1,
 * k, k+1 (0.25, 0.5, 0.25 at the ends renormalised). Clip "curl" (1 s) turns every joint 1.5° about z and
 * 1° about x, so the tube curls into a spiral. With more than 256 joints the palette texture wraps rows.
 */
export function createJointChain(jointCount: number): ModelAsset {
  const spacing = 0.05;
  const restPose = createLocalPose(jointCount);
  const parents = new Int32Array(jointCount);
  const inverseBindMatrices = new Float32Array(16 * jointCount);
  for (let j = 0; j < jointCount; j++) {
    parents[j] = j - 1;
    if (j > 0) restPose.translations[3 * j + 1] = spacing;
    for (let k = 0; k < 4; k++) inverseBindMatrices[16 * j + 5 * k] = 1;
    inverseBindMatrices[16 * j + 13] = -spacing * j;
  }
  const corners = [[-0.1, -0.1], [0.1, -0.1], [0.1, 0.1], [-0.1, 0.1]];
  const vertexCount = 4 * jointCount;
  const positions = new Float32Array(3 * vertexCount);
  const joints = new Uint16Array(4 * vertexCount);
  const weights = new Float32Array(4 * vertexCount);
  for (let r = 0; r < jointCount; r++) {
    for (let c = 0; c < 4; c++) {
      const v = 4 * r + c;
      positions.set([corners[c][0], spacing * r, corners[c][1]], 3 * v);
      joints.set([r, Math.max(r - 1, 0), Math.min(r + 1, jointCount - 1), 0], 4 * v);
      weights.set([0.5, 0.25, 0.25, 0], 4 * v);
    }
  }
  const triangles: number[] = [];
  for (let r = 0; r + 1 < jointCount; r++) {
    for (let c = 0; c < 4; c++) {
      const a = 4 * r + c, b = 4 * r + ((c + 1) % 4);
      triangles.push(a, a + 4, b, b, a + 4, b + 4);
    }
  }
  const indices = new Uint16Array(triangles);
  const half = (deg: number) => (deg * Math.PI) / 360;
  const [sz, cz, sx, cx] = [Math.sin(half(1.5)), Math.cos(half(1.5)), Math.sin(half(1)), Math.cos(half(1))];
  // q = qz · qx
  const turn = [cz * sx, sz * sx, sz * cx, cz * cx];
  return {
    name: `joint-chain-${jointCount} (generated)`,
    skeleton: { jointCount, names: parents.length ? Array.from(parents, (_, j) => `j${j}`) : [], parents, sourceIndices: Int32Array.from(parents, (_, j) => j) },
    restPose,
    meshes: [{ name: 'tube', primitives: [{ vertexCount, positions, normals: computeVertexNormals(positions, indices), uvs: null, joints, weights, indices, material: 0 }] }],
    skins: [{ name: 'chain', joints: Int32Array.from(parents, (_, j) => j), inverseBindMatrices }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: 0 }],
    materials: [{ name: 'grey', baseColorFactor: [0.7, 0.7, 0.7, 1], baseColorTexture: -1, doubleSided: true }],
    images: [],
    clips: [{
      name: 'curl',
      duration: 1,
      channels: Array.from(parents, (_, j) => ({
        joint: j, path: 'rotation' as const, interpolation: 'LINEAR' as const,
        times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, ...turn]),
      })),
    }],
    upAxis: 'y',
    warnings: [],
  };
}
