import type { Material as V0Material } from '@pixiv/types-vrm-0.0';
import { AVATAR_TOON_MATERIALS, type AvatarToonMaterialName } from './avatar-mtoon.ts';
import type { AvatarMToonImageName } from './avatar-mtoon-textures.ts';
import { textureIndexOfImage } from './avatar-mtoon-vrm1.ts';
import type { GltfJson } from './glb-with-extension.ts';

/** 0.x MToon stores colours gamma-encoded (three-vrm's v0compat decodes them with c^2.2); alpha stays linear. */
const gamma = (linear: readonly number[]): number[] => linear.map((c) => c ** (1 / 2.2));
const gammaRgba = (rgb: readonly number[], alpha = 1): number[] => [...gamma(rgb.slice(0, 3)), alpha];

/** 0.x `_OutlineWidthMode`: 0 none, 1 world, 2 screen. */
const OUTLINE_MODES = { none: 0, worldCoordinates: 1, screenCoordinates: 2 } as const;

/**
 * VRM 0.x `_ShadeShift` and `_ShadeToony` that three-vrm's v0compat turns into the given 1.0 shift and toony: it
 * computes toony₁ = lerp(toony₀, 1, 0.5 + 0.5·shift₀) and shift₁ = −shift₀ − (1 − toony₁); this is its inverse.
 */
export function v0ShadingOf(shift1: number, toony1: number): { shadeShift: number; shadeToony: number } {
  const shadeShift = -shift1 - (1 - toony1);
  const t = 0.5 + 0.5 * shadeShift;
  return { shadeShift, shadeToony: (toony1 - t) / (1 - t) };
}

/**
 * The VRM 0.x `materialProperties` of the toon avatar, one per glTF material in order, all `VRM/MToon` (UniVRM's
 * MToon 3.8 property names, the ones three-vrm's v0compat reads): colours gamma-encoded, the shading shift and
 * toony converted back ({@link v0ShadingOf}), outline widths in centimetres, the UV scroll in v negated (Unity's v
 * runs up), `_IndirectLightIntensity` = 1 − GI equalization, the texture transform as `_MainTex` tiling and offset.
 * What 0.x MToon cannot say is left out: the shading shift texture and the matcap factor (0.x adds the matcap
 * unscaled), so three-vrm reads the 0.x avatar with `shadingShiftTexture` absent and `matcapFactor` (1, 1, 1).
 * @throws Error if a material is not one of the toon avatar's
 */
export function vrm0ToonMaterialProperties(json: GltfJson): V0Material[] {
  return ((json.materials ?? []) as { name?: string }[]).map(({ name }) => {
    const toon = AVATAR_TOON_MATERIALS[name as AvatarToonMaterialName];
    if (!toon) throw new Error(`generated avatar: material ${name} has no toon settings`);
    const m = toon.mtoon;
    const blend = toon.alphaMode === 'BLEND', cutout = toon.alphaMode === 'MASK';
    const { shadeShift, shadeToony } = v0ShadingOf(m.shadingShiftFactor, m.shadingToonyFactor);
    const textureProperties: Record<string, number> = {};
    const texture = (property: string, image: AvatarMToonImageName | undefined): void => {
      const index = image ? textureIndexOfImage(json, image) : null;
      if (index !== null) textureProperties[property] = index;
    };
    texture('_MainTex', toon.baseColorImage);
    texture('_ShadeTexture', toon.mtoonImages.shadeMultiplyTexture);
    texture('_BumpMap', toon.normalImage);
    texture('_EmissionMap', toon.emissiveImage);
    texture('_SphereAdd', toon.mtoonImages.matcapTexture);
    texture('_RimTexture', toon.mtoonImages.rimMultiplyTexture);
    texture('_OutlineWidthTexture', toon.mtoonImages.outlineWidthMultiplyTexture);
    texture('_UvAnimMaskTexture', toon.mtoonImages.uvAnimationMaskTexture);
    const transform = toon.textureTransform ?? { offset: [0, 0], scale: [1, 1] };
    const [sx, sy] = transform.scale, [ox, oy] = transform.offset;
    const outlineMixed = m.outlineLightingMixFactor > 0;
    const keywordMap: Record<string, boolean> = {};
    if (toon.normalImage && textureProperties._BumpMap !== undefined) keywordMap._NORMALMAP = true;
    if (cutout) keywordMap._ALPHATEST_ON = true;
    if (blend) keywordMap._ALPHABLEND_ON = true;
    if (m.outlineWidthMode === 'worldCoordinates') keywordMap.MTOON_OUTLINE_WIDTH_WORLD = true;
    if (m.outlineWidthMode === 'screenCoordinates') keywordMap.MTOON_OUTLINE_WIDTH_SCREEN = true;
    if (m.outlineWidthMode !== 'none') keywordMap[outlineMixed ? 'MTOON_OUTLINE_COLOR_MIXED' : 'MTOON_OUTLINE_COLOR_FIXED'] = true;
    return {
      name,
      shader: 'VRM/MToon',
      // Unity's queues: geometry 2000, alpha test 2450, transparent with depth write 2501 (UniVRM's MToon).
      renderQueue: blend ? (m.transparentWithZWrite ? 2501 : 3000) + m.renderQueueOffsetNumber : cutout ? 2450 : 2000,
      floatProperties: {
        _Cutoff: toon.alphaCutoff ?? 0.5,
        _BumpScale: 1,
        _ReceiveShadowRate: 1,
        _ShadingGradeRate: 1,
        _ShadeShift: shadeShift,
        _ShadeToony: shadeToony,
        _LightColorAttenuation: 0,
        _IndirectLightIntensity: 1 - m.giEqualizationFactor,
        _RimLightingMix: m.rimLightingMixFactor,
        _RimFresnelPower: m.parametricRimFresnelPowerFactor,
        _RimLift: m.parametricRimLiftFactor,
        _OutlineWidth: 100 * m.outlineWidthFactor,
        _OutlineScaledMaxDistance: 1,
        _OutlineLightingMix: m.outlineLightingMixFactor,
        _UvAnimScrollX: m.uvAnimationScrollXSpeedFactor,
        _UvAnimScrollY: -m.uvAnimationScrollYSpeedFactor,
        _UvAnimRotation: m.uvAnimationRotationSpeedFactor,
        _MToonVersion: 38,
        _DebugMode: 0,
        _BlendMode: blend ? (m.transparentWithZWrite ? 3 : 2) : cutout ? 1 : 0,
        _OutlineWidthMode: OUTLINE_MODES[m.outlineWidthMode],
        _OutlineColorMode: outlineMixed ? 1 : 0,
        _CullMode: toon.doubleSided ? 0 : 2,
        _OutlineCullMode: 1,
        _SrcBlend: blend ? 5 : 1,
        _DstBlend: blend ? 10 : 0,
        _ZWrite: !blend || m.transparentWithZWrite ? 1 : 0,
      },
      vectorProperties: {
        _Color: gammaRgba(toon.color, toon.color[3]),
        _ShadeColor: gammaRgba(m.shadeColorFactor),
        _MainTex: [ox, 1 - sy - oy, sx, sy],
        _EmissionColor: gammaRgba(toon.emissive ?? [0, 0, 0]),
        _RimColor: gammaRgba(m.parametricRimColorFactor),
        _OutlineColor: gammaRgba(m.outlineColorFactor),
      },
      textureProperties,
      keywordMap,
      tagMap: { RenderType: blend ? 'Transparent' : cutout ? 'TransparentCutout' : 'Opaque' },
    };
  });
}
