import { setAlphaState } from '../skinning/material-binding.ts';
import { writesDepthWhenBlended, type BlendOrder } from './blend-order.ts';
import { hasOutline } from './outline-pass.ts';
import type { PrimitiveDraw } from './primitive-draw.ts';
import type { RenderItem } from './render-item.ts';

/**
 * The blend pass (glTF 2.0 §3.9.4 BLEND): the primitives the opaque or inspection pass collected into `blended`,
 * composited over what is behind, by render queue then farthest first ({@link BlendOrder}), testing depth without
 * writing it — except MToon's `transparentWithZWrite`, which writes it (VRMC_materials_mtoon-1.0 README "Render
 * Mode"); the blend state is off again afterwards. A primitive with an MToon outline draws it right after its surface,
 * blended the same way (three-vrm's outline material is a clone of the surface's, transparency and depth writes
 * included, drawn after it in the same place of the order), when `outlines` (not under an inspection view). Nothing when
 * none were collected.
 */
export function drawBlendPass(draw: PrimitiveDraw, item: RenderItem, blended: BlendOrder, outlines: boolean): void {
  if (blended.count === 0) return;
  const gl = draw.gl;
  blended.sort();
  setAlphaState(gl, true);
  const asset = item.gpuModel.asset;
  for (let k = 0; k < blended.count; k++) {
    const e = blended.order[k];
    const i = blended.instance[e], p = blended.primitive[e];
    const primitive = item.gpuModel.primitive(asset.meshInstances[i].mesh, p);
    gl.depthMask(writesDepthWhenBlended(asset, primitive.asset.material));
    draw.drawMeshPrimitive(item, i, p);
    if (outlines && hasOutline(item, primitive)) draw.drawMeshOutline(item, i, p);
  }
  setAlphaState(gl, false);
}
