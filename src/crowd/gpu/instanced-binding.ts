import { ATTRIBUTE_LOCATIONS, type GpuPrimitive } from '../../gpu/skinning/gpu-model.ts';
import { MORPH_DELTAS_UNIT, OVERFLOW_UNIT, type ProgramCache, type SkinningProgram } from '../../gpu/skinning/program-cache.ts';
import type { ShaderVariant } from '../../gpu/skinning/shader-variant.ts';
import { outlineFeatures } from '../../gpu/passes/outline-material.ts';
import { DEFAULT_SKINNING_METHOD } from '../../skinning/skinning-method.ts';
import type { CrowdItem } from './crowd-item.ts';
import { skinnedBlockTexels } from './instance-draw.ts';

/** Where instanced programs come from: a program cache and the caller's scratch variant (a pass, a capture). */
export interface ProgramSource {
  readonly programs: ProgramCache;
  readonly variant: ShaderVariant;
}

/**
 * The instanced program for primitive `primitive` of mesh instance `instance` (index into
 * `item.gpuModel.asset.meshInstances`), or null when crowds do not draw it (a skinned mesh's primitive without
 * joints). A skinned primitive blends with `blocks.method`; a rigid one is the LBS variant skinned to one
 * entry, its node's matrix (see {@link bindInstancedPrimitive}); with morph targets, the `MORPH_TARGETS` variant.
 * @param source the programs, and the caller's reused scratch variant, overwritten with the primitive's (no allocation)
 * @param outline the `MTOON_OUTLINE` variant drawing the primitive's MToon outline (src/gpu/passes/outline-pass.ts)
 */
export function instancedProgram(
  source: ProgramSource, item: CrowdItem, instance: number, primitive: GpuPrimitive, transformFeedback: boolean, outline = false,
): SkinningProgram | null {
  const { gpuModel, blocks } = item;
  const variant = source.variant;
  const rigid = gpuModel.asset.meshInstances[instance].skin < 0;
  if (!rigid && !primitive.skinned) return null;
  const method = rigid ? DEFAULT_SKINNING_METHOD : blocks.method;
  variant.skinned = true;
  variant.palettePath = 'texture';
  variant.jointCapacity = 0;
  variant.transformFeedback = transformFeedback;
  variant.skinning = method.skinning;
  variant.weights = method.weights;
  variant.influences = rigid ? 4 : primitive.influences;
  variant.instanced = true;
  variant.morphTargets = primitive.morphDeltas !== null && blocks.morphOffsets[instance] >= 0;
  const features = transformFeedback ? 0 : gpuModel.materialFeatures(primitive.asset.material, primitive);
  variant.features = outline ? features | outlineFeatures(gpuModel, primitive) : features;
  variant.weightView = false;
  return source.programs.get(variant);
}

/**
 * Sets the instanced uniforms of `program` (in use) for primitive `primitive` of mesh instance `instance`:
 * block size, the entry in the pose (its skin's palette, or its rigid node's matrix),
 * its morph weights and deltas (morph targets: every target's weight from the pose, docs/explanation/skinning-formulas.md
 * M0) and `u_instanceBase` = 0; binds the overflow texture. A rigid primitive has no joint attributes: the generic
 * attributes stand in, joint 0 (its node's entry) with weight 1, so the shader's blend is that matrix.
 * Allocates nothing.
 */
export function bindInstancedPrimitive(
  gl: WebGL2RenderingContext, program: SkinningProgram, item: CrowdItem, instance: number, primitive: GpuPrimitive,
): void {
  const { gpuModel, blocks } = item;
  const meshInstance = gpuModel.asset.meshInstances[instance];
  // Baked blocks are blended into the live layout first (GpuInstances.upload): the live offsets hold for both.
  gl.uniform1i(program.u_blockTexels, skinnedBlockTexels(blocks));
  gl.uniform1i(program.u_instanceBase, 0);
  const morphOffset = blocks.morphOffsets[instance];
  if (primitive.morphDeltas && morphOffset >= 0) {
    gl.activeTexture(gl.TEXTURE0 + MORPH_DELTAS_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, primitive.morphDeltas);
    gl.uniform1i(program.u_morphWeights, morphOffset);
    gl.uniform1i(program.u_morphActiveCount, gpuModel.asset.meshes[meshInstance.mesh].morphTargetCount ?? 0);
    gl.uniform4iv(program.u_morphLayout, primitive.morphLayout!);
  }
  if (meshInstance.skin < 0) {
    gl.uniform1i(program.u_skinOffset, blocks.rigidOffsets[instance]);
    gl.vertexAttribI4ui(ATTRIBUTE_LOCATIONS.a_joints, 0, 0, 0, 0);
    gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_weights, 1, 0, 0, 0);
    return;
  }
  gl.uniform1i(program.u_skinOffset, blocks.skinOffsets[meshInstance.skin]);
  if (primitive.overflowTexture) {
    gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, primitive.overflowTexture);
  }
}
