import { MATERIAL_TEXTURES, MaterialTextureIndex, writeUvTransform, type GpuMaterial, type GpuModel, type GpuPrimitive } from './gpu-model.ts';
import type { MaterialValues } from '../../avatar/material-values.ts';
import { AlphaMode } from '../shading/alpha-mode.ts';
import { writeDrivenMaterial, type DrivenMaterialUniforms } from '../shading/driven-material.ts';
import { SPECULAR_LEVELS, type ImageBasedLighting } from '../shading/image-based-lighting.ts';
import {
  BASE_COLOR_UNIT, BRDF_LUT_UNIT, DIFFUSE_ENVIRONMENT_UNIT, EMISSIVE_UNIT, METALLIC_ROUGHNESS_UNIT, NORMAL_UNIT, OCCLUSION_UNIT,
  SPECULAR_ENVIRONMENT_UNIT, type SkinningProgram,
} from './program-cache.ts';

/** Texture unit of each {@link MaterialTextureIndex}. */
const MATERIAL_UNITS = [BASE_COLOR_UNIT, METALLIC_ROUGHNESS_UNIT, NORMAL_UNIT, OCCLUSION_UNIT, EMISSIVE_UNIT];

/** A primitive whose material index is out of range draws with glTF's default material (§3.9.6). */
const FALLBACK_MATERIAL: GpuMaterial = {
  baseColorFactor: new Float32Array([1, 1, 1, 1]), image: -1, textures: new Int32Array(MATERIAL_TEXTURES).fill(-1),
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
 * out of range) and binds its five textures (white where a texture is absent or not decoded yet), for
 * `program`, which must be in use and chosen with `gpuModel.materialFeatures`. Allocates nothing.
 * @param driven an avatar's per-frame material values (`RenderItem.materialValues`) and the scratch to write
 *   them into: a material its expressions drive this frame takes its base colour, emissive and UV transforms
 *   from them (`writeDrivenMaterial`); null, or values made for another model's materials: the material as loaded
 * @returns the material, or null when the index is out of range
 */
export function bindMaterial(
  gl: WebGL2RenderingContext, program: SkinningProgram, gpuModel: GpuModel, primitive: GpuPrimitive,
  driven: { readonly values: MaterialValues | null; readonly scratch: DrivenMaterialUniforms } | null = null,
): GpuMaterial | null {
  const found = materialOf(gpuModel, primitive);
  const material = found ?? FALLBACK_MATERIAL;
  const materialIndex = primitive.asset.material;
  const values = driven?.values ?? null;
  if (found && values && values.materialCount === gpuModel.materials.length && values.driven[materialIndex] === 1) {
    const uniforms = writeDrivenMaterial(driven!.scratch, gpuModel.asset.materials[materialIndex], values, materialIndex);
    gl.uniform4fv(program.u_baseColorFactor, uniforms.baseColorFactor);
    gl.uniform3fv(program.u_emissive, uniforms.emissive);
    gl.uniformMatrix3fv(program.u_uvTransform, false, uniforms.uvTransforms);
  } else {
    gl.uniform4fv(program.u_baseColorFactor, material.baseColorFactor);
    gl.uniform3fv(program.u_emissive, material.emissive);
    gl.uniformMatrix3fv(program.u_uvTransform, false, material.uvTransforms);
  }
  gl.uniform1f(program.u_metallicFactor, material.metallicFactor);
  gl.uniform1f(program.u_roughnessFactor, material.roughnessFactor);
  gl.uniform1f(program.u_normalScale, material.normalScale);
  gl.uniform1f(program.u_occlusionStrength, material.occlusionStrength);
  gl.uniform1i(program.u_alphaMode, material.alphaMode);
  gl.uniform1f(program.u_alphaCutoff, material.alphaCutoff);
  gl.uniform1iv(program.u_uvSet, material.uvSets);
  gl.uniform1f(program.u_specularLevels, SPECULAR_LEVELS - 1);
  for (let t = 0; t < MATERIAL_TEXTURES; t++) {
    gl.activeTexture(gl.TEXTURE0 + MATERIAL_UNITS[t]);
    gl.bindTexture(gl.TEXTURE_2D, gpuModel.materialTexture(materialIndex, t as MaterialTextureIndex, primitive.hasUvs));
  }
  return found;
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
