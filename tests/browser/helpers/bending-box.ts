import type { ModelAsset, PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import { computeVertexNormals } from '../../../src/asset/vertex-normals.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

/**
 * A test model made in code, so the parity harness is proven without any loader: a 0.5 × 2 × 0.5 box
 * standing on the origin, 9 rings of 4 corners (y = 0 … 2), skinned to two joints (root at the origin, child
 * at y = 1); weights blend linearly between y = 0.5 and 1.5. Special vertices exercise docs/explanation/skinning-formulas.md S0: the two
 * top-cap vertices of the second primitive have weights that do not sum to 1 (0.3 + 0.3), and one has no
 * influence at all (it keeps its rest position). Two primitives: Uint8 joints + Uint16 indices, and Uint16
 * joints + Uint32 indices (shifted 1 m along x). One clip "bend" (1 s): the root slides 0.5 m along x and
 * the child turns 90° about z; linear keys.
 */
export function createBendingBox(): ModelAsset {
  const restPose = createLocalPose(2);
  restPose.translations[4] = 1; // child at y = 1
  const inverseBindMatrices = new Float32Array(32);
  for (const o of [0, 16]) for (let k = 0; k < 4; k++) inverseBindMatrices[o + 5 * k] = 1;
  inverseBindMatrices[16 + 13] = -1; // inverse of translate(0, 1, 0)
  const s = Math.SQRT1_2;
  return {
    name: 'bending-box (generated)',
    skeleton: { jointCount: 2, names: ['root', 'bend'], parents: new Int32Array([-1, 0]), sourceIndices: new Int32Array([0, 1]) },
    restPose,
    meshes: [{ name: 'box', primitives: [boxPrimitive(0, false), boxPrimitive(1, true)] }],
    skins: [{ name: 'skin', joints: new Int32Array([0, 1]), inverseBindMatrices }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: 0 }],
    materials: [{ name: 'orange', baseColorFactor: [0.9, 0.45, 0.1, 1], baseColorTexture: -1, doubleSided: false }],
    images: [],
    clips: [{
      name: 'bend',
      duration: 1,
      channels: [
        { joint: 0, path: 'translation', interpolation: 'LINEAR', times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 0.5, 0, 0]) },
        { joint: 1, path: 'rotation', interpolation: 'LINEAR', times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 0, s, s]) },
      ],
    }],
    upAxis: 'y',
    warnings: [],
  };
}

function boxPrimitive(offsetX: number, wide: boolean): PrimitiveAsset {
  const rings = 9, corners = [[-0.25, -0.25], [0.25, -0.25], [0.25, 0.25], [-0.25, 0.25]];
  const vertexCount = rings * 4;
  const positions = new Float32Array(3 * vertexCount);
  const uvs = new Float32Array(2 * vertexCount);
  const joints = wide ? new Uint16Array(4 * vertexCount) : new Uint8Array(4 * vertexCount);
  const weights = new Float32Array(4 * vertexCount);
  for (let r = 0; r < rings; r++) {
    const y = (2 * r) / (rings - 1);
    const w1 = Math.min(1, Math.max(0, y - 0.5));
    for (let c = 0; c < 4; c++) {
      const v = 4 * r + c;
      positions.set([corners[c][0] + offsetX, y, corners[c][1]], 3 * v);
      uvs.set([c / 3, y / 2], 2 * v);
      // Influences listed child-first for some vertices, so the joint order is not always 0, 1.
      if (c % 2 === 0) joints.set([0, 1, 0, 0], 4 * v), weights.set([1 - w1, w1, 0, 0], 4 * v);
      else joints.set([1, 0, 0, 0], 4 * v), weights.set([w1, 1 - w1, 0, 0], 4 * v);
    }
  }
  if (wide) {
    const top = 4 * (rings - 1);
    weights.set([0.3, 0.3, 0, 0], 4 * top);           // sum 0.6: S0 divides by it
    joints.set([1, 0, 0, 0], 4 * (top + 1)), weights.set([0.3, 0.3, 0, 0], 4 * (top + 1));
    weights.set([0, 0, 0, 0], 4 * (top + 2));         // no influence: keeps p₀
  }
  const triangles: number[] = [];
  for (let r = 0; r + 1 < rings; r++) {
    for (let c = 0; c < 4; c++) {
      const a = 4 * r + c, b = 4 * r + ((c + 1) % 4), d = a + 4, e = b + 4;
      triangles.push(a, d, b, b, d, e);
    }
  }
  triangles.push(0, 1, 2, 0, 2, 3); // bottom (faces -y)
  const t = 4 * (rings - 1);
  triangles.push(t, t + 2, t + 1, t, t + 3, t + 2); // top (faces +y)
  const indices = wide ? new Uint32Array(triangles) : new Uint16Array(triangles);
  return {
    vertexCount,
    positions,
    normals: computeVertexNormals(positions, indices),
    uvs,
    joints,
    weights,
    indices,
    material: 0,
  };
}
