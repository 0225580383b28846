import type { MaterialTexture } from './material-texture.ts';

/**
 * How an MToon material's outline width is measured (VRMC_materials_mtoon-1.0 README, "Outline Width"): `none`
 * draws no outline; `worldCoordinates` offsets each skinned vertex along its skinned normal by
 * `outlineWidthFactor` metres; `screenCoordinates` makes the width a fixed share of the screen's height, whatever
 * the distance to the camera.
 */
export type OutlineWidthMode = 'none' | 'worldCoordinates' | 'screenCoordinates';

/**
 * An MToon toon material (VRMC_materials_mtoon 1.0; VRM 0.x `materialProperties` MToon converted to it at load,
 * as three-vrm's v0compat does) as Sinew shades it: what {@link MaterialAsset.mtoon} holds beside the glTF material
 * it extends. The glTF material keeps giving what MToon reuses: the lit colour (`baseColorFactor` and texture), the
 * alpha mode and cutoff, `doubleSided`, the emission (`emissiveFactor`, texture, strength) and the normal map.
 * With `mtoon` present, `KHR_materials_unlit` is ignored (the extension's "Interaction with KHR_materials_unlit").
 *
 * Colours are linear RGB in [0, 1] (textures marked sRGB are decoded to linear when sampled); factors without a
 * unit are plain numbers. Every field is set by the loader, with the specification's default where the file left
 * it out. Each texture carries its own texture coordinate set and KHR_texture_transform; the UV animation applies
 * before that transform (README "Compatibility with KHR_texture_transform").
 */
export interface MToonMaterialAsset {
  /** BLEND only: write depth while blending (README "transparentWithZWrite") [false]. */
  readonly transparentWithZWrite: boolean;
  /**
   * Draw order offset among BLEND materials, an integer: in [0, 9] with `transparentWithZWrite`, in [−9, 0]
   * without (README "Render Queue"); 0 for OPAQUE and MASK [0].
   */
  readonly renderQueueOffsetNumber: number;

  /** Shade colour, linear RGB [0, 0, 0]. */
  readonly shadeColorFactor: readonly [number, number, number];
  /** Multiplies the shade colour (sRGB, RGB) [none]. */
  readonly shadeMultiplyTexture?: MaterialTexture;
  /** Added to n·l before the toony ramp [0]. */
  readonly shadingShiftFactor: number;
  /** R channel (linear) times {@link shadingShiftTextureScale}, added to the shift [none]. */
  readonly shadingShiftTexture?: MaterialTexture;
  /** `shadingShiftTexture.scale` [1]. */
  readonly shadingShiftTextureScale: number;
  /** Width of the lit–shade boundary: the ramp is linearstep(−1 + toony, 1 − toony, shading), in [0, 1] [0.9]. */
  readonly shadingToonyFactor: number;
  /** gi(n) = lerp(rawGi(n), (rawGi(up) + rawGi(down)) / 2, giEqualizationFactor), in [0, 1] [0.9]. */
  readonly giEqualizationFactor: number;

  /** Multiplies the matcap texture, linear RGB [1, 1, 1] (README "matcapFactor"). */
  readonly matcapFactor: readonly [number, number, number];
  /** Matcap (sRGB, RGB), sampled by the view-space normal [none]. */
  readonly matcapTexture?: MaterialTexture;
  /** Parametric rim colour, linear RGB [0, 0, 0]. */
  readonly parametricRimColorFactor: readonly [number, number, number];
  /** Rim exponent: pow(saturate(1 − n·v + lift), max(power, 1e-5)) [5]. */
  readonly parametricRimFresnelPowerFactor: number;
  /** Rim lift [0]. */
  readonly parametricRimLiftFactor: number;
  /** Multiplies the rim (matcap + parametric) (sRGB, RGB) [none]. */
  readonly rimMultiplyTexture?: MaterialTexture;
  /** rim × lerp(1, lighting, rimLightingMixFactor), in [0, 1] [1]. */
  readonly rimLightingMixFactor: number;

  readonly outlineWidthMode: OutlineWidthMode;
  /** Metres (`worldCoordinates`) or a share of the screen height (`screenCoordinates`), ≥ 0 [0]. */
  readonly outlineWidthFactor: number;
  /** G channel (linear) multiplies the width [none: constant width]. */
  readonly outlineWidthMultiplyTexture?: MaterialTexture;
  /** Outline colour, linear RGB [0, 0, 0]. */
  readonly outlineColorFactor: readonly [number, number, number];
  /** outlineColor × lerp(1, surface shading result, outlineLightingMixFactor), in [0, 1] [1]. */
  readonly outlineLightingMixFactor: number;

  /** B channel (linear) multiplies the UV animation's speeds [none]. */
  readonly uvAnimationMaskTexture?: MaterialTexture;
  /** UV units per second along u [0]. */
  readonly uvAnimationScrollXSpeedFactor: number;
  /** UV units per second along v [0]. */
  readonly uvAnimationScrollYSpeedFactor: number;
  /** Radians per second about (0.5, 0.5), KHR_texture_transform's direction [0]. */
  readonly uvAnimationRotationSpeedFactor: number;

  /**
   * Converted from VRM 0.x: the lit result is clamped to the lit colour (three-vrm's `V0_COMPAT_SHADE`, "the
   * comment out if you want to PBR absolutely line" of 0.x MToon) [false].
   */
  readonly v0CompatShade?: boolean;
}
