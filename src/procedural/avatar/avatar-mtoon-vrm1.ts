import type { MaterialsMToonTextureInfo, VRMCMaterialsMToon } from '@pixiv/types-vrmc-materials-mtoon-1.0';
import { AVATAR_TOON_MATERIALS, type AvatarMToonTextureSlot, type AvatarToonMaterial, type AvatarToonMaterialName } from './avatar-mtoon.ts';
import type { AvatarMToonImageName } from './avatar-mtoon-textures.ts';
import type { GltfJson } from './glb-with-extension.ts';

type TextureInfoJson = { index: number; texCoord?: number; extensions?: Record<string, unknown> };
type MaterialJson = {
  name?: string;
  emissiveTexture?: TextureInfoJson;
  normalTexture?: TextureInfoJson;
  pbrMetallicRoughness?: { baseColorTexture?: TextureInfoJson };
  extensions?: Record<string, unknown>;
};

/**
 * Index of a `textures` entry sampling the image named `name` with glTF's default sampler: the one glTF-Transform
 * wrote for a glTF slot, else a new entry. Null when the file has no such image (an avatar built without textures).
 */
export function textureIndexOfImage(json: GltfJson, name: AvatarMToonImageName): number | null {
  const images = (json.images ?? []) as { name?: string }[];
  const image = images.findIndex((entry) => entry.name === name);
  if (image < 0) return null;
  const textures = (json.textures ??= []) as { source?: number; sampler?: number }[];
  const found = textures.findIndex((texture) => texture.source === image && texture.sampler === undefined);
  if (found >= 0) return found;
  textures.push({ source: image });
  return textures.length - 1;
}

/** The KHR_texture_transform of a toon material's UV-sampled textures, or none. */
function transformExtension(toon: AvatarToonMaterial): Record<string, unknown> | undefined {
  if (!toon.textureTransform) return undefined;
  return { KHR_texture_transform: { offset: [...toon.textureTransform.offset], scale: [...toon.textureTransform.scale] } };
}

/**
 * The `VRMC_materials_mtoon` 1.0 object of a toon material (VRMC_materials_mtoon-1.0 schema): every factor written
 * out, defaults too (so readers' defaults are not what is tested), the textures that the file holds.
 */
export function mtoonExtensionOf(json: GltfJson, toon: AvatarToonMaterial): VRMCMaterialsMToon {
  const m = toon.mtoon;
  const extension: VRMCMaterialsMToon = {
    specVersion: '1.0',
    transparentWithZWrite: m.transparentWithZWrite,
    renderQueueOffsetNumber: m.renderQueueOffsetNumber,
    shadeColorFactor: [...m.shadeColorFactor],
    shadingShiftFactor: m.shadingShiftFactor,
    shadingToonyFactor: m.shadingToonyFactor,
    giEqualizationFactor: m.giEqualizationFactor,
    matcapFactor: [...m.matcapFactor],
    parametricRimColorFactor: [...m.parametricRimColorFactor],
    rimLightingMixFactor: m.rimLightingMixFactor,
    parametricRimFresnelPowerFactor: m.parametricRimFresnelPowerFactor,
    parametricRimLiftFactor: m.parametricRimLiftFactor,
    outlineWidthMode: m.outlineWidthMode,
    outlineWidthFactor: m.outlineWidthFactor,
    outlineColorFactor: [...m.outlineColorFactor],
    outlineLightingMixFactor: m.outlineLightingMixFactor,
    uvAnimationScrollXSpeedFactor: m.uvAnimationScrollXSpeedFactor,
    uvAnimationScrollYSpeedFactor: m.uvAnimationScrollYSpeedFactor,
    uvAnimationRotationSpeedFactor: m.uvAnimationRotationSpeedFactor,
  };
  for (const [slot, imageName] of Object.entries(toon.mtoonImages) as [AvatarMToonTextureSlot, AvatarMToonImageName][]) {
    const index = textureIndexOfImage(json, imageName);
    if (index === null) continue;
    const info: MaterialsMToonTextureInfo & { scale?: number } = { index, texCoord: 0 };
    const extensions = slot === 'matcapTexture' ? undefined : transformExtension(toon);
    if (extensions) info.extensions = extensions;
    if (slot === 'shadingShiftTexture') info.scale = m.shadingShiftTextureScale;
    extension[slot] = info;
  }
  return extension;
}

/**
 * Makes the toon avatar's materials MToon in a VRM 1.0 file's JSON: on each material named in
 * {@link AVATAR_TOON_MATERIALS}, `VRMC_materials_mtoon` 1.0 and `KHR_materials_unlit` (as VRM exporters write
 * both, for readers without MToon; MToon wins, VRMC_materials_mtoon-1.0 README "Interaction with
 * KHR_materials_unlit"); KHR_texture_transform on the glTF slots of a material with a texture transform. Adds the
 * three extensions to `extensionsUsed`.
 * @throws Error if a material is not one of the toon avatar's
 */
export function addVrm1ToonMaterials(json: GltfJson): void {
  for (const material of (json.materials ?? []) as MaterialJson[]) {
    const toon = AVATAR_TOON_MATERIALS[material.name as AvatarToonMaterialName];
    if (!toon) throw new Error(`generated avatar: material ${material.name} has no toon settings`);
    const transform = transformExtension(toon);
    if (transform) {
      for (const info of [material.emissiveTexture, material.normalTexture, material.pbrMetallicRoughness?.baseColorTexture]) {
        if (info) info.extensions = { ...info.extensions, ...transform };
      }
    }
    material.extensions = { ...material.extensions, KHR_materials_unlit: {}, VRMC_materials_mtoon: mtoonExtensionOf(json, toon) };
  }
  const used = ['KHR_materials_unlit', 'VRMC_materials_mtoon', ...(Object.values(AVATAR_TOON_MATERIALS).some((t) => t.textureTransform) ? ['KHR_texture_transform'] : [])];
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), ...used])];
}
