import type { GLTF, Texture } from '@gltf-transform/core';
import type { ImageAsset, MaterialAsset } from '../../asset/model-asset.ts';

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
 * `/materials` (baseColorFactor, baseColorTexture → the texture's `source` image, doubleSided; glTF 2.0
 * §3.9 "Materials"). A base colour texture without a `source` (e.g. only an extension's image) gives −1
 * with a warning; so does alphaMode BLEND / MASK, which Sinew draws opaque. The texture's `texCoord` picks the
 * primitive's UV set ({@link GltfMaterials.uvSetOf}). The MIME type comes from the image's `mimeType`, else gltf-transform's guess from the uri
 * extension, else the bytes' signature (PNG, JPEG, WebP, KTX2).
 *
 * @param textures gltf-transform textures in file order (`root.listTextures()`: one per glTF image)
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
    if (pbr.baseColorTexture !== undefined) {
      const source = texturesJson[pbr.baseColorTexture.index].source;
      if (source === undefined) warnings.push(`${fileName}: material ${m}'s base colour texture has no image source; ignored`);
      else baseColorTexture = source;
    }
    if (material.alphaMode === 'BLEND' || material.alphaMode === 'MASK') {
      warnings.push(`${fileName}: material ${m} has alphaMode ${material.alphaMode}; drawn opaque`);
    }
    const [r, g, b, a] = pbr.baseColorFactor ?? [1, 1, 1, 1];
    return { name: material.name ?? '', baseColorFactor: [r, g, b, a], baseColorTexture, doubleSided: material.doubleSided === true };
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
