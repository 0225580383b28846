import { setAlphaState } from '../skinning/material-binding.ts';
import type { BlendOrder } from './blend-order.ts';
import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * The blend pass (glTF 2.0 §3.9.4 BLEND): the primitives the opaque or inspection pass collected into `blended`,
 * composited over what is behind, farthest first (by the primitive's bounding-box centre, {@link BlendOrder}),
 * testing depth without writing it; the blend state is off again afterwards. Nothing when none were collected.
 */
export function drawBlendPass(draw: PrimitiveDraw, item: RenderItem, blended: BlendOrder): void {
  if (blended.count === 0) return;
  const gl = draw.gl;
  blended.sort();
  setAlphaState(gl, true);
  for (let k = 0; k < blended.count; k++) {
    const e = blended.order[k];
    draw.drawMeshPrimitive(item, blended.instance[e], blended.primitive[e]);
  }
  setAlphaState(gl, false);
}
