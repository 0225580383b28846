import type { ModelAsset } from '../asset/model-asset.ts';
import { createLocalPose } from '../skeleton/local-pose.ts';

/**
 * A model made in code to show what dual quaternion skinning fixes: a cylinder of radius 0.25 and height 2
 * standing on the origin along +y, 25 rings of 24 sides, skinned to two joints (root at the origin, child at
 * y = 1) with weights blending linearly between y = 0.5 and 1.5. Clip `twist` (2 s, linear keys) turns the
 * child about the cylinder's own axis to 170° at 1 s and back: linear blend skinning collapses the middle
 * ring toward the axis (the "candy wrapper", radius ≈ 0.25·cos 85°), dual quaternion skinning keeps it
 * round. Normals are radial; tangents run around the circumference, their handedness w alternating +1 / −1
 * by column (so tests see w kept); one material, double-sided (the collapsed LBS waist turns inside out).
 */
export function createTwistCylinder(): ModelAsset {
  const rings = 25, sides = 24, radius = 0.25;
  const restPose = createLocalPose(2);
  restPose.translations[4] = 1; // child at y = 1
  const inverseBindMatrices = new Float32Array(32);
  for (const o of [0, 16]) for (let k = 0; k < 4; k++) inverseBindMatrices[o + 5 * k] = 1;
  inverseBindMatrices[16 + 13] = -1; // inverse of translate(0, 1, 0)
  const vertexCount = rings * (sides + 1);
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount);
  const tangents = new Float32Array(4 * vertexCount);
  const uvs = new Float32Array(2 * vertexCount);
  const joints = new Uint8Array(4 * vertexCount), weights = new Float32Array(4 * vertexCount);
  for (let r = 0; r < rings; r++) {
    const y = (2 * r) / (rings - 1);
    const w1 = Math.min(1, Math.max(0, y - 0.5));
    // One seam column repeated (s = sides) so the texture coordinates wrap; stripes show the twist.
    for (let s = 0; s <= sides; s++) {
      const v = r * (sides + 1) + s, a = (2 * Math.PI * s) / sides;
      positions.set([radius * Math.cos(a), y, radius * Math.sin(a)], 3 * v);
      normals.set([Math.cos(a), 0, Math.sin(a)], 3 * v);
      tangents.set([-Math.sin(a), 0, Math.cos(a), s % 2 === 0 ? 1 : -1], 4 * v);
      uvs.set([s / sides, y / 2], 2 * v);
      joints.set([0, 1, 0, 0], 4 * v);
      weights.set([1 - w1, w1, 0, 0], 4 * v);
    }
  }
  const triangles: number[] = [];
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = r * (sides + 1) + s, b = a + 1, c = a + sides + 1, d = c + 1;
      triangles.push(a, c, b, b, c, d);
    }
  }
  const half = (85 * Math.PI) / 180; // half of 170°
  return {
    name: 'twist-cylinder (generated)',
    skeleton: { jointCount: 2, names: ['root', 'twist'], parents: new Int32Array([-1, 0]), sourceIndices: new Int32Array([0, 1]) },
    restPose,
    meshes: [{ name: 'cylinder', primitives: [{ vertexCount, positions, normals, tangents, uvs, joints, weights, indices: new Uint16Array(triangles), material: 0 }] }],
    skins: [{ name: 'skin', joints: new Int32Array([0, 1]), inverseBindMatrices }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: 0 }],
    materials: [{ name: 'teal', baseColorFactor: [0.15, 0.6, 0.65, 1], baseColorTexture: -1, doubleSided: true }],
    images: [],
    clips: [{
      name: 'twist',
      duration: 2,
      channels: [{
        joint: 1, path: 'rotation', interpolation: 'LINEAR', times: new Float32Array([0, 1, 2]),
        values: new Float32Array([0, 0, 0, 1, 0, Math.sin(half), 0, Math.cos(half), 0, 0, 0, 1]),
      }],
    }],
    upAxis: 'y',
    warnings: [],
  };
}
