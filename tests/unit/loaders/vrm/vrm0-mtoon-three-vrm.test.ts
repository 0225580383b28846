/**
 * VRM 0.x `materialProperties` MToon converted at load, against three-vrm's own conversion: the test runs
 * three-vrm's VRMMaterialsV0CompatPlugin (three-vrm-materials-v0compat 3.5.5) on the same JSON and compares its
 * VRMC_materials_mtoon 1.0 and glTF material, property by property (absent ones at the 1.0 defaults), with what
 * Sinew's loader made of the file. Also: the 0.x bad input (one warning, PBR kept; a texture out of range left out).
 */
import { describe, expect, it } from 'vitest';
import { VRMMaterialsV0CompatPlugin } from '@pixiv/three-vrm-materials-v0compat';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import type { MaterialAsset } from '../../../../src/asset/model-asset.ts';
import { smallVrm0 } from './small-avatar.ts';
import type { GltfBuilder } from '../../helpers/gltf-builder.ts';

/** The small 0.x avatar with six stand-in PNG images (texture i shows image i + 10: indices differ from images). */
function vrm0With(materialProperties: unknown[], materialCount = materialProperties.length): GltfBuilder {
  const b = smallVrm0({ materialProperties });
  const images = Array.from({ length: 16 }, (_, i) => ({ bufferView: b.bufferView(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, i])), mimeType: 'image/png' }));
  Object.assign(b.json, {
    images,
    textures: Array.from({ length: 6 }, (_, i) => ({ source: i + 10 })),
    materials: Array.from({ length: materialCount }, (_, i) => ({ name: `M${i}`, pbrMetallicRoughness: { metallicFactor: 0.5 } })),
  });
  return b;
}

const MTOON_FULL = {
  name: 'M0', shader: 'VRM/MToon', renderQueue: 3001,
  keywordMap: { _ALPHABLEND_ON: true, _NORMALMAP: true },
  floatProperties: {
    _Cutoff: 0.4, _BumpScale: 0.8, _ShadeShift: -0.3, _ShadeToony: 0.7, _IndirectLightIntensity: 0.25, _RimLightingMix: 0.6,
    _RimFresnelPower: 4, _RimLift: 0.1, _OutlineWidthMode: 1, _OutlineWidth: 0.35, _OutlineColorMode: 1, _OutlineLightingMix: 0.4,
    _UvAnimScrollX: 0.2, _UvAnimScrollY: 0.3, _UvAnimRotation: 0.5, _ZWrite: 1, _CullMode: 0,
  },
  vectorProperties: {
    _Color: [0.9, 0.8, 0.7, 0.6], _ShadeColor: [0.5, 0.4, 0.3, 1], _EmissionColor: [0.2, 0.1, 0.05, 1], _RimColor: [0.6, 0.5, 0.4, 1],
    _OutlineColor: [0.1, 0.2, 0.3, 1], _MainTex: [0.1, 0.2, 2, 3],
  },
  textureProperties: { _MainTex: 0, _ShadeTexture: 1, _BumpMap: 2, _EmissionMap: 3, _SphereAdd: 4, _RimTexture: 5, _OutlineWidthTexture: 1, _UvAnimMaskTexture: 2 },
};

/** three-vrm's conversion of `properties` for a file with `materialCount` materials: the rewritten glTF materials. */
async function threeVrmConversion(b: GltfBuilder): Promise<any[]> {
  const json = structuredClone(b.json);
  await new VRMMaterialsV0CompatPlugin({ json } as never).beforeRoot();
  return json.materials;
}

/** What Sinew must make of three-vrm's converted material `def` (absent properties at the glTF and MToon 1.0 defaults). */
function expected(def: any, textures: { source: number }[]): MaterialAsset {
  const texture = (info: any) => {
    if (info === undefined) return undefined;
    const t = info.extensions?.KHR_texture_transform;
    return { image: textures[info.index].source, texCoord: 0, ...(t ? { transform: { offset: t.offset, rotation: 0, scale: t.scale } } : {}) };
  };
  const m = def.extensions.VRMC_materials_mtoon;
  const pbr = def.pbrMetallicRoughness;
  const base = texture(pbr.baseColorTexture);
  const mtoon = {
    transparentWithZWrite: m.transparentWithZWrite ?? false,
    renderQueueOffsetNumber: m.renderQueueOffsetNumber ?? 0,
    shadeColorFactor: (m.shadeColorFactor ?? [0, 0, 0]).slice(0, 3),
    shadingShiftFactor: m.shadingShiftFactor ?? 0,
    shadingShiftTextureScale: 1,
    shadingToonyFactor: m.shadingToonyFactor ?? 0.9,
    giEqualizationFactor: m.giEqualizationFactor ?? 0.9,
    matcapFactor: m.matcapFactor ?? [1, 1, 1],
    parametricRimColorFactor: (m.parametricRimColorFactor ?? [0, 0, 0]).slice(0, 3),
    parametricRimFresnelPowerFactor: m.parametricRimFresnelPowerFactor ?? 5,
    parametricRimLiftFactor: m.parametricRimLiftFactor ?? 0,
    rimLightingMixFactor: m.rimLightingMixFactor ?? 1,
    outlineWidthMode: m.outlineWidthMode ?? 'none',
    outlineWidthFactor: m.outlineWidthFactor ?? 0,
    outlineColorFactor: (m.outlineColorFactor ?? [0, 0, 0]).slice(0, 3),
    outlineLightingMixFactor: m.outlineLightingMixFactor ?? 1,
    uvAnimationScrollXSpeedFactor: m.uvAnimationScrollXSpeedFactor ?? 0,
    uvAnimationScrollYSpeedFactor: m.uvAnimationScrollYSpeedFactor ?? 0,
    uvAnimationRotationSpeedFactor: m.uvAnimationRotationSpeedFactor ?? 0,
    v0CompatShade: true,
  } as Record<string, unknown>;
  for (const key of ['shadeMultiplyTexture', 'shadingShiftTexture', 'matcapTexture', 'rimMultiplyTexture', 'outlineWidthMultiplyTexture', 'uvAnimationMaskTexture']) {
    const t = texture(m[key]);
    if (t) mtoon[key] = t;
  }
  const normal = texture(def.normalTexture), emissive = texture(def.emissiveTexture);
  return {
    name: def.name,
    baseColorFactor: pbr.baseColorFactor,
    baseColorTexture: base?.image ?? -1,
    ...(base?.transform ? { baseColorUv: { texCoord: 0, transform: base.transform } } : {}),
    metallicFactor: 1, roughnessFactor: 1,
    ...(normal ? { normalTexture: normal, normalScale: def.normalTexture.scale } : {}),
    emissiveFactor: (def.emissiveFactor ?? [0, 0, 0]).slice(0, 3),
    ...(emissive ? { emissiveTexture: emissive } : {}),
    alphaMode: def.alphaMode,
    alphaCutoff: def.alphaCutoff ?? 0.5,
    doubleSided: def.doubleSided ?? false,
    mtoon,
  } as unknown as MaterialAsset;
}

describe('VRM 0.x MToon, converted as three-vrm\'s v0compat does', () => {
  it('every 0.x property: the same numbers as three-vrm\'s conversion, property by property', async () => {
    const props = [
      MTOON_FULL,
      // Transparent without ZWrite, two queues: offsets counted down from 0.
      { name: 'M1', shader: 'VRM/MToon', renderQueue: 3000, keywordMap: { _ALPHABLEND_ON: true }, floatProperties: { _OutlineWidthMode: 2, _OutlineWidth: 0.2, _IndirectLightIntensity: 0 } },
      { name: 'M2', shader: 'VRM/MToon', renderQueue: 3002, keywordMap: { _ALPHABLEND_ON: true }, floatProperties: { _OutlineColorMode: 0, _OutlineLightingMix: 0.9 } },
      // Cutout, every property absent: three-vrm's 0.x defaults (shade 0.97, 0.81, 0.86; fresnel 1; rim mix 0, …).
      { name: 'M3', shader: 'VRM/MToon', keywordMap: { _ALPHATEST_ON: true }, floatProperties: { _Cutoff: 0.25 } },
      { name: 'M4', shader: 'VRM/UnlitTransparentZWrite', renderQueue: 3100, vectorProperties: { _Color: [0.5, 0.6, 0.7, 0.8], _MainTex: [0, 0, 1, 1] }, textureProperties: { _MainTex: 3 } },
      { name: 'M5', shader: 'VRM/UnlitCutout', floatProperties: { _Cutoff: 0.7 } },
    ];
    const b = vrm0With(props);
    const three = await threeVrmConversion(b);
    const asset = await parseGltf('old.vrm', b.glb());
    expect(asset.warnings).toEqual([]);
    three.forEach((def, m) => expect(asset.materials[m], `material ${m}`).toEqual(expected(def, b.json.textures)));
    // Independent spot checks of three-vrm's formulas (so a change in both would still show).
    const full = asset.materials[0].mtoon!;
    const t = 0.5 + 0.5 * -0.3;
    expect(full.shadingToonyFactor).toBeCloseTo(0.7 * (1 - t) + t, 12);
    expect(full.shadingShiftFactor).toBeCloseTo(0.3 - (1 - full.shadingToonyFactor), 12);
    expect(full.outlineWidthFactor).toBeCloseTo(0.0035, 12);
    expect(full.shadeColorFactor[0]).toBeCloseTo(Math.pow(0.5, 2.2), 12);
    expect(full.giEqualizationFactor).toBeCloseTo(0.75, 12);
    expect(full.uvAnimationScrollYSpeedFactor).toBe(-0.3);
    expect(full.renderQueueOffsetNumber).toBe(0); // the only ZWrite queue: 0
    expect(full.shadeMultiplyTexture!.transform).toEqual({ offset: [0.1, 1 - 3 - 0.2], rotation: 0, scale: [2, 3] });
    expect(full.matcapTexture!.transform).toBeUndefined();
    expect(asset.materials[0]).toMatchObject({ alphaMode: 'BLEND', doubleSided: true, normalScale: 0.8 });
    expect(asset.materials.slice(1, 3).map((m) => m.mtoon!.renderQueueOffsetNumber)).toEqual([-1, 0]);
    expect(asset.materials[1].mtoon!.giEqualizationFactor).toBe(0.9);
    expect(asset.materials[2].mtoon!.outlineLightingMixFactor).toBe(0);
    expect(asset.materials[3].mtoon!.parametricRimFresnelPowerFactor).toBe(1);
    expect(asset.materials[4]).toMatchObject({ alphaMode: 'BLEND', mtoon: { transparentWithZWrite: true, shadeMultiplyTexture: { image: 13 } } });
  });

  it('VRM_USE_GLTFSHADER and an unknown shader stay glTF (the unknown one with one warning); KHR_materials_unlit gives way to converted MToon', async () => {
    const b = vrm0With([{ name: 'M0', shader: 'VRM_USE_GLTFSHADER' }, { name: 'M1', shader: 'Standard' }, { name: 'M2', shader: 'VRM/MToon' }]);
    b.json.materials[2].extensions = { KHR_materials_unlit: {} };
    const asset = await parseGltf('old.vrm', b.glb());
    expect(asset.materials[0].mtoon).toBeUndefined();
    expect(asset.materials[0].metallicFactor).toBe(0.5);
    expect(asset.materials[1].mtoon).toBeUndefined();
    expect(asset.materials[2].mtoon).toBeDefined();
    expect(asset.materials[2].unlit).toBeUndefined();
    expect(asset.warnings).toEqual(['old.vrm: /extensions/VRM/materialProperties/1/shader is "Standard", a shader Sinew does not know; material 1 is drawn as glTF PBR']);
  });

  it('bad 0.x input: a malformed property keeps the glTF material with one warning; a texture out of range is left out', async () => {
    const b = vrm0With([
      { name: 'M0', shader: 'VRM/MToon', floatProperties: { _OutlineWidthMode: 'thick' } },
      { name: 'M1', shader: 'VRM/MToon', vectorProperties: { _ShadeColor: [1, 0] } },
      { name: 'M2', shader: 'VRM/MToon', floatProperties: { _OutlineWidthMode: 1, _OutlineWidth: 1 }, textureProperties: { _OutlineWidthTexture: 99 } },
      { name: 'M3', shader: 'VRM/MToon', keywordMap: { _ALPHABLEND_ON: 1 } },
      // A negative gamma colour has no linear value (x^2.2 is NaN): the converted material does not read.
      { name: 'M4', shader: 'VRM/MToon', vectorProperties: { _Color: [-1, 0.5, 0.5, 1] } },
    ]);
    const asset = await parseGltf('old.vrm', b.glb());
    expect(asset.warnings).toEqual([
      'old.vrm: /extensions/VRM/materialProperties/0/floatProperties/_OutlineWidthMode is "thick", not a finite number; material 0 is drawn as glTF PBR, without MToon',
      'old.vrm: /extensions/VRM/materialProperties/1/vectorProperties/_ShadeColor is [1,0], not an array of at least 3 finite numbers; material 1 is drawn as glTF PBR, without MToon',
      'old.vrm: /extensions/VRM/materialProperties/2/textureProperties/_OutlineWidthTexture is 99, not a texture index (the file has 6); that texture is left out',
      'old.vrm: /extensions/VRM/materialProperties/3/keywordMap/_ALPHABLEND_ON is 1, not true or false; material 3 is drawn as glTF PBR, without MToon',
      'old.vrm: /extensions/VRM/materialProperties/4 converts to a material Sinew cannot read (/materials/4/pbrMetallicRoughness/baseColorFactor is not an array of 4 finite numbers); material 4 is drawn as glTF PBR, without MToon',
    ]);
    expect(asset.materials.map((m) => m.mtoon === undefined)).toEqual([true, true, false, true, true]);
    expect(asset.materials[4].metallicFactor).toBe(0.5);
    expect(asset.materials[0].metallicFactor).toBe(0.5);
    expect(asset.materials[2].mtoon).toMatchObject({ outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.01 });
    expect(asset.materials[2].mtoon!.outlineWidthMultiplyTexture).toBeUndefined();
  });
});
