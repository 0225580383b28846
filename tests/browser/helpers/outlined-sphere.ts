import type { ImageAsset, MaterialAsset, ModelAsset, PrimitiveAsset } from '../../../src/asset/model-asset.ts';
import type { MToonMaterialAsset, OutlineWidthMode } from '../../../src/asset/mtoon-material-asset.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

/** The MToon material of {@link createOutlinedSphere}. */
export interface OutlinedSphereOptions {
  mode: OutlineWidthMode;
  /** `outlineWidthFactor`: metres or screen share. */
  width: number;
  /** Linear RGB [1, 0, 0]. */
  outlineColor?: readonly [number, number, number];
  /** `outlineLightingMixFactor` [0: the outline colour as it is]. */
  outlineLightingMix?: number;
  /** An outline width multiply texture (G read), as a PNG image; absent: constant width. */
  widthTexture?: ImageAsset;
  alphaMode?: MaterialAsset['alphaMode'];
  doubleSided?: boolean;
}

/** Every MToon property at the specification's default, then `overrides`. */
export function mtoonMaterial(overrides: Partial<MToonMaterialAsset>): MToonMaterialAsset {
  return {
    transparentWithZWrite: false, renderQueueOffsetNumber: 0,
    shadeColorFactor: [0, 0, 0], shadingShiftFactor: 0, shadingShiftTextureScale: 1, shadingToonyFactor: 0.9, giEqualizationFactor: 0.9,
    matcapFactor: [1, 1, 1], parametricRimColorFactor: [0, 0, 0], parametricRimFresnelPowerFactor: 5, parametricRimLiftFactor: 0,
    rimLightingMixFactor: 1, outlineWidthMode: 'none', outlineWidthFactor: 0, outlineColorFactor: [0, 0, 0], outlineLightingMixFactor: 1,
    uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
    ...overrides,
  };
}

/** Radius of {@link createOutlinedSphere}'s sphere, metres. */
export const SPHERE_RADIUS = 0.5;

/**
 * A test model made in code: a UV sphere of radius {@link SPHERE_RADIUS} m about the origin (64 segments, 32 rings,
 * exact unit normals, u around, v from the north pole) skinned to one joint at the origin with weight 1, and one
 * MToon material (orange lit colour, dark blue shade) with the outline of `options`. Its outline hull is the sphere
 * scaled to radius r + width (world mode, constant width): the silhouette grows by a closed-form amount.
 */
export function createOutlinedSphere(options: OutlinedSphereOptions): ModelAsset {
  const segments = 64, rings = 32;
  const vertexCount = (segments + 1) * (rings + 1);
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount), uvs = new Float32Array(2 * vertexCount);
  for (let r = 0; r <= rings; r++) {
    const theta = (Math.PI * r) / rings;
    for (let s = 0; s <= segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const v = r * (segments + 1) + s;
      const n = [Math.sin(theta) * Math.sin(phi), Math.cos(theta), Math.sin(theta) * Math.cos(phi)];
      normals.set(n, 3 * v);
      positions.set(n.map((c) => c * SPHERE_RADIUS), 3 * v);
      uvs.set([s / segments, r / rings], 2 * v);
    }
  }
  const triangles: number[] = [];
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s, b = a + 1, c = a + segments + 1, d = c + 1;
      // Counter-clockwise seen from outside.
      triangles.push(a, c, b, b, c, d);
    }
  }
  const joints = new Uint8Array(4 * vertexCount), weights = new Float32Array(4 * vertexCount);
  for (let v = 0; v < vertexCount; v++) weights[4 * v] = 1;
  const primitive: PrimitiveAsset = { vertexCount, positions, normals, uvs, joints, weights, indices: new Uint16Array(triangles), material: 0 };
  const inverseBindMatrices = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const outlineColor = options.outlineColor ?? [1, 0, 0];
  const mtoon = mtoonMaterial({
    outlineWidthMode: options.mode, outlineWidthFactor: options.width, outlineColorFactor: [outlineColor[0], outlineColor[1], outlineColor[2]],
    outlineLightingMixFactor: options.outlineLightingMix ?? 0, shadeColorFactor: [0.1, 0.15, 0.4],
    ...(options.widthTexture ? { outlineWidthMultiplyTexture: { image: 0, texCoord: 0 } } : {}),
  });
  return {
    name: 'outlined-sphere (generated)',
    skeleton: { jointCount: 1, names: ['root'], parents: new Int32Array([-1]), sourceIndices: new Int32Array([0]) },
    restPose: createLocalPose(1),
    meshes: [{ name: 'sphere', primitives: [primitive] }],
    skins: [{ name: 'skin', joints: new Int32Array([0]), inverseBindMatrices }],
    meshInstances: [{ node: 0, sourceNode: null, mesh: 0, skin: 0 }],
    materials: [{
      name: 'toon', baseColorFactor: [0.95, 0.55, 0.2, 1], baseColorTexture: -1, doubleSided: options.doubleSided ?? false,
      alphaMode: options.alphaMode ?? 'OPAQUE', mtoon,
    }],
    images: options.widthTexture ? [options.widthTexture] : [],
    clips: [],
    upAxis: 'y',
    warnings: [],
  };
}
