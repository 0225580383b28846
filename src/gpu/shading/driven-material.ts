import type { MaterialAsset } from '../../asset/model-asset.ts';
import type { TextureCoordinates } from '../../asset/material-texture.ts';
import { COLOR_FLOATS_PER_MATERIAL, TEXTURE_TRANSFORM_FLOATS, type MaterialValues } from '../../avatar/material-values.ts';
import { MATERIAL_TEXTURES, MaterialTextureIndex, writeUvMatrix, writeUvTransform } from './model-materials.ts';

/**
 * lit.frag's material uniforms that expressions drive, for one material this frame: caller-owned scratch
 * (one per draw loop), rewritten per driven material by {@link writeDrivenMaterial}.
 */
export interface DrivenMaterialUniforms {
  /** `Float32Array(4)`: `u_baseColorFactor`, linear RGBA. */
  readonly baseColorFactor: Float32Array;
  /** `Float32Array(3)`: `u_emissive`, emissive factor × emissive strength, linear. */
  readonly emissive: Float32Array;
  /** `Float32Array(99)`: `u_uvTransform`, eleven column-major 3×3 matrices ({@link MaterialTextureIndex} order). */
  readonly uvTransforms: Float32Array;
  /** MToon's colours (`Float32Array(3)` each, linear RGB): `u_shadeColorFactor`, `u_matcapFactor`, `u_parametricRimColorFactor`, `u_outlineColorFactor`. */
  readonly shadeColorFactor: Float32Array;
  readonly matcapFactor: Float32Array;
  readonly parametricRimColorFactor: Float32Array;
  readonly outlineColorFactor: Float32Array;
}

/** Allocates the scratch of {@link writeDrivenMaterial}: make one per renderer, not per frame. */
export function createDrivenMaterialUniforms(): DrivenMaterialUniforms {
  return {
    baseColorFactor: new Float32Array(4), emissive: new Float32Array(3), uvTransforms: new Float32Array(9 * MATERIAL_TEXTURES),
    shadeColorFactor: new Float32Array(3), matcapFactor: new Float32Array(3), parametricRimColorFactor: new Float32Array(3), outlineColorFactor: new Float32Array(3),
  };
}

/**
 * Writes material `m`'s uniforms as the avatar's expressions drive them this frame (`MaterialValues`, written by
 * `applyExpressions`): the base colour factor is `values`' `color`, the emissive its `emissionColor` times the
 * material's `KHR_materials_emissive_strength`, MToon's shade, matcap, rim and outline colours its `shadeColor`,
 * `matcapColor`, `rimColor`, `outlineColor` (RGB), and each texture's KHR_texture_transform has its scale and offset
 * moved by the texture transform binds — `scale₀·(1 − W) + Σ wᵢ·scaleᵢ` (likewise the offset), rotation kept,
 * on every texture of the material sampled by texture coordinates, MToon's too but not the matcap (sampled by
 * the normal) (VRMC_vrm-1.0 `expressions.md` "TextureTransformBind"; three-vrm's
 * `initial + Σ (targetᵢ − initial)·wᵢ`). The draw sets them as uniforms: no shader changes. Allocates nothing.
 * @returns `out`
 */
export function writeDrivenMaterial(out: DrivenMaterialUniforms, material: MaterialAsset, values: MaterialValues, m: number): DrivenMaterialUniforms {
  const colors = values.colors, c = COLOR_FLOATS_PER_MATERIAL * m;
  out.baseColorFactor[0] = colors[c]; out.baseColorFactor[1] = colors[c + 1];
  out.baseColorFactor[2] = colors[c + 2]; out.baseColorFactor[3] = colors[c + 3];
  const strength = material.emissiveStrength ?? 1;
  out.emissive[0] = colors[c + 4] * strength; out.emissive[1] = colors[c + 5] * strength; out.emissive[2] = colors[c + 6] * strength;
  const t = values.textureTransforms, o = TEXTURE_TRANSFORM_FLOATS * m;
  const w = t[o], keep = 1 - w;
  writeTexture(out.uvTransforms, MaterialTextureIndex.BaseColor, material.baseColorUv, keep, t, o);
  writeTexture(out.uvTransforms, MaterialTextureIndex.MetallicRoughness, material.metallicRoughnessTexture, keep, t, o);
  writeTexture(out.uvTransforms, MaterialTextureIndex.Normal, material.normalTexture, keep, t, o);
  writeTexture(out.uvTransforms, MaterialTextureIndex.Occlusion, material.occlusionTexture, keep, t, o);
  writeTexture(out.uvTransforms, MaterialTextureIndex.Emissive, material.emissiveTexture, keep, t, o);
  const mtoon = material.mtoon;
  if (mtoon) {
    copyRgb(out.shadeColorFactor, colors, c + 8);
    copyRgb(out.matcapFactor, colors, c + 12);
    copyRgb(out.parametricRimColorFactor, colors, c + 16);
    copyRgb(out.outlineColorFactor, colors, c + 20);
    writeTexture(out.uvTransforms, MaterialTextureIndex.ShadeMultiply, mtoon.shadeMultiplyTexture, keep, t, o);
    writeTexture(out.uvTransforms, MaterialTextureIndex.ShadingShift, mtoon.shadingShiftTexture, keep, t, o);
    writeUvTransform(out.uvTransforms, 9 * MaterialTextureIndex.Matcap, mtoon.matcapTexture);
    writeTexture(out.uvTransforms, MaterialTextureIndex.RimMultiply, mtoon.rimMultiplyTexture, keep, t, o);
    writeTexture(out.uvTransforms, MaterialTextureIndex.OutlineWidthMultiply, mtoon.outlineWidthMultiplyTexture, keep, t, o);
    writeTexture(out.uvTransforms, MaterialTextureIndex.UvAnimationMask, mtoon.uvAnimationMaskTexture, keep, t, o);
  }
  return out;
}

function copyRgb(out: Float32Array, colors: Float32Array, o: number): void {
  out[0] = colors[o]; out[1] = colors[o + 1]; out[2] = colors[o + 2];
}

/** One texture's matrix: its own transform's scale and offset kept by `keep` = 1 − W, plus the binds' weighted sums at `t[o + 1…o + 5)`. */
function writeTexture(out: Float32Array, which: MaterialTextureIndex, uv: TextureCoordinates | undefined, keep: number, t: Float32Array, o: number): void {
  const transform = uv?.transform;
  const sx = transform ? transform.scale[0] : 1, sy = transform ? transform.scale[1] : 1;
  const ox = transform ? transform.offset[0] : 0, oy = transform ? transform.offset[1] : 0;
  writeUvMatrix(out, 9 * which, ox * keep + t[o + 3], oy * keep + t[o + 4], transform ? transform.rotation : 0, sx * keep + t[o + 1], sy * keep + t[o + 2]);
}
