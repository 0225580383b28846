import type { MToonMaterialAsset } from '../../asset/mtoon-material-asset.ts';
import type { AvatarMaterialName } from './avatar-geometry.ts';
import type { AvatarMToonImageName } from './avatar-mtoon-textures.ts';

/** The toon avatar's materials: the PBR avatar's six and `Bracer` (the bracers, which use `Mouth` in the PBR avatar). */
export type AvatarToonMaterialName = AvatarMaterialName | 'Bracer';

/** The MToon texture slots (VRMC_materials_mtoon 1.0 property names). */
export type AvatarMToonTextureSlot =
  | 'shadeMultiplyTexture' | 'shadingShiftTexture' | 'matcapTexture' | 'rimMultiplyTexture'
  | 'outlineWidthMultiplyTexture' | 'uvAnimationMaskTexture';

/** The MToon numbers of a material: {@link MToonMaterialAsset} without its textures (named apart, by image). */
export type AvatarMToonFactors = Omit<MToonMaterialAsset, AvatarMToonTextureSlot | 'v0CompatShade'>;

/**
 * One material of the toon avatar, independent of the VRM version the writers put it in: the glTF part MToon
 * reuses (lit colour, alpha, emission, normal map) and the MToon part.
 */
export interface AvatarToonMaterial {
  /** Lit colour (glTF `baseColorFactor`), linear RGBA. */
  readonly color: readonly [number, number, number, number];
  readonly alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  /** MASK only: glTF `alphaCutoff`. */
  readonly alphaCutoff?: number;
  readonly doubleSided: boolean;
  /** glTF `emissiveFactor`, linear RGB; absent: black. */
  readonly emissive?: readonly [number, number, number];
  /** Images of the glTF slots MToon reuses. */
  readonly baseColorImage?: AvatarMToonImageName;
  readonly emissiveImage?: AvatarMToonImageName;
  readonly normalImage?: AvatarMToonImageName;
  /**
   * KHR_texture_transform on every texture of the material but the matcap (which is sampled by the view-space
   * normal, not the UVs): what a VRM 0.x `_MainTex` tiling and offset converts to, so both versions agree.
   */
  readonly textureTransform?: { readonly offset: readonly [number, number]; readonly scale: readonly [number, number] };
  readonly mtoon: AvatarMToonFactors;
  /** Images of the MToon texture slots; `shadingShiftTexture`'s scale is `mtoon.shadingShiftTextureScale`. */
  readonly mtoonImages: Partial<Record<AvatarMToonTextureSlot, AvatarMToonImageName>>;
}

/** The specification's defaults (VRMC_materials_mtoon-1.0 README, each property's default) for the fields left out below. */
const DEFAULTS: AvatarMToonFactors = {
  transparentWithZWrite: false, renderQueueOffsetNumber: 0,
  shadeColorFactor: [0, 0, 0], shadingShiftFactor: 0, shadingShiftTextureScale: 1, shadingToonyFactor: 0.9, giEqualizationFactor: 0.9,
  matcapFactor: [1, 1, 1], parametricRimColorFactor: [0, 0, 0], parametricRimFresnelPowerFactor: 5, parametricRimLiftFactor: 0, rimLightingMixFactor: 1,
  outlineWidthMode: 'none', outlineWidthFactor: 0, outlineColorFactor: [0, 0, 0], outlineLightingMixFactor: 1,
  uvAnimationScrollXSpeedFactor: 0, uvAnimationScrollYSpeedFactor: 0, uvAnimationRotationSpeedFactor: 0,
};

const toon = (
  glTF: Omit<AvatarToonMaterial, 'mtoon' | 'mtoonImages' | 'alphaMode' | 'doubleSided'> & Partial<Pick<AvatarToonMaterial, 'alphaMode' | 'doubleSided'>>,
  mtoon: Partial<AvatarMToonFactors>,
  mtoonImages: AvatarToonMaterial['mtoonImages'] = {},
): AvatarToonMaterial => ({ alphaMode: 'OPAQUE', doubleSided: false, ...glTF, mtoon: { ...DEFAULTS, ...mtoon }, mtoonImages });

/**
 * The toon avatar's materials. Between them they use every MToon feature once at least, so that one file tests
 * them all:
 * - `Skin` (body and head): shade colour and shade multiply texture, a hard toony ramp (0.95), parametric rim
 *   (colour, fresnel power, lift) fully lit by the light (mix 1), a `worldCoordinates` outline of 2 mm thinned by a
 *   width multiply texture, its colour mixed with the lighting (mix 1);
 * - `Hair` (cap, strands, ears, tail): a soft toony ramp (0.5), shading shift with texture and scale, GI
 *   equalization 0, matcap (texture and factor), rim multiply texture with lighting mix 0.5, a
 *   `screenCoordinates` outline with an unlit colour (mix 0); double-sided;
 * - `Bracer`: emission with a texture, a normal map, UV animation (scroll X and Y, rotation, with a mask texture)
 *   and a KHR_texture_transform tiling its textures, a thin world outline half lit (mix 0.5);
 * - `Pupil`: MASK, a catchlight cut out of its base colour texture's alpha;
 * - `Cheek`: BLEND with `transparentWithZWrite` and `renderQueueOffsetNumber` 1;
 * - `Eye`, `Mouth`: plain shade colours, no outline.
 * The lit colours are the PBR avatar's (`AVATAR_MATERIALS`), but `Bracer`'s teal.
 */
export const AVATAR_TOON_MATERIALS: Readonly<Record<AvatarToonMaterialName, AvatarToonMaterial>> = {
  Skin: toon({ color: [0.8, 0.5, 0.38, 1] }, {
    shadeColorFactor: [0.55, 0.27, 0.22], shadingShiftFactor: -0.05, shadingToonyFactor: 0.95,
    parametricRimColorFactor: [0.25, 0.12, 0.08], parametricRimFresnelPowerFactor: 4, parametricRimLiftFactor: 0.05,
    outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.002, outlineColorFactor: [0.2, 0.08, 0.05], outlineLightingMixFactor: 1,
  }, { shadeMultiplyTexture: 'SkinShadeMultiply', outlineWidthMultiplyTexture: 'SkinOutlineWidth' }),
  Hair: toon({ color: [0.12, 0.05, 0.025, 1], doubleSided: true }, {
    shadeColorFactor: [0.035, 0.014, 0.01], shadingShiftFactor: -0.2, shadingShiftTextureScale: 0.4, shadingToonyFactor: 0.5,
    giEqualizationFactor: 0, matcapFactor: [0.5, 0.42, 0.35],
    parametricRimColorFactor: [0.3, 0.18, 0.12], parametricRimFresnelPowerFactor: 3, parametricRimLiftFactor: 0.1, rimLightingMixFactor: 0.5,
    outlineWidthMode: 'screenCoordinates', outlineWidthFactor: 0.006, outlineColorFactor: [0.02, 0.01, 0.008], outlineLightingMixFactor: 0,
  }, { shadingShiftTexture: 'HairShadingShift', matcapTexture: 'HairMatcap', rimMultiplyTexture: 'HairRimMultiply' }),
  Eye: toon({ color: [0.9, 0.9, 0.88, 1] }, { shadeColorFactor: [0.6, 0.62, 0.7] }),
  Pupil: toon({ color: [0.02, 0.02, 0.03, 1], alphaMode: 'MASK', alphaCutoff: 0.5, baseColorImage: 'PupilCatchlight' }, {
    shadeColorFactor: [0.01, 0.01, 0.015],
  }),
  Cheek: toon({ color: [1, 0.6, 0.6, 0.7], alphaMode: 'BLEND', baseColorImage: 'CheekStripes' }, {
    transparentWithZWrite: true, renderQueueOffsetNumber: 1, shadeColorFactor: [0.85, 0.42, 0.42],
  }),
  Mouth: toon({ color: [0.25, 0.02, 0.03, 1] }, { shadeColorFactor: [0.12, 0.01, 0.015] }),
  Bracer: toon({
    color: [0.08, 0.22, 0.3, 1], emissive: [0.2, 0.9, 1], emissiveImage: 'BracerGlow', normalImage: 'BracerRidges',
    textureTransform: { offset: [0, 0], scale: [2, 1] },
  }, {
    shadeColorFactor: [0.03, 0.07, 0.12], shadingToonyFactor: 0.8,
    outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.0015, outlineColorFactor: [0.02, 0.05, 0.08], outlineLightingMixFactor: 0.5,
    uvAnimationScrollXSpeedFactor: 0.25, uvAnimationScrollYSpeedFactor: -0.1, uvAnimationRotationSpeedFactor: 0.3,
  }, { uvAnimationMaskTexture: 'BracerUvMask' }),
};

/** A material colour an expression drives (VRMC_vrm-1.0 `expressions.md`, materialColorBinds). */
export interface AvatarToonColorBind {
  readonly material: AvatarToonMaterialName;
  readonly type: 'shadeColor' | 'rimColor';
  /** Linear RGBA. */
  readonly targetValue: readonly [number, number, number, number];
}

/** A texture transform an expression drives (VRMC_vrm-1.0 `expressions.md`, textureTransformBinds). */
export interface AvatarToonTextureTransformBind {
  readonly material: AvatarToonMaterialName;
  readonly scale: readonly [number, number];
  readonly offset: readonly [number, number];
}

/**
 * What the toon avatar's expressions drive beyond the PBR avatar's binds: `angry` also turns the skin's shade
 * colour and rim red (MToon colour binds), `cheekPuff` also stretches and shifts the bracers' textures (a texture
 * transform bind on an MToon material with UV animation).
 */
export const AVATAR_TOON_EXPRESSION_BINDS: Readonly<Record<string, { readonly colors: readonly AvatarToonColorBind[]; readonly textureTransforms: readonly AvatarToonTextureTransformBind[] }>> = {
  angry: {
    colors: [
      { material: 'Skin', type: 'shadeColor', targetValue: [0.6, 0.1, 0.08, 1] },
      { material: 'Skin', type: 'rimColor', targetValue: [0.7, 0.05, 0.02, 1] },
    ],
    textureTransforms: [],
  },
  cheekPuff: { colors: [], textureTransforms: [{ material: 'Bracer', scale: [4, 1], offset: [0.5, 0] }] },
};
