import { AlphaMode } from '../shading/alpha-mode.ts';
import { materialOf } from '../skinning/material-binding.ts';
import { blendQueueOf, distanceToEye, type BlendOrder } from './blend-order.ts';
import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * Draws primitive `p` of mesh instance `i` now, or when its material is BLEND collects it into `blended` with its
 * distance to the eye and render queue for the blend pass (src/gpu/passes/blend-pass.ts); nothing for an instance the item hides
 * (`RenderItem.hiddenInstances`).
 */
export function drawOrCollect(draw: PrimitiveDraw, item: RenderItem, i: number, p: number, blended: BlendOrder): void {
  const gpuModel = item.gpuModel;
  if (hidesInstances(item) && item.hiddenInstances![i] === 1) return;
  const primitive = gpuModel.primitive(gpuModel.asset.meshInstances[i].mesh, p);
  if (materialOf(gpuModel, primitive)?.alphaMode === AlphaMode.Blend) {
    blended.push(i, p, distanceToEye(item, i, p, draw.camera.eye), blendQueueOf(gpuModel.asset, primitive.asset.material));
  } else draw.drawMeshPrimitive(item, i, p);
}

/**
 * The opaque pass: the OPAQUE and MASK primitives of `item` that are not in a rigid batch (`gpuModel.singles`), in
 * file order, with depth writes; BLEND ones are collected into `blended` for the blend pass. Blending must be off.
 */
export function drawOpaquePass(draw: PrimitiveDraw, item: RenderItem, blended: BlendOrder): void {
  const singles = item.gpuModel.singles;
  for (let k = 0; k < singles.length; k += 2) drawOrCollect(draw, item, singles[k], singles[k + 1], blended);
}

/** Whether `item` hides some of its mesh instances: `hiddenInstances` set, one entry per mesh instance. */
export function hidesInstances(item: RenderItem): boolean {
  const hidden = item.hiddenInstances;
  return hidden != null && hidden.length === item.gpuModel.asset.meshInstances.length;
}
