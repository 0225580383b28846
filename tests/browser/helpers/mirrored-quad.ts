import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { createTgaQuad } from './tga-quad.ts';

/**
 * The TGA quad (tga-quad.ts) made single-sided and skinned to its one joint, whose rest scale is (−1, 1, 1):
 * the palette mirrors it, so its triangles reach the screen with clockwise winding while still facing the
 * camera. Drawn with back-face culling, it shows only if the renderer flips `frontFace` for a mirroring palette.
 */
export function createMirroredSkinnedQuad(): ModelAsset {
  const quad = createTgaQuad();
  const primitive = quad.meshes[0].primitives[0];
  const restPose = { ...quad.restPose, scales: new Float32Array([-1, 1, 1]) };
  const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  return {
    ...quad,
    name: 'mirrored skinned quad (generated)',
    restPose,
    meshes: [{ name: 'quad', primitives: [{ ...primitive, joints: new Uint8Array(16), weights: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]) }] }],
    skins: [{ name: 'mirror', joints: new Int32Array([0]), inverseBindMatrices: identity }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: 0 }],
    materials: [{ ...quad.materials[0], doubleSided: false }],
  };
}
