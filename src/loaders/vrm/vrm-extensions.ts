/**
 * VRM extensions Sinew reads: VRM 1.0 `VRMC_vrm` and VRM 0.x `VRM` into `ModelAsset.avatar` (read-vrm-avatar.ts;
 * 0.x's `materialProperties` MToon converted to 1.0 by convert-vrm0-materials.ts); `VRMC_materials_mtoon` into
 * `MaterialAsset.mtoon` (read-mtoon.ts); `VRMC_springBone`, its `VRMC_springBone_extended_collider` and
 * `VRMC_node_constraint` into `ModelAsset.secondaryMotion` (read-secondary-motion.ts).
 */
export const VRM_EXTENSIONS_READ: readonly string[] = [
  'VRMC_vrm', 'VRM', 'VRMC_materials_mtoon', 'VRMC_springBone', 'VRMC_springBone_extended_collider', 'VRMC_node_constraint',
];
