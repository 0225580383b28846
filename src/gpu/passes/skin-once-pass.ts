import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * The skin-once pass: every skinned primitive of `item` (skinned primitives are never in a rigid batch) run
 * through the shader variant its draw would use, its vertices captured by transform feedback into the buffers
 * `draw` was begun with (`SkinnedRenderer.skinInto`, src/gpu/skinning/skinned-vertex-buffers.ts); nothing drawn.
 */
export function drawSkinOncePass(draw: PrimitiveDraw, item: RenderItem): void {
  const asset = item.gpuModel.asset;
  for (let i = 0; i < asset.meshInstances.length; i++) {
    const instance = asset.meshInstances[i];
    if (instance.skin < 0) continue;
    const count = asset.meshes[instance.mesh].primitives.length;
    for (let p = 0; p < count; p++) if (item.gpuModel.primitive(instance.mesh, p).skinned) draw.drawMeshPrimitive(item, i, p);
  }
}
