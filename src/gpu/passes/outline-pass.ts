import { AlphaMode } from '../shading/alpha-mode.ts';
import { materialOf } from '../skinning/material-binding.ts';
import type { GpuPrimitive } from '../skinning/gpu-model.ts';
import { hidesInstances } from './opaque-pass.ts';
import { outlineModeOf, OutlineWidthModeCode } from './outline-material.ts';
import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * The outline pass (VRMC_materials_mtoon-1.0 README "Outline"): after the opaque and rigid-batch passes, the
 * inverted hull of every OPAQUE or MASK primitive whose material has an MToon outline (outline-material.ts
 * `outlineModeOf`), in file order — each mesh primitive the opaque pass drew, or every primitive when the item
 * hides instances (the instances it hides left out), and each rigid batch of such a material. The hull is the
 * primitive's own vertices (the skin-once buffers when `item.skinnedVertices` holds them, else skinned again in
 * the outline's vertex shader) moved out along their normals by skinned.vert's `MTOON_OUTLINE`, front faces
 * culled, depth tested and written. BLEND primitives draw their outline right after their surface in the blend
 * pass (blend-pass.ts), as three-vrm's outline material, a clone of the surface's, sorts with it. Blending must be off.
 */
export function drawOutlinePass(draw: PrimitiveDraw, item: RenderItem): void {
  const gpuModel = item.gpuModel;
  const asset = gpuModel.asset;
  if (hidesInstances(item)) {
    const hidden = item.hiddenInstances!;
    for (let i = 0; i < asset.meshInstances.length; i++) {
      if (hidden[i] === 1) continue;
      const mesh = asset.meshInstances[i].mesh;
      const count = asset.meshes[mesh].primitives.length;
      for (let p = 0; p < count; p++) if (outlinedOpaque(item, gpuModel.primitive(mesh, p))) draw.drawMeshOutline(item, i, p);
    }
    return;
  }
  const singles = gpuModel.singles;
  for (let k = 0; k < singles.length; k += 2) {
    const i = singles[k], p = singles[k + 1];
    if (outlinedOpaque(item, gpuModel.primitive(asset.meshInstances[i].mesh, p))) draw.drawMeshOutline(item, i, p);
  }
  const batches = gpuModel.rigidBatches;
  for (let b = 0; b < batches.length; b++) if (outlinedOpaque(item, batches[b].primitive)) draw.drawRigidBatchOutline(item, b);
}

/** Whether `primitive` of `item` has an outline and is not BLEND (a BLEND one's outline is drawn in the blend pass). */
function outlinedOpaque(item: RenderItem, primitive: GpuPrimitive): boolean {
  if (outlineModeOf(item.gpuModel.asset, primitive.asset.material) === OutlineWidthModeCode.None) return false;
  return materialOf(item.gpuModel, primitive)?.alphaMode !== AlphaMode.Blend;
}

/** Whether primitive `primitive` of `item` draws an MToon outline (any alpha mode). */
export function hasOutline(item: RenderItem, primitive: GpuPrimitive): boolean {
  return outlineModeOf(item.gpuModel.asset, primitive.asset.material) !== OutlineWidthModeCode.None;
}
