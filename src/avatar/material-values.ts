import type { MaterialColorTarget } from '../asset/avatar-asset.ts';
import type { MaterialAsset } from '../asset/model-asset.ts';

/**
 * The colour targets of an expression's material colour binds, in the order of {@link MaterialValues.colors}
 * (VRMC_vrm-1.0 `expressions.md` "MaterialColorBind").
 */
export const MATERIAL_COLOR_TARGETS: readonly MaterialColorTarget[] = ['color', 'emissionColor', 'shadeColor', 'matcapColor', 'rimColor', 'outlineColor'];
/** Floats per material in {@link MaterialValues.colors}: 4 (RGBA) per {@link MATERIAL_COLOR_TARGETS} entry. */
export const COLOR_FLOATS_PER_MATERIAL = 4 * 6;
/** Floats per material in {@link MaterialValues.textureTransforms}: W, Σw·scale (2), Σw·offset (2). */
export const TEXTURE_TRANSFORM_FLOATS = 5;

const SHADE = 2, MATCAP = 3, RIM = 4, OUTLINE = 5;

/** Index of a colour target in {@link MATERIAL_COLOR_TARGETS}. */
export function colorTargetIndex(type: MaterialColorTarget): number {
  return MATERIAL_COLOR_TARGETS.indexOf(type);
}

/**
 * The per-frame material values a model's expressions drive, per material of `ModelAsset.materials`, which the
 * draw reads as uniforms (no shader changes): the colours of the material colour binds and the sums of the
 * texture transform binds. Caller-owned, one per avatar instance (`AvatarController.materialValues`), written
 * each frame by `applyExpressions`; made once, allocates nothing after.
 *
 * Colours lerp from the material's base value by each bind's weight, summed as the specification's update
 * algorithm and three-vrm do: `base + Σ (targetᵢ − base)·wᵢ` (VRMC_vrm-1.0 `expressions.md` "MaterialColor").
 * The bases are the material's `baseColorFactor` (`color`) and `emissiveFactor` (`emissionColor`, before
 * `KHR_materials_emissive_strength`, alpha 1), and of an MToon material (`MaterialAsset.mtoon`) its
 * `shadeColorFactor` (`shadeColor`), `matcapFactor` (`matcapColor`), `parametricRimColorFactor` (`rimColor`) and
 * `outlineColorFactor` (`outlineColor`), alpha 1: the properties three-vrm's VRMExpressionMaterialColorBind drives
 * on an MToon material. A material without MToon has base (0, 0, 0, 1) for those four (no uniform reads them).
 */
export class MaterialValues {
  readonly materialCount: number;
  /**
   * `Float32Array(24·materialCount)`: linear RGBA per material m and colour target k ({@link MATERIAL_COLOR_TARGETS}
   * order) at `24m + 4k`, as of the last frame.
   */
  readonly colors: Float32Array;
  /** `Float32Array(24·materialCount)`: the base values, same layout (what {@link reset} restores). */
  readonly baseColors: Float32Array;
  /**
   * `Float32Array(5·materialCount)`: per material m at `5m`, the texture transform binds' total weight W, then
   * Σ wᵢ·scaleᵢ (u, v) and Σ wᵢ·offsetᵢ (u, v). Each of the material's textures then samples with
   * `scale = scale₀·(1 − W) + Σ wᵢ·scaleᵢ` and likewise the offset, from its own KHR_texture_transform
   * scale₀ / offset₀ (rotation kept): three-vrm's `initial + Σ (targetᵢ − initial)·wᵢ` on every texture of the
   * material, the specification's "all UV-accessed textures use the same value" at W = 1.
   */
  readonly textureTransforms: Float32Array;
  /** `Uint8Array(materialCount)`: 1 for a material an expression drove in the last frame, else 0 (drawn as it is). */
  readonly driven: Uint8Array;

  constructor(materials: readonly MaterialAsset[]) {
    const n = materials.length;
    this.materialCount = n;
    this.baseColors = new Float32Array(COLOR_FLOATS_PER_MATERIAL * n);
    for (let m = 0; m < n; m++) {
      const o = COLOR_FLOATS_PER_MATERIAL * m, material = materials[m];
      this.baseColors.set(material.baseColorFactor, o);
      const e = material.emissiveFactor ?? [0, 0, 0];
      this.baseColors[o + 4] = e[0]; this.baseColors[o + 5] = e[1]; this.baseColors[o + 6] = e[2]; this.baseColors[o + 7] = 1;
      for (let k = 2; k < MATERIAL_COLOR_TARGETS.length; k++) this.baseColors[o + 4 * k + 3] = 1;
      const mtoon = material.mtoon;
      if (mtoon) {
        this.baseColors.set(mtoon.shadeColorFactor, o + 4 * SHADE);
        this.baseColors.set(mtoon.matcapFactor, o + 4 * MATCAP);
        this.baseColors.set(mtoon.parametricRimColorFactor, o + 4 * RIM);
        this.baseColors.set(mtoon.outlineColorFactor, o + 4 * OUTLINE);
      }
    }
    this.colors = this.baseColors.slice();
    this.textureTransforms = new Float32Array(TEXTURE_TRANSFORM_FLOATS * n);
    this.driven = new Uint8Array(n);
  }

  /** Back to the bases: colours restored, texture transform sums 0, nothing driven. Allocates nothing. */
  reset(): void {
    this.colors.set(this.baseColors);
    this.textureTransforms.fill(0);
    this.driven.fill(0);
  }
}
