import type { GLTF, Texture } from '@gltf-transform/core';
import type { AlphaMode, ImageAsset, MaterialAsset } from '../../asset/model-asset.ts';
import type { MaterialTexture, TextureCoordinates, TextureSampler, TextureTransform } from '../../asset/material-texture.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import type { LoadErrorCode } from '../load-error-codes.ts';
import { convertVrm0Materials } from '../vrm/convert-vrm0-materials.ts';
import { readMToon } from '../vrm/read-mtoon.ts';

/** Sampler enum values glTF 2.0 §5.26 allows (WebGL's): wraps, magnification and minification filters. */
const WRAPS = [33071, 33648, 10497];
const MAG_FILTERS = [9728, 9729];
const MIN_FILTERS = [9728, 9729, 9984, 9985, 9986, 9987];
const ALPHA_MODES: readonly AlphaMode[] = ['OPAQUE', 'MASK', 'BLEND'];

/**
 * The material given to primitives without one (glTF 2.0 §3.9.6 "Default Material": white, metallic 1,
 * roughness 1, single-sided, opaque).
 */
export const DEFAULT_MATERIAL: MaterialAsset = {
  name: 'default', baseColorFactor: [1, 1, 1, 1], baseColorTexture: -1, doubleSided: false,
  metallicFactor: 1, roughnessFactor: 1, emissiveFactor: [0, 0, 0], alphaMode: 'OPAQUE', alphaCutoff: 0.5,
};

/** Materials and images of a glTF file, with the default material appended on demand. */
export interface GltfMaterials {
  readonly materials: MaterialAsset[];
  readonly images: ImageAsset[];
  /** Index into `materials` for a primitive's `material` (undefined → the default material, appended once). */
  materialOf(material: number | undefined): number;
}

type Json = Record<string, unknown>;

/**
 * Converts `/images` (encoded bytes kept as they are, one ImageAsset per glTF image, in file order) and
 * `/materials` (glTF 2.0 §3.9 "Materials") into MaterialAssets: every field of the metallic-roughness model
 * (base colour, metallic and roughness factors and texture, normal texture and scale, occlusion texture and
 * strength, emissive factor and texture, alphaMode and alphaCutoff, doubleSided), with glTF's defaults
 * written out, plus KHR_materials_emissive_strength, KHR_materials_unlit, VRMC_materials_mtoon 1.0 into
 * `MaterialAsset.mtoon` (read-mtoon.ts, which takes precedence over KHR_materials_unlit and drops a malformed
 * extension with one warning, leaving the material PBR), VRM 0.x `materialProperties` MToon converted to it first
 * (convert-vrm0-materials.ts, as three-vrm's v0compat; a conversion that still does not read falls back to the
 * file's material with one warning), and per texture its sampler (§5.26),
 * `texCoord` and KHR_texture_transform (whose `texCoord` overrides the textureInfo's). A texture's image is
 * its `source`, or its KHR_texture_basisu `source` when it has one; a texture without an image is ignored
 * with a warning, and so is a `texCoord` above 1 (Sinew reads TEXCOORD_0 and TEXCOORD_1; such a texture
 * samples TEXCOORD_0). The MIME type comes from the image's `mimeType`, else gltf-transform's guess from the
 * uri extension, else the bytes' signature (PNG, JPEG, WebP, KTX2).
 *
 * @param textures gltf-transform textures in file order (`root.listTextures()`: one per glTF image)
 * @throws LoadError with the JSON pointer of the value: a KHR_texture_basisu `source` that is not an image
 *   (`UNRESOLVED_REFERENCE`); a sampler wrap / filter value or an alphaMode glTF does not list
 *   (`VALUE_NOT_IN_LIST`); a factor, scale, strength, cutoff or texCoord outside its range (`VALUE_NOT_IN_RANGE`:
 *   factors and occlusion strength in [0, 1], alphaCutoff and emissive strength ≥ 0, texCoord an integer ≥ 0);
 *   a value of the wrong type or array length, or a KHR_texture_transform offset / scale / rotation that is
 *   not finite (`TYPE_MISMATCH`)
 */
export function buildGltfMaterials(fileName: string, json: GLTF.IGLTF, textures: readonly Texture[], warnings: string[]): GltfMaterials {
  const images: ImageAsset[] = (json.images ?? []).map((image, i) => {
    const data = textures[i]?.getImage() ?? new Uint8Array(0);
    const uri = image.uri !== undefined && !/^data:/i.test(image.uri) ? image.uri : undefined;
    const mimeType = image.mimeType ?? (textures[i]?.getMimeType() || sniffMimeType(data));
    return { name: image.name ?? uri ?? `image ${i}`, mimeType, data };
  });
  const fail = (place: string, code: LoadErrorCode, problem: string): never => {
    throw new LoadError(fileName, place, code, problem);
  };
  const texturesJson = json.textures ?? [];
  const jsonSamplers = json.samplers;

  /** A textureInfo's image (−1 when the texture has none), sampler and coordinates. */
  const readTexture = (info: GLTF.ITextureInfo, place: string, label: string): MaterialTexture | null => {
    const texture = texturesJson[info.index];
    const basisu = (texture.extensions?.KHR_texture_basisu as { source?: number } | undefined)?.source;
    // KHR_texture_basisu: the KTX2 image; `source`, when also given, is a fallback for clients without it.
    if (basisu !== undefined && !(Number.isInteger(basisu) && basisu >= 0 && basisu < images.length)) {
      fail(`/textures/${info.index}/extensions/KHR_texture_basisu/source`, 'UNRESOLVED_REFERENCE', `is not an image (${basisu} of ${images.length})`);
    }
    const coordinates = readCoordinates(info as unknown as Json, place, label);
    const source = basisu ?? texture.source;
    if (source === undefined) {
      warnings.push(`${fileName}: ${label} has no image source; ignored`);
      return null;
    }
    let sampler: TextureSampler | undefined;
    if (texture.sampler !== undefined) {
      const json = (jsonSamplers ?? [])[texture.sampler];
      const at = `/samplers/${texture.sampler}`;
      for (const [key, allowed] of [['wrapS', WRAPS], ['wrapT', WRAPS], ['magFilter', MAG_FILTERS], ['minFilter', MIN_FILTERS]] as const) {
        const value = json[key];
        if (value !== undefined && !allowed.includes(value)) fail(`${at}/${key}`, 'VALUE_NOT_IN_LIST', `is ${value}, not one of ${allowed.join(', ')}`);
      }
      sampler = { wrapS: json.wrapS ?? 10497, wrapT: json.wrapT ?? 10497, magFilter: json.magFilter, minFilter: json.minFilter };
    }
    return { image: source, ...(sampler ? { sampler } : {}), ...coordinates };
  };

  /** `texCoord` and KHR_texture_transform of a textureInfo at `place`. */
  const readCoordinates = (info: Json, place: string, label: string): TextureCoordinates => {
    let texCoord = integerAtLeast(info.texCoord, 0, `${place}/texCoord`, 0);
    let transform: TextureTransform | undefined;
    const ext = (info.extensions as Json | undefined)?.KHR_texture_transform;
    if (ext !== undefined) {
      const at = `${place}/extensions/KHR_texture_transform`;
      if (!isObject(ext)) fail(at, 'TYPE_MISMATCH', 'is not an object');
      const t = ext as Json;
      const offset = finiteArray(t.offset, 2, `${at}/offset`) ?? [0, 0];
      const scale = finiteArray(t.scale, 2, `${at}/scale`) ?? [1, 1];
      const rotation = t.rotation === undefined ? 0 : finite(t.rotation, `${at}/rotation`);
      if (t.texCoord !== undefined) texCoord = integerAtLeast(t.texCoord, 0, `${at}/texCoord`, 0);
      transform = { offset: [offset[0], offset[1]], rotation, scale: [scale[0], scale[1]] };
    }
    if (texCoord > 1) {
      warnings.push(`${fileName}: ${label} samples TEXCOORD_${texCoord}; Sinew reads TEXCOORD_0 and TEXCOORD_1, so it samples TEXCOORD_0`);
      texCoord = 0;
    }
    return { texCoord: texCoord as 0 | 1, ...(transform ? { transform } : {}) };
  };
  const finite = (value: unknown, place: string): number => {
    if (typeof value !== 'number' || !Number.isFinite(value)) fail(place, 'TYPE_MISMATCH', `is ${quoteValue(value)}, not a finite number`);
    return value as number;
  };
  const finiteArray = (value: unknown, length: number, place: string): number[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length !== length || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      fail(place, 'TYPE_MISMATCH', `is not an array of ${length} finite numbers`);
    }
    return value as number[];
  };
  const integerAtLeast = (value: unknown, min: number, place: string, absent: number): number => {
    if (value === undefined) return absent;
    if (!Number.isInteger(value) || (value as number) < min) fail(place, 'VALUE_NOT_IN_RANGE', `is ${quoteValue(value)}, not an integer ≥ ${min}`);
    return value as number;
  };
  /** A number in [min, max] (max may be Infinity), or `absent`. */
  const inRange = (value: unknown, min: number, max: number, place: string, absent: number): number => {
    if (value === undefined) return absent;
    const n = finite(value, place);
    if (n < min || n > max) fail(place, 'VALUE_NOT_IN_RANGE', `is ${n}, not in [${min}, ${max === Infinity ? '∞' : max}]`);
    return n;
  };
  const factors = <N extends 3 | 4>(value: unknown, length: N, place: string, absent: number[]): number[] => {
    const array = finiteArray(value, length, place) ?? absent;
    array.forEach((v, i) => {
      if (v < 0 || v > 1) fail(`${place}/${i}`, 'VALUE_NOT_IN_RANGE', `is ${v}, not in [0, 1]`);
    });
    return array;
  };

  /** One glTF material (as the file has it, or converted from VRM 0.x) at `/materials/m`. */
  const readMaterial = (material: GLTF.IMaterial, m: number, fromVrm0: boolean): MaterialAsset => {
    const place = `/materials/${m}`;
    const raw = material as unknown as Json;
    const pbrPlace = `${place}/pbrMetallicRoughness`;
    const pbr = material.pbrMetallicRoughness ?? {};
    const pbrRaw = pbr as unknown as Json;
    const extensions = (material.extensions ?? {}) as Json;

    const [r, g, b, a] = factors(pbrRaw.baseColorFactor, 4, `${pbrPlace}/baseColorFactor`, [1, 1, 1, 1]);
    let baseColorTexture = -1;
    let baseColorSampler: TextureSampler | undefined;
    let baseColorUv: TextureCoordinates | undefined;
    if (pbr.baseColorTexture !== undefined) {
      const texture = readTexture(pbr.baseColorTexture, `${pbrPlace}/baseColorTexture`, `material ${m}'s base colour texture`);
      if (texture) {
        baseColorTexture = texture.image;
        baseColorSampler = texture.sampler;
        baseColorUv = { texCoord: texture.texCoord, ...(texture.transform ? { transform: texture.transform } : {}) };
      }
    }
    const optionalTexture = (info: GLTF.ITextureInfo | undefined, at: string, label: string): MaterialTexture | undefined =>
      info === undefined ? undefined : readTexture(info, at, `material ${m}'s ${label}`) ?? undefined;
    const metallicRoughnessTexture = optionalTexture(pbr.metallicRoughnessTexture, `${pbrPlace}/metallicRoughnessTexture`, 'metallic-roughness texture');
    const normalTexture = optionalTexture(material.normalTexture, `${place}/normalTexture`, 'normal texture');
    const occlusionTexture = optionalTexture(material.occlusionTexture, `${place}/occlusionTexture`, 'occlusion texture');
    const emissiveTexture = optionalTexture(material.emissiveTexture, `${place}/emissiveTexture`, 'emissive texture');

    const alphaMode = raw.alphaMode ?? 'OPAQUE';
    if (!ALPHA_MODES.includes(alphaMode as AlphaMode)) fail(`${place}/alphaMode`, 'VALUE_NOT_IN_LIST', `is ${quoteValue(alphaMode)}, not one of OPAQUE, MASK, BLEND`);
    const strength = extensions.KHR_materials_emissive_strength as Json | undefined;
    if (strength !== undefined && !isObject(strength)) fail(`${place}/extensions/KHR_materials_emissive_strength`, 'TYPE_MISMATCH', 'is not an object');
    const [er, eg, eb] = factors(raw.emissiveFactor, 3, `${place}/emissiveFactor`, [0, 0, 0]);

    const built: MaterialAsset = {
      name: material.name ?? '',
      baseColorFactor: [r, g, b, a],
      baseColorTexture,
      ...(baseColorSampler ? { baseColorSampler } : {}),
      ...(baseColorUv && (baseColorUv.texCoord !== 0 || baseColorUv.transform) ? { baseColorUv } : {}),
      metallicFactor: inRange(pbrRaw.metallicFactor, 0, 1, `${pbrPlace}/metallicFactor`, 1),
      roughnessFactor: inRange(pbrRaw.roughnessFactor, 0, 1, `${pbrPlace}/roughnessFactor`, 1),
      ...(metallicRoughnessTexture ? { metallicRoughnessTexture } : {}),
      ...(normalTexture ? { normalTexture, normalScale: material.normalTexture!.scale === undefined ? 1 : finite(material.normalTexture!.scale, `${place}/normalTexture/scale`) } : {}),
      ...(occlusionTexture ? { occlusionTexture, occlusionStrength: inRange(material.occlusionTexture!.strength, 0, 1, `${place}/occlusionTexture/strength`, 1) } : {}),
      emissiveFactor: [er, eg, eb],
      ...(emissiveTexture ? { emissiveTexture } : {}),
      ...(strength ? { emissiveStrength: inRange(strength.emissiveStrength, 0, Infinity, `${place}/extensions/KHR_materials_emissive_strength/emissiveStrength`, 1) } : {}),
      alphaMode: alphaMode as AlphaMode,
      alphaCutoff: inRange(raw.alphaCutoff, 0, Infinity, `${place}/alphaCutoff`, 0.5),
      doubleSided: material.doubleSided === true,
    };
    const mtoon = extensions.VRMC_materials_mtoon === undefined ? null : readMToon({
      fileName, warnings, textureCount: texturesJson.length, alphaMode: built.alphaMode!, v0CompatShade: fromVrm0,
      readTexture: (info, at, label) => readTexture(info as unknown as GLTF.ITextureInfo, at, label),
    }, extensions.VRMC_materials_mtoon, `${place}/extensions/VRMC_materials_mtoon`, `material ${m}${material.name ? ` (${quoteValue(material.name)})` : ''}`);
    // MToon takes precedence over KHR_materials_unlit (VRMC_materials_mtoon-1.0 README, "Interaction with KHR_materials_unlit").
    if (mtoon) return { ...built, mtoon };
    return extensions.KHR_materials_unlit !== undefined ? { ...built, unlit: true } : built;
  };

  const vrm0 = convertVrm0Materials(fileName, json, warnings);
  const materials: MaterialAsset[] = (json.materials ?? []).map((material, m) => {
    const converted = vrm0.get(m);
    if (converted) {
      try {
        return readMaterial(converted, m, true);
      } catch (error) {
        if (!(error instanceof LoadError)) throw error;
        warnings.push(`${fileName}: /extensions/VRM/materialProperties/${m} converts to a material Sinew cannot read (${error.where ?? ''} ${error.problem}); material ${m} is drawn as glTF PBR, without MToon`);
      }
    }
    return readMaterial(material, m, false);
  });
  let defaultIndex = -1;
  return {
    materials,
    images,
    materialOf(material: number | undefined): number {
      if (material !== undefined) return material;
      if (defaultIndex < 0) {
        defaultIndex = materials.length;
        materials.push(DEFAULT_MATERIAL);
      }
      return defaultIndex;
    },
  };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** MIME type from an encoded image's first bytes; `application/octet-stream` when unknown. */
function sniffMimeType(data: Uint8Array): string {
  if (data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data[0] === 0x52 && data[1] === 0x49 && data[2] === 0x46 && data[3] === 0x46 && data[8] === 0x57 && data[9] === 0x45) return 'image/webp';
  if (data[0] === 0xab && data[1] === 0x4b && data[2] === 0x54 && data[3] === 0x58) return 'image/ktx2';
  return 'application/octet-stream';
}
