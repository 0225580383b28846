import type { GLTF } from '@gltf-transform/core';
import { isJsonObject } from './vrm-reading.ts';

/**
 * VRM extensions Sinew reads into `ModelAsset.avatar` (read-vrm-avatar.ts): VRM 1.0 `VRMC_vrm`, VRM 0.x `VRM`.
 */
export const VRM_EXTENSIONS_READ: readonly string[] = ['VRMC_vrm', 'VRM'];

/** VRM 1.0 extensions a later version of Sinew reads: spring bones, node constraints, the MToon material. */
export const VRM_EXTENSIONS_LATER: readonly string[] = ['VRMC_springBone', 'VRMC_node_constraint', 'VRMC_materials_mtoon'];

/**
 * The VRM parts of a file that Sinew ignores until a later version, for the loader's one warning and
 * `sinew inspect`: the {@link VRM_EXTENSIONS_LATER} the file uses (in `extensionsUsed` or at the top level), and
 * VRM 0.x's `VRM.secondaryAnimation` (springs) when it has bone or collider groups, and `VRM.materialProperties`
 * (MToon) when a material's `shader` is not `VRM_USE_GLTFSHADER`.
 * @returns names such as `VRMC_springBone`, `VRM.secondaryAnimation`, in that order
 */
export function vrmPartsIgnoredUntilLater(json: GLTF.IGLTF): string[] {
  const used = new Set<string>([...(json.extensionsUsed ?? []), ...Object.keys(isJsonObject(json.extensions) ? json.extensions : {})]);
  const parts = VRM_EXTENSIONS_LATER.filter((name) => used.has(name));
  const vrm0: unknown = isJsonObject(json.extensions) ? json.extensions.VRM : undefined;
  if (isJsonObject(vrm0)) {
    const springs = vrm0.secondaryAnimation;
    const hasSprings = isJsonObject(springs) && ['boneGroups', 'colliderGroups'].some((k) => Array.isArray(springs[k]) && (springs[k] as unknown[]).length > 0);
    if (hasSprings) parts.push('VRM.secondaryAnimation');
    // Every 0.x material has an entry; only those not marked as plain glTF are MToon (or another Unity shader).
    const mtoon = Array.isArray(vrm0.materialProperties) && vrm0.materialProperties.some((m: unknown) => isJsonObject(m) && m.shader !== 'VRM_USE_GLTFSHADER');
    if (mtoon) parts.push('VRM.materialProperties');
  }
  return parts;
}
