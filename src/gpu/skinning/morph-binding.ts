import type { GpuModel, GpuPrimitive } from './gpu-model.ts';
import { MORPH_ACTIVE_UNIT, MORPH_DELTAS_UNIT, type SkinningProgram } from './program-cache.ts';

/**
 * Binds what a `MORPH_TARGETS` program reads for one primitive (shaders/skinned.vert, layouts in
 * morph-texture.ts): the primitive's deltas texture, the model's active (target, weight) list — already
 * uploaded for the instance being drawn — and the uniforms `u_morphActiveCount` = `active` and
 * `u_morphLayout`. Does nothing when `active` is 0 (the program is then the variant without morph targets).
 * Leaves `MORPH_ACTIVE_UNIT` as the active texture unit. Allocates nothing.
 */
export function bindMorphTargets(
  gl: WebGL2RenderingContext, gpuModel: GpuModel, primitive: GpuPrimitive, program: SkinningProgram, active: number,
): void {
  if (active === 0) return;
  gl.activeTexture(gl.TEXTURE0 + MORPH_DELTAS_UNIT);
  gl.bindTexture(gl.TEXTURE_2D, primitive.morphDeltas);
  gl.activeTexture(gl.TEXTURE0 + MORPH_ACTIVE_UNIT);
  gl.bindTexture(gl.TEXTURE_2D, gpuModel.morphActive!.texture);
  gl.uniform1i(program.u_morphActiveCount, active);
  gl.uniform4iv(program.u_morphLayout, primitive.morphLayout!);
}
