import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

/**
 * A rigid 1 × 1 quad in the xy plane facing +z, textured with a 2 × 2 TGA made here byte by byte (type 2,
 * 32 bits, bottom-left origin as most TGA writers store it): top row red, bottom row blue. glTF / MD5 texture
 * coordinates have v down, so the quad's top edge (y = 1) has v = 0 and must show red.
 */
export function createTgaQuad(): ModelAsset {
  const tga = new Uint8Array(18 + 16);
  tga[2] = 2; tga[12] = 2; tga[14] = 2; tga[16] = 32; tga[17] = 8; // bottom-left origin, 8 alpha bits
  const blue = [255, 0, 0, 255], red = [0, 0, 255, 255]; // BGRA
  tga.set([...blue, ...blue, ...red, ...red], 18); // first stored row is the bottom one
  return {
    name: 'tga-quad (generated)',
    skeleton: { jointCount: 1, names: ['root'], parents: new Int32Array([-1]), sourceIndices: new Int32Array([0]) },
    restPose: createLocalPose(1),
    meshes: [{
      name: 'quad',
      primitives: [{
        vertexCount: 4,
        positions: new Float32Array([-0.5, 0, 0, 0.5, 0, 0, 0.5, 1, 0, -0.5, 1, 0]),
        normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),
        uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]),
        joints: null,
        weights: null,
        indices: new Uint16Array([0, 1, 2, 0, 2, 3]),
        material: 0,
      }],
    }],
    skins: [],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: -1 }],
    materials: [{ name: 'tga', baseColorFactor: [1, 1, 1, 1], baseColorTexture: 0, doubleSided: true }],
    images: [{ name: 'quad.tga', mimeType: 'image/x-tga', data: tga }],
    clips: [],
    upAxis: 'y',
    warnings: [],
  };
}
