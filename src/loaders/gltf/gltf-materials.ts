import type { GLTF, Texture } from '@gltf-transform/core';
import type { ImageAsset, MaterialAsset, TextureSampler } from '../../asset/model-asset.ts';
import { LoadError } from '../load-error.ts';

/** Sampler enum values glTF 2.0 §5.26 allows (WebGL's): wraps, magnification and minification filters. */
const WRAPS = [33071, 33648, 10497];
const MAG_FILTERS = [9728, 9729];
const MIN_FILTERS = [9728, 9729, 9984, 9985, 9986, 9987];

/** The material given to primitives without one (glTF 2.0 §3.9.6 "Default Material": white, single-sided). */
export const DEFAULT_MATERIAL: MaterialAsset = { name: 'default', baseColorFactor: [1, 1, 1, 1], baseColorTexture: -1, doubleSided: false };

/** Materials and images of a glTF file, with the default material appended on demand. */
export interface GltfMaterials {
  readonly materials: MaterialAsset[];
  readonly images: ImageAsset[];
  /** Index into `materials` for a primitive's `material` (undefined → the default material, appended once). */
  materialOf(material: number | undefined): number;
  /** The TEXCOORD_n set a primitive's `material` samples its base colour texture with (0 without one). */
  uvSetOf(material: number | undefined): number;
}

/**
 * Converts `/images` (encoded bytes kept as they are, one ImageAsset per glTF image, in file order) and
 * `/materials` (baseColorFactor, baseColorTexture → the texture's `source` image, or its KHR_texture_basisu
 * `source` when it has one, and the texture's sampler (§5.26), doubleSided; glTF 2.0 §3.9 "Materials"). A base colour texture without a `source` (e.g. only an extension's image) gives −1
 * with a warning; so does alphaMode BLEND / MASK, which Sinew draws opaque. The texture's `texCoord` picks the
 * primitive's UV set ({@link GltfMaterials.uvSetOf}). The MIME type comes from the image's `mimeType`, else gltf-transform's guess from the uri
 * extension, else the bytes' signature (PNG, JPEG, WebP, KTX2).
 *
 * @param textures gltf-transform textures in file order (`root.listTextures()`: one per glTF image)
 * @throws LoadError for a KHR_texture_basisu `source` that is not an image (`UNRESOLVED_REFERENCE`) or a
 *   sampler wrap / filter value glTF does not list (`VALUE_NOT_IN_LIST`)
 */
export function buildGltfMaterials(fileName: string, json: GLTF.IGLTF, textures: readonly Texture[], warnings: string[]): GltfMaterials {
  const images: ImageAsset[] = (json.images ?? []).map((image, i) => {
    const data = textures[i]?.getImage() ?? new Uint8Array(0);
    const uri = image.uri !== undefined && !/^data:/i.test(image.uri) ? image.uri : undefined;
    const mimeType = image.mimeType ?? (textures[i]?.getMimeType() || sniffMimeType(data));
    return { name: image.name ?? uri ?? `image ${i}`, mimeType, data };
  });
  const texturesJson = json.textures ?? [];
  const materials: MaterialAsset[] = (json.materials ?? []).map((material, m) => {
    const pbr = material.pbrMetallicRoughness ?? {};
    let baseColorTexture = -1;
    let baseColorSampler: TextureSampler | undefined;
    if (pbr.baseColorTexture !== undefined) {
      const texture = texturesJson[pbr.baseColorTexture.index];
      const basisu = (texture.extensions?.KHR_texture_basisu as { source?: number } | undefined)?.source;
      // KHR_texture_basisu: the KTX2 image; `source`, when also given, is a fallback for clients without it.
      if (basisu !== undefined && !(Number.isInteger(basisu) && basisu >= 0 && basisu < images.length)) {
        throw new LoadError(fileName, `/textures/${pbr.baseColorTexture.index}/extensions/KHR_texture_basisu/source`, 'UNRESOLVED_REFERENCE', `is not an image (${basisu} of ${images.length})`);
      }
      const source = basisu ?? texture.source;
      if (source === undefined) warnings.push(`${fileName}: material ${m}'s base colour texture has no image source; ignored`);
      else baseColorTexture = source;
      if (texture.sampler !== undefined) {
        const sampler = (json.samplers ?? [])[texture.sampler];
        const place = `/samplers/${texture.sampler}`;
        for (const [key, allowed] of [['wrapS', WRAPS], ['wrapT', WRAPS], ['magFilter', MAG_FILTERS], ['minFilter', MIN_FILTERS]] as const) {
          const value = sampler[key];
          if (value !== undefined && !allowed.includes(value)) throw new LoadError(fileName, `${place}/${key}`, 'VALUE_NOT_IN_LIST', `is ${value}, not one of ${allowed.join(', ')}`);
        }
        baseColorSampler = { wrapS: sampler.wrapS ?? 10497, wrapT: sampler.wrapT ?? 10497, magFilter: sampler.magFilter, minFilter: sampler.minFilter };
      }
    }
    if (material.alphaMode === 'BLEND' || material.alphaMode === 'MASK') {
      warnings.push(`${fileName}: material ${m} has alphaMode ${material.alphaMode}; drawn opaque`);
    }
    const [r, g, b, a] = pbr.baseColorFactor ?? [1, 1, 1, 1];
    const built: MaterialAsset = { name: material.name ?? '', baseColorFactor: [r, g, b, a], baseColorTexture, doubleSided: material.doubleSided === true };
    return baseColorSampler ? { ...built, baseColorSampler } : built;
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
    uvSetOf(material: number | undefined): number {
      if (material === undefined) return 0;
      return (json.materials ?? [])[material]?.pbrMetallicRoughness?.baseColorTexture?.texCoord ?? 0;
    },
  };
}

/** MIME type from an encoded image's first bytes; `application/octet-stream` when unknown. */
function sniffMimeType(data: Uint8Array): string {
  if (data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data[0] === 0x52 && data[1] === 0x49 && data[2] === 0x46 && data[3] === 0x46 && data[8] === 0x57 && data[9] === 0x45) return 'image/webp';
  if (data[0] === 0xab && data[1] === 0x4b && data[2] === 0x54 && data[3] === 0x58) return 'image/ktx2';
  return 'application/octet-stream';
}
