import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * The rigid-batch pass: one draw per static rigid batch merged at upload (`gpuModel.rigidBatches`,
 * src/gpu/skinning/rigid-batches.ts: same anchor node, material and vertex layout, never BLEND), placed by
 * `displayMatrix · pose.modelMatrices[anchor]`. Drawn with the opaque pass, before the blend pass.
 */
export function drawRigidBatchPass(draw: PrimitiveDraw, item: RenderItem): void {
  const batches = item.gpuModel.rigidBatches;
  for (let b = 0; b < batches.length; b++) draw.drawRigidBatch(item, b);
}
