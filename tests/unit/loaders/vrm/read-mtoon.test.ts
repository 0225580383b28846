/**
 * VRMC_materials_mtoon 1.0 read into `MaterialAsset.mtoon`: every property as the file gives it, the
 * specification's defaults for the rest, MToon over KHR_materials_unlit, and the bad input of issue 35 (an unknown
 * version or a malformed property: glTF PBR and one warning with the JSON pointer; a texture that names no
 * texture: that texture left out, one warning, the rest kept).
 */
import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { readMToon } from '../../../../src/loaders/vrm/read-mtoon.ts';
import type { MToonMaterialAsset } from '../../../../src/asset/mtoon-material-asset.ts';
import { skinnedQuad, type GltfBuilder } from '../../helpers/gltf-builder.ts';

/** Six stand-in PNG images, texture i showing image i (texture 5 with a clamping sampler). */
function withMaterials(materials: object[]): GltfBuilder {
  const b = skinnedQuad();
  const images = Array.from({ length: 6 }, (_, i) => ({ bufferView: b.bufferView(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, i])), mimeType: 'image/png' }));
  Object.assign(b.json, {
    images,
    samplers: [{ wrapS: 33071, wrapT: 33648, magFilter: 9728 }],
    textures: images.map((_, i) => (i === 5 ? { source: i, sampler: 0 } : { source: i })),
    materials,
    extensionsUsed: ['VRMC_materials_mtoon', 'KHR_texture_transform', 'KHR_materials_unlit'],
  });
  b.json.meshes[0].primitives[0].material = 0;
  return b;
}

const mtoonOf = (extension: object, extra: object = {}) => ({ name: 'M', ...extra, extensions: { VRMC_materials_mtoon: extension } });

/** The specification's defaults (README "MToon Defined Properties"; matcapFactor [1, 1, 1] as three-vrm and the property text). */
const DEFAULTS: MToonMaterialAsset = {
  transparentWithZWrite: false, renderQueueOffsetNumber: 0,
  shadeColorFactor: [0, 0, 0], shadingShiftFactor: 0, shadingShiftTextureScale: 1, shadingToonyFactor: 0.9, giEqualizationFactor: 0.9,
  matcapFactor: [1, 1, 1], parametricRimColorFactor: [0, 0, 0], parametricRimFresnelPowerFactor: 5, parametricRimLiftFactor: 0, rimLightingMixFactor: 1,
  outlineWidthMode: 'none', outlineWidthFactor: 0, outlineColorFactor: [0, 0, 0], outlineLightingMixFactor: 1,
  uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
};

describe('VRMC_materials_mtoon 1.0', () => {
  it('every property set to a value other than its default lands in MaterialAsset.mtoon; MToon wins over KHR_materials_unlit', async () => {
    const all = {
      specVersion: '1.0', transparentWithZWrite: true, renderQueueOffsetNumber: 3,
      shadeColorFactor: [0.1, 0.2, 0.3], shadeMultiplyTexture: { index: 1 },
      shadingShiftFactor: -0.2, shadingShiftTexture: { index: 2, texCoord: 1, scale: 0.5 },
      shadingToonyFactor: 0.6, giEqualizationFactor: 0.4,
      matcapFactor: [0.7, 0.8, 0.9], matcapTexture: { index: 3 },
      parametricRimColorFactor: [0.3, 0.2, 0.1], parametricRimFresnelPowerFactor: 3, parametricRimLiftFactor: 0.15,
      rimMultiplyTexture: { index: 4, extensions: { KHR_texture_transform: { offset: [0.1, 0.2], rotation: 0.5, scale: [2, 3] } } },
      rimLightingMixFactor: 0.35,
      outlineWidthMode: 'screenCoordinates', outlineWidthFactor: 0.02, outlineWidthMultiplyTexture: { index: 5 },
      outlineColorFactor: [0.4, 0.5, 0.6], outlineLightingMixFactor: 0.25,
      uvAnimationMaskTexture: { index: 0 }, uvAnimationScrollXSpeedFactor: 0.1, uvAnimationScrollYSpeedFactor: -0.2, uvAnimationRotationSpeedFactor: 0.3,
    };
    const material = { ...mtoonOf(all, { alphaMode: 'BLEND' }), extensions: { VRMC_materials_mtoon: all, KHR_materials_unlit: {} } };
    const asset = await parseGltf('m.gltf', withMaterials([material]).gltf());
    expect(asset.warnings).toEqual([]);
    expect(asset.materials[0].unlit).toBeUndefined();
    expect(asset.materials[0].mtoon).toEqual({
      transparentWithZWrite: true, renderQueueOffsetNumber: 3,
      shadeColorFactor: [0.1, 0.2, 0.3], shadeMultiplyTexture: { image: 1, texCoord: 0 },
      shadingShiftFactor: -0.2, shadingShiftTexture: { image: 2, texCoord: 1 }, shadingShiftTextureScale: 0.5,
      shadingToonyFactor: 0.6, giEqualizationFactor: 0.4,
      matcapFactor: [0.7, 0.8, 0.9], matcapTexture: { image: 3, texCoord: 0 },
      parametricRimColorFactor: [0.3, 0.2, 0.1], parametricRimFresnelPowerFactor: 3, parametricRimLiftFactor: 0.15,
      rimMultiplyTexture: { image: 4, texCoord: 0, transform: { offset: [0.1, 0.2], rotation: 0.5, scale: [2, 3] } },
      rimLightingMixFactor: 0.35,
      outlineWidthMode: 'screenCoordinates', outlineWidthFactor: 0.02,
      outlineWidthMultiplyTexture: { image: 5, texCoord: 0, sampler: { wrapS: 33071, wrapT: 33648, magFilter: 9728, minFilter: undefined } },
      outlineColorFactor: [0.4, 0.5, 0.6], outlineLightingMixFactor: 0.25,
      uvAnimationMaskTexture: { image: 0, texCoord: 0 },
      uvAnimationScrollXSpeedFactor: 0.1, uvAnimationScrollYSpeedFactor: -0.2, uvAnimationRotationSpeedFactor: 0.3,
    } satisfies MToonMaterialAsset);
  });

  it('none set: the specification\'s defaults; "1.0-beta" reads as 1.0 (three-vrm does); without MToon, KHR_materials_unlit stays', async () => {
    const asset = await parseGltf('m.gltf', withMaterials([
      mtoonOf({ specVersion: '1.0' }), mtoonOf({ specVersion: '1.0-beta' }), { name: 'U', extensions: { KHR_materials_unlit: {} } },
    ]).gltf());
    expect(asset.warnings).toEqual([]);
    expect(asset.materials[0].mtoon).toEqual(DEFAULTS);
    expect(asset.materials[1].mtoon).toEqual(DEFAULTS);
    expect(asset.materials[2]).toMatchObject({ unlit: true });
    expect(asset.materials[2].mtoon).toBeUndefined();
  });

  it('renderQueueOffsetNumber: clamped to the README\'s table for BLEND, 0 for OPAQUE and MASK; a negative outline width is 0', async () => {
    const asset = await parseGltf('m.gltf', withMaterials([
      mtoonOf({ specVersion: '1.0', renderQueueOffsetNumber: 12, transparentWithZWrite: true }, { alphaMode: 'BLEND' }),
      mtoonOf({ specVersion: '1.0', renderQueueOffsetNumber: 5 }, { alphaMode: 'BLEND' }),
      mtoonOf({ specVersion: '1.0', renderQueueOffsetNumber: -12 }, { alphaMode: 'BLEND' }),
      mtoonOf({ specVersion: '1.0', renderQueueOffsetNumber: -4 }, { alphaMode: 'BLEND' }),
      mtoonOf({ specVersion: '1.0', renderQueueOffsetNumber: 4 }, { alphaMode: 'MASK' }),
      mtoonOf({ specVersion: '1.0', outlineWidthMode: 'worldCoordinates', outlineWidthFactor: -0.01, shadingToonyFactor: 1.5 }),
    ]).gltf());
    expect(asset.materials.slice(0, 5).map((m) => m.mtoon!.renderQueueOffsetNumber)).toEqual([9, 0, -9, -4, 0]);
    // Kept as three-vrm keeps it: a toony factor outside [0, 1].
    expect(asset.materials[5].mtoon).toMatchObject({ outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0, shadingToonyFactor: 1.5 });
    expect(asset.warnings).toEqual([]);
  });
});

describe('VRMC_materials_mtoon bad input', () => {
  /** Loads one bad material at index 3 (three plain ones before it); returns it and the warnings. */
  async function loadBad(extension: object, extra: object = {}) {
    const asset = await parseGltf('bad.gltf', withMaterials([{}, {}, {}, mtoonOf(extension, extra)]).gltf());
    return { material: asset.materials[3], warnings: asset.warnings };
  }
  const pbr = (pointer: string, problem: string) => `bad.gltf: /materials/3/extensions/VRMC_materials_mtoon${pointer} ${problem}; material 3 ("M") is drawn as glTF PBR, without MToon`;

  it('an unknown specVersion, or none: glTF PBR, one warning', async () => {
    for (const [extension, problem] of [
      [{ specVersion: '2.0' }, 'is "2.0", not an MToon version Sinew reads (1.0, 1.0-beta)'],
      [{}, 'is undefined, not an MToon version Sinew reads (1.0, 1.0-beta)'],
    ] as const) {
      const { material, warnings } = await loadBad(extension, { extensions: undefined });
      expect(material.mtoon).toBeUndefined();
      expect(warnings).toEqual([pbr('/specVersion', problem)]);
    }
  });

  it('malformed properties: glTF PBR (unlit as the file says), one warning naming the pointer and the problem', async () => {
    const cases: [object, string, string][] = [
      [{ outlineWidthMode: 'thick' }, '/outlineWidthMode', 'is "thick", not one of none, worldCoordinates, screenCoordinates'],
      [{ shadingToonyFactor: null }, '/shadingToonyFactor', 'is null, not a finite number'],
      [{ shadingShiftFactor: '0.5' }, '/shadingShiftFactor', 'is "0.5", not a finite number'],
      [{ shadeColorFactor: [1, 0.5] }, '/shadeColorFactor', 'is [1,0.5], not an array of 3 finite numbers'],
      [{ transparentWithZWrite: 'yes' }, '/transparentWithZWrite', 'is "yes", not true or false'],
      [{ renderQueueOffsetNumber: 1.5 }, '/renderQueueOffsetNumber', 'is 1.5, not an integer'],
      [{ matcapTexture: 3 }, '/matcapTexture', 'is 3, not a textureInfo object'],
      [{ shadingShiftTexture: { index: 0, scale: 'big' } }, '/shadingShiftTexture/scale', 'is "big", not a finite number'],
      [{ rimMultiplyTexture: { index: 0, extensions: { KHR_texture_transform: { offset: ['x', 0] } } } },
        '/rimMultiplyTexture/extensions/KHR_texture_transform/offset', 'is not an array of 2 finite numbers'],
    ];
    for (const [bad, pointer, problem] of cases) {
      const { material, warnings } = await loadBad({ specVersion: '1.0', outlineWidthMode: 'worldCoordinates', ...bad });
      expect(material.mtoon, pointer).toBeUndefined();
      expect(material.baseColorFactor).toEqual([1, 1, 1, 1]);
      expect(warnings).toEqual([pbr(pointer, problem)]);
    }
  });

  it('a texture index past /textures: that texture left out (a constant outline width), one warning, the rest kept', async () => {
    const { material, warnings } = await loadBad({
      specVersion: '1.0', outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.01, outlineWidthMultiplyTexture: { index: 99 }, matcapTexture: { index: 3 },
    });
    expect(warnings).toEqual([
      'bad.gltf: /materials/3/extensions/VRMC_materials_mtoon/outlineWidthMultiplyTexture/index is 99, not a texture index (the file has 6); material 3 ("M")\'s outlineWidthMultiplyTexture is left out',
    ]);
    expect(material.mtoon).toEqual({ ...DEFAULTS, outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.01, matcapTexture: { image: 3, texCoord: 0 } });
    expect(material.mtoon!.outlineWidthMultiplyTexture).toBeUndefined();
  });

  it('NaN or infinity (which JSON cannot carry, but a caller\'s object can): one warning, null', () => {
    for (const value of [NaN, Infinity]) {
      const warnings: string[] = [];
      const reading = { fileName: 'x.glb', warnings, textureCount: 0, alphaMode: 'OPAQUE' as const, readTexture: () => null };
      expect(readMToon(reading, { specVersion: '1.0', giEqualizationFactor: value }, '/materials/0/extensions/VRMC_materials_mtoon', 'material 0')).toBeNull();
      expect(warnings).toEqual([`x.glb: /materials/0/extensions/VRMC_materials_mtoon/giEqualizationFactor is ${JSON.stringify(value)}, not a finite number; material 0 is drawn as glTF PBR, without MToon`]);
    }
  });
});
