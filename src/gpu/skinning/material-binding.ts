import { MATERIAL_TEXTURES, MaterialTextureIndex, writeUvTransform, type GpuMaterial, type GpuModel, type GpuPrimitive } from './gpu-model.ts';
import { GLTF_MATERIAL_TEXTURES, uvAnimationPhase } from '../shading/model-materials.ts';
import type { EnvironmentLight } from '../shading/environment-light.ts';
import type { MaterialValues } from '../../avatar/material-values.ts';
import { AlphaMode } from '../shading/alpha-mode.ts';
import { writeDrivenMaterial, type DrivenMaterialUniforms } from '../shading/driven-material.ts';
import { SPECULAR_LEVELS, type ImageBasedLighting } from '../shading/image-based-lighting.ts';
import {
  BASE_COLOR_UNIT, BRDF_LUT_UNIT, DIFFUSE_ENVIRONMENT_UNIT, EMISSIVE_UNIT, MATCAP_UNIT, METALLIC_ROUGHNESS_UNIT, NORMAL_UNIT, OCCLUSION_UNIT,
  OUTLINE_WIDTH_MULTIPLY_UNIT, RIM_MULTIPLY_UNIT, SHADE_MULTIPLY_UNIT, SHADING_SHIFT_UNIT, SPECULAR_ENVIRONMENT_UNIT, UV_ANIMATION_MASK_UNIT,
  type SkinningProgram,
} from './program-cache.ts';

/** Texture unit of each {@link MaterialTextureIndex}. */
const MATERIAL_UNITS = [
  BASE_COLOR_UNIT, METALLIC_ROUGHNESS_UNIT, NORMAL_UNIT, OCCLUSION_UNIT, EMISSIVE_UNIT,
  SHADE_MULTIPLY_UNIT, SHADING_SHIFT_UNIT, MATCAP_UNIT, RIM_MULTIPLY_UNIT, OUTLINE_WIDTH_MULTIPLY_UNIT, UV_ANIMATION_MASK_UNIT,
];

/**
 * What a draw loop hands {@link bindMaterial} per item: the avatar's per-frame material values and the scratch
 * to write them into, and the item's material time (`RenderItem.materialTime`, seconds) for MToon's UV animation.
 */
export interface MaterialDrawState {
  readonly values: MaterialValues | null;
  readonly scratch: DrivenMaterialUniforms;
  /** Seconds; absent: 0. */
  readonly time?: number;
}

/** A primitive whose material index is out of range draws with glTF's default material (§3.9.6). */
const FALLBACK_MATERIAL: GpuMaterial = {
  mtoon: null, baseColorFactor: new Float32Array([1, 1, 1, 1]), image: -1, textures: new Int32Array(MATERIAL_TEXTURES).fill(-1),
  uvSets: new Int32Array(MATERIAL_TEXTURES), uvTransforms: identityTransforms(), metallicFactor: 1, roughnessFactor: 1,
  normalScale: 1, occlusionStrength: 1, emissive: new Float32Array(3), alphaMode: AlphaMode.Opaque, alphaCutoff: 0.5, unlit: false, doubleSided: false,
};

function identityTransforms(): Float32Array {
  const out = new Float32Array(9 * MATERIAL_TEXTURES);
  for (let t = 0; t < MATERIAL_TEXTURES; t++) writeUvTransform(out, 9 * t, undefined);
  return out;
}

/** The material a primitive is drawn with, or null when its index is out of range. */
export function materialOf(gpuModel: GpuModel, primitive: GpuPrimitive): GpuMaterial | null {
  const index = primitive.asset.material;
  return index >= 0 && index < gpuModel.materials.length ? gpuModel.materials[index] : null;
}

/**
 * Sets lit.frag's material uniforms for `primitive` (its material, or glTF's default material when the index is
 * out of range) and binds its textures (white where a texture is absent or not decoded yet): the glTF five, and
 * for an MToon material its uniforms (shaders/mtoon.glsl) and six more textures. `program` must be in use and
 * chosen with `gpuModel.materialFeatures`. Allocates nothing.
 * @param driven an avatar's per-frame material values (`RenderItem.materialValues`) and the scratch to write
 *   them into: a material its expressions drive this frame takes its base colour, emissive, MToon colours and UV
 *   transforms from them (`writeDrivenMaterial`); null, or values made for another model's materials: the
 *   material as loaded. Its `time` (seconds) drives MToon's UV animation.
 * @returns the material, or null when the index is out of range
 */
export function bindMaterial(
  gl: WebGL2RenderingContext, program: SkinningProgram, gpuModel: GpuModel, primitive: GpuPrimitive,
  driven: MaterialDrawState | null = null,
): GpuMaterial | null {
  const found = materialOf(gpuModel, primitive);
  const material = found ?? FALLBACK_MATERIAL;
  const materialIndex = primitive.asset.material;
  const values = driven?.values ?? null;
  // A PBR material uploads and binds the glTF five only: its cost is what it was before MToon.
  const textures = material.mtoon ? MATERIAL_TEXTURES : GLTF_MATERIAL_TEXTURES;
  if (found && values && values.materialCount === gpuModel.materials.length && values.driven[materialIndex] === 1) {
    const uniforms = writeDrivenMaterial(driven!.scratch, gpuModel.asset.materials[materialIndex], values, materialIndex);
    gl.uniform4fv(program.u_baseColorFactor, uniforms.baseColorFactor);
    gl.uniform3fv(program.u_emissive, uniforms.emissive);
    gl.uniformMatrix3fv(program.u_uvTransform, false, uniforms.uvTransforms, 0, 9 * textures);
    if (material.mtoon) bindMToon(gl, program, material, driven!.time ?? 0, uniforms);
  } else {
    gl.uniform4fv(program.u_baseColorFactor, material.baseColorFactor);
    gl.uniform3fv(program.u_emissive, material.emissive);
    gl.uniformMatrix3fv(program.u_uvTransform, false, material.uvTransforms, 0, 9 * textures);
    if (material.mtoon) bindMToon(gl, program, material, driven?.time ?? 0, null);
  }
  gl.uniform1f(program.u_metallicFactor, material.metallicFactor);
  gl.uniform1f(program.u_roughnessFactor, material.roughnessFactor);
  gl.uniform1f(program.u_normalScale, material.normalScale);
  gl.uniform1f(program.u_occlusionStrength, material.occlusionStrength);
  gl.uniform1i(program.u_alphaMode, material.alphaMode);
  gl.uniform1f(program.u_alphaCutoff, material.alphaCutoff);
  gl.uniform1iv(program.u_uvSet, material.uvSets, 0, textures);
  gl.uniform1f(program.u_specularLevels, SPECULAR_LEVELS - 1);
  for (let t = 0; t < textures; t++) {
    gl.activeTexture(gl.TEXTURE0 + MATERIAL_UNITS[t]);
    // The matcap is looked up by the normal: bound with or without texture coordinates.
    const hasUvs = primitive.hasUvs || t === MaterialTextureIndex.Matcap;
    gl.bindTexture(gl.TEXTURE_2D, gpuModel.materialTexture(materialIndex, t as MaterialTextureIndex, hasUvs));
  }
  return found;
}

/**
 * Sets an MToon material's uniforms (shaders/mtoon.glsl): its factors, the colours expressions drive (`driven`,
 * else the material's), and `u_uvAnimation` at `time` seconds. The outline's width uniforms (skinned.vert) are the
 * outline pass's (src/gpu/passes/outline-material.ts).
 */
function bindMToon(gl: WebGL2RenderingContext, program: SkinningProgram, material: GpuMaterial, time: number, driven: DrivenMaterialUniforms | null): void {
  const mtoon = material.mtoon!;
  gl.uniform3fv(program.u_shadeColorFactor, driven ? driven.shadeColorFactor : mtoon.shadeColorFactor);
  gl.uniform1f(program.u_shadingShiftFactor, mtoon.shadingShiftFactor);
  gl.uniform1f(program.u_shadingShiftTextureScale, mtoon.shadingShiftTextureScale);
  gl.uniform1f(program.u_shadingToonyFactor, mtoon.shadingToonyFactor);
  gl.uniform1f(program.u_giEqualizationFactor, mtoon.giEqualizationFactor);
  gl.uniform3fv(program.u_matcapFactor, driven ? driven.matcapFactor : mtoon.matcapFactor);
  gl.uniform3fv(program.u_parametricRimColorFactor, driven ? driven.parametricRimColorFactor : mtoon.parametricRimColorFactor);
  gl.uniform1f(program.u_parametricRimFresnelPowerFactor, mtoon.parametricRimFresnelPowerFactor);
  gl.uniform1f(program.u_parametricRimLiftFactor, mtoon.parametricRimLiftFactor);
  gl.uniform1f(program.u_rimLightingMixFactor, mtoon.rimLightingMixFactor);
  gl.uniform3fv(program.u_outlineColorFactor, driven ? driven.outlineColorFactor : mtoon.outlineColorFactor);
  gl.uniform1f(program.u_outlineLightingMixFactor, mtoon.outlineLightingMixFactor);
  gl.uniform1i(program.u_v0CompatShade, mtoon.v0CompatShade ? 1 : 0);
  gl.uniform3f(program.u_uvAnimation, uvAnimationPhase(mtoon.uvAnimationScrollXSpeed, time, 1),
    uvAnimationPhase(mtoon.uvAnimationScrollYSpeed, time, 1), uvAnimationPhase(mtoon.uvAnimationRotationSpeed, time, 2 * Math.PI));
}

/**
 * Sets `program`'s (in use) key light and ambient SH uniforms from an environment's {@link EnvironmentLight}:
 * for MToon variants, once per program switch (a program's uniforms persist); a no-op for the others (their
 * locations are null).
 */
export function bindEnvironmentLight(gl: WebGL2RenderingContext, program: SkinningProgram, light: EnvironmentLight): void {
  if (!program.u_keyLightDirection && !program.u_ambientSh) return;
  gl.uniform3fv(program.u_keyLightDirection, light.direction);
  gl.uniform3fv(program.u_keyLightColor, light.color);
  gl.uniform3fv(program.u_ambientSh, light.ambient);
}

/** Binds the image-based lighting's textures to their units. */
export function bindEnvironment(gl: WebGL2RenderingContext, environment: ImageBasedLighting): void {
  gl.activeTexture(gl.TEXTURE0 + SPECULAR_ENVIRONMENT_UNIT);
  gl.bindTexture(gl.TEXTURE_CUBE_MAP, environment.specular);
  gl.activeTexture(gl.TEXTURE0 + DIFFUSE_ENVIRONMENT_UNIT);
  gl.bindTexture(gl.TEXTURE_CUBE_MAP, environment.diffuse);
  gl.activeTexture(gl.TEXTURE0 + BRDF_LUT_UNIT);
  gl.bindTexture(gl.TEXTURE_2D, environment.brdfLut);
}

/**
 * Blending and depth writes: `blend` (a BLEND material, glTF 2.0 §3.9.4) composites non-premultiplied colour
 * over what is behind (alpha accumulates as a + (1 − a)·dst) without writing depth; otherwise opaque with
 * depth writes.
 */
export function setAlphaState(gl: WebGL2RenderingContext, blend: boolean): void {
  if (blend) {
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
  } else {
    gl.disable(gl.BLEND);
    gl.depthMask(true);
  }
}
