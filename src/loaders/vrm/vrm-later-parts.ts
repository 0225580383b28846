import type { GLTF } from '@gltf-transform/core';
import { isJsonObject } from './vrm-reading.ts';

/**
 * VRM extensions Sinew reads: VRM 1.0 `VRMC_vrm` and VRM 0.x `VRM` into `ModelAsset.avatar` (read-vrm-avatar.ts);
 * `VRMC_springBone`, its `VRMC_springBone_extended_collider` and `VRMC_node_constraint` into
 * `ModelAsset.secondaryMotion` (read-secondary-motion.ts).
 */
export const VRM_EXTENSIONS_READ: readonly string[] = ['VRMC_vrm', 'VRM', 'VRMC_springBone', 'VRMC_springBone_extended_collider', 'VRMC_node_constraint'];

/** VRM 1.0 extensions a later version of Sinew reads: the MToon material. */
export const VRM_EXTENSIONS_LATER: readonly string[] = ['VRMC_materials_mtoon'];

/**
 * The VRM parts of a file that Sinew ignores until a later version, for the loader's one warning and
 * `sinew inspect`: the {@link VRM_EXTENSIONS_LATER} the file uses (in `extensionsUsed` or at the top level), and
 * VRM 0.x's `VRM.materialProperties` (MToon) when a material's `shader` is not `VRM_USE_GLTFSHADER`. (Spring bones,
 * VRM 0.x's `secondaryAnimation` among them, and node constraints are read now: read-secondary-motion.ts.)
 * @returns names such as `VRMC_materials_mtoon`, `VRM.materialProperties`, in that order
 */
export function vrmPartsIgnoredUntilLater(json: GLTF.IGLTF): string[] {
  const used = new Set<string>([...(json.extensionsUsed ?? []), ...Object.keys(isJsonObject(json.extensions) ? json.extensions : {})]);
  const parts = VRM_EXTENSIONS_LATER.filter((name) => used.has(name));
  const vrm0: unknown = isJsonObject(json.extensions) ? json.extensions.VRM : undefined;
  if (isJsonObject(vrm0)) {
    // Every 0.x material has an entry; only those not marked as plain glTF are MToon (or another Unity shader).
    const mtoon = Array.isArray(vrm0.materialProperties) && vrm0.materialProperties.some((m: unknown) => isJsonObject(m) && m.shader !== 'VRM_USE_GLTFSHADER');
    if (mtoon) parts.push('VRM.materialProperties');
  }
  return parts;
}
