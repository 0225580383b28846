import type { BlendOrder } from './blend-order.ts';
import { drawOrCollect } from './opaque-pass.ts';
import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * The inspection pass, in place of the opaque and rigid-batch passes when `item.style` is set (the viewer's debug
 * views: weight heat map, influence count, wireframe, CPU-skinned vertices; src/gpu/debug/): every primitive of
 * every mesh instance on its own, so each node is coloured and outlined, batched or not; BLEND ones are collected
 * into `blended` for the blend pass.
 */
export function drawInspectionPass(draw: PrimitiveDraw, item: RenderItem, blended: BlendOrder): void {
  const asset = item.gpuModel.asset;
  const instances = asset.meshInstances;
  for (let i = 0; i < instances.length; i++) {
    const count = asset.meshes[instances[i].mesh].primitives.length;
    for (let p = 0; p < count; p++) drawOrCollect(draw, item, i, p, blended);
  }
}
