import type { GLTF } from '@gltf-transform/core';
import { LoadError, quoteValue } from '../load-error.ts';
import { VRM_EXTENSIONS_READ } from '../vrm/vrm-extensions.ts';

/**
 * Extensions Sinew reads (glTF 2.0 §3.12 "Extensions"): a file may require them.
 * - EXT_meshopt_compression: meshopt-compressed buffer views, decoded before validation (meshopt-views.ts).
 * - KHR_draco_mesh_compression: Draco-compressed primitives, decoded by gltf-transform (draco-primitives.ts).
 * - KHR_mesh_quantization: integer positions, normals, tangents and texture coordinates (gltf-meshes.ts).
 * - KHR_texture_basisu: KTX2 / Basis Universal base colour images (gltf-materials.ts, gl/ktx2-texture.ts).
 * - KHR_texture_transform: offset, rotation, scale and texCoord per texture (gltf-materials.ts, lit.frag).
 * - KHR_materials_emissive_strength, KHR_materials_unlit: read into MaterialAsset (gltf-materials.ts).
 * - VRMC_vrm (VRM 1.0) and VRM (VRM 0.x): the avatar, read into `ModelAsset.avatar` (src/loaders/vrm/); VRM 0.x's
 *   `materialProperties` MToon converted to VRMC_materials_mtoon (convert-vrm0-materials.ts).
 * - VRMC_materials_mtoon: the MToon toon material, read into `MaterialAsset.mtoon` (read-mtoon.ts).
 * - VRMC_springBone (with VRMC_springBone_extended_collider) and VRMC_node_constraint: read into
 *   `ModelAsset.secondaryMotion` (src/loaders/vrm/read-secondary-motion.ts).
 */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set([
  'EXT_meshopt_compression', 'KHR_draco_mesh_compression', 'KHR_mesh_quantization', 'KHR_texture_basisu',
  'KHR_texture_transform', 'KHR_materials_emissive_strength', 'KHR_materials_unlit', ...VRM_EXTENSIONS_READ,
]);

/** Supported extensions gltf-transform reads itself (its plugin is registered on the reader), so they stay required for it. */
const READ_BY_GLTF_TRANSFORM: ReadonlySet<string> = new Set(['KHR_draco_mesh_compression']);

/** What a file's extension lists mean for Sinew. */
export interface GltfExtensionUse {
  /** Every supported extension the file uses or requires. */
  readonly supported: ReadonlySet<string>;
  /**
   * The JSON to hand to gltf-transform: `json` itself, or a shallow copy whose `extensionsRequired` leaves
   * out the extensions Sinew reads itself (all supported ones but KHR_draco_mesh_compression) (gltf-transform refuses a required extension it has no plugin for)
   * and whose KHR_texture_basisu textures name their KTX2 image as `source`.
   */
  readonly jsonForReader: GLTF.IGLTF;
}

/**
 * Checks `extensionsRequired` and `extensionsUsed` (glTF 2.0 §3.12): a required extension Sinew does not
 * read is an error, since drawing without it would be wrong; one only in `extensionsUsed` is ignored with one
 * warning for the file naming all of them (the file must then make sense without it, and three.js and
 * Babylon.js load it too).
 *
 * @throws LoadError `fileName: /extensionsRequired names X, which Sinew does not support` (`UNSUPPORTED_EXTENSION`)
 */
export function checkGltfExtensions(fileName: string, json: GLTF.IGLTF, warnings: string[]): GltfExtensionUse {
  const required = json.extensionsRequired ?? [];
  for (const extension of required) {
    if (!SUPPORTED_EXTENSIONS.has(extension)) {
      throw new LoadError(fileName, '/extensionsRequired', 'UNSUPPORTED_EXTENSION', `names ${quoteValue(extension)}, which Sinew does not support`);
    }
  }
  const supported = new Set<string>();
  const ignored: string[] = [];
  for (const extension of [...(json.extensionsUsed ?? []), ...required]) {
    if (SUPPORTED_EXTENSIONS.has(extension)) supported.add(extension);
    else if (!ignored.includes(extension)) ignored.push(extension);
  }
  if (ignored.length > 0) {
    warnings.push(`${fileName}: uses extension${ignored.length > 1 ? 's' : ''} ${ignored.map(quoteValue).join(', ')}, not required; ignored`);
  }
  let jsonForReader = json;
  if (required.length > 0) {
    jsonForReader = { ...jsonForReader, extensionsRequired: required.filter((e) => !SUPPORTED_EXTENSIONS.has(e) || READ_BY_GLTF_TRANSFORM.has(e)) };
  }
  if (supported.has('KHR_texture_basisu') && json.textures) {
    // gltf-transform without the extension's plugin sees a texture with no `source` and fails on its sampler;
    // Sinew reads the extension's image itself (gltf-materials.ts), so the reader gets it as the source.
    jsonForReader = {
      ...jsonForReader,
      textures: json.textures.map((texture) => {
        const source = (texture.extensions?.KHR_texture_basisu as { source?: unknown } | undefined)?.source;
        return typeof source === 'number' ? { ...texture, source } : texture;
      }),
    };
  }
  return { supported, jsonForReader };
}
