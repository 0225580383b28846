import type { SkinningMode, WeightPolicy } from '../skinning/skinning-method.ts';
import { WEIGHT_POLICIES } from '../skinning/skinning-method.ts';
import { paletteStride, type PalettePath } from './palette-path.ts';

/** One compiled form of `shaders/skinned.vert` + `shaders/lit.frag`. */
export interface ShaderVariant {
  /** Skinning (`SKINNED`); false for rigid meshes. */
  readonly skinned: boolean;
  /** Palette source when skinned (`PALETTE_TEXTURE`, `PALETTE_UBO`, or the uniform array); ignored when rigid. */
  readonly palette: PalettePath;
  /** `JOINT_COUNT` of the uniform or block palette (0 on the texture path). */
  readonly jointCapacity: number;
  /** Link with transform-feedback varyings `v_displayPosition`, `v_displayNormal`, `v_displayTangent` (SEPARATE_ATTRIBS). */
  readonly transformFeedback: boolean;
  /** `SKINNING_DQS` for `'dqs'`; ignored when rigid. */
  readonly skinning: SkinningMode;
  /** `WEIGHTS_*` define; ignored when rigid. */
  readonly weights: WeightPolicy;
  /**
   * Influence slots the variant reads (`influenceVariant`): 4, 8 (`INFLUENCES_8`) or 12 for any count above 8
   * (`INFLUENCES_8` + `INFLUENCE_OVERFLOW`); absent: 4. Ignored when rigid.
   */
  readonly influences?: 4 | 8 | 12;
  /**
   * Instanced skinning (`INSTANCED`, src/crowd/crowd.ts): `'live'` palettes per instance block, `'baked'`
   * (`INSTANCED_BAKED` too) baked frames; absent or `'none'`: one model per draw. Skinned variants only; the
   * palette path is then the instance texture.
   */
  readonly instancing?: InstancingMode;
  /** `MORPH_TARGETS`: morph targets before skinning (skinned or rigid; src/gl/morph-texture.ts). Absent: false. */
  readonly morphTargets?: boolean;
  /**
   * lit.frag's material features ({@link MaterialFeature} bits), each a `#define` of the fragment shader
   * only, so a material pays only for what it uses; absent: 0. Ignored when linked for transform feedback.
   */
  readonly features?: number;
  /**
   * `WEIGHT_VIEW`, linked with `shaders/debug-weights.frag` instead of `shaders/lit.frag`: the viewer's weight
   * and influence views (src/gl/debug/draw-style.ts). Absent: false.
   */
  readonly weightView?: boolean;
}

/**
 * Material features of lit.frag, as bits: a normal map (with its tangent frame), a metallic-roughness,
 * occlusion or emissive texture to sample, and KHR_materials_unlit (no lighting at all).
 */
export const MaterialFeature = { NormalMap: 1, MetallicRoughnessMap: 2, OcclusionMap: 4, EmissiveMap: 8, Unlit: 16 } as const;
const FEATURE_DEFINES = ['NORMAL_MAP', 'METALLIC_ROUGHNESS_MAP', 'OCCLUSION_MAP', 'EMISSIVE_MAP', 'UNLIT'] as const;

/** The fragment shader's `#define` lines (without `#define`) for {@link MaterialFeature} bits, in bit order. */
export function featureDefines(features: number): string[] {
  return FEATURE_DEFINES.filter((_, bit) => (features & (1 << bit)) !== 0);
}

/** How a variant gets its joints: per draw (`'none'`), per instance block (`'live'`), from baked frames (`'baked'`). */
export type InstancingMode = 'none' | 'live' | 'baked';

/** The varyings transform feedback captures, in buffer-binding order. */
export const CAPTURED_VARYINGS = ['v_displayPosition', 'v_displayNormal', 'v_displayTangent'] as const;

/** `#define` lines (without `#define`) for a variant, in a fixed order. */
export function variantDefines(variant: ShaderVariant): string[] {
  const morph = variant.morphTargets ? ['MORPH_TARGETS'] : [];
  if (variant.weightView) morph.push('WEIGHT_VIEW');
  if (!variant.skinned) return morph;
  const defines = [...morph, 'SKINNED', `WEIGHTS_${variant.weights.toUpperCase().replace('-', '_')}`];
  if (variant.skinning === 'dqs') defines.push('SKINNING_DQS');
  const influences = variant.influences ?? 4;
  if (influences >= 8) defines.push('INFLUENCES_8');
  if (influences > 8) defines.push('INFLUENCE_OVERFLOW');
  defines.push(`PALETTE_STRIDE ${paletteStride(variant.skinning)}`);
  const instancing = variant.instancing ?? 'none';
  if (instancing !== 'none') {
    defines.push('INSTANCED');
    if (instancing === 'baked') defines.push('INSTANCED_BAKED');
    return defines;
  }
  if (variant.palette === 'texture') defines.push('PALETTE_TEXTURE');
  else if (variant.palette === 'ubo') defines.push('PALETTE_UBO', `JOINT_COUNT ${variant.jointCapacity}`);
  else defines.push(`JOINT_COUNT ${variant.jointCapacity}`);
  return defines;
}

/**
 * A string naming the variant uniquely: its defines, plus `TF` when linked for transform feedback, plus
 * `| ` and the fragment defines when it has material features.
 */
export function variantKey(variant: ShaderVariant): string {
  const defines = variantDefines(variant).join(' ');
  const key = variant.transformFeedback ? `${defines} TF` : defines;
  const features = featureDefines(variant.features ?? 0);
  return features.length > 0 ? `${key} | ${features.join(' ')}` : key;
}

/**
 * A number naming the variant of these fields uniquely (as {@link ShaderVariant}), so the program cache
 * looks variants up per draw without allocating: bit 0 skinned, bit 1 transform feedback, bits 2–3 the
 * palette path, bits 4–5 the weight policy, bit 6 DQS, bits 7–8 the influences (4, 8, 12), bits 9–10 the
 * instancing, bit 11 morph targets, then the capacity (below 2¹² joints), and from bit 24 the material features;
 * all of that doubled, plus 1 for the weight view.
 */
export function variantId(
  skinned: boolean, palette: PalettePath, jointCapacity: number, transformFeedback: boolean, skinning: SkinningMode, weights: WeightPolicy,
  influences: 4 | 8 | 12 = 4, instancing: InstancingMode = 'none', morphTargets = false, features = 0, weightView = false,
): number {
  const morph = morphTargets ? 2048 : 0;
  const featureBits = features * 2 ** 24;
  const view = weightView ? 1 : 0;
  if (!skinned) return 2 * ((transformFeedback ? 2 : 0) + morph + featureBits) + view;
  const path = palette === 'uniform' ? 0 : palette === 'texture' ? 1 : 2;
  return 2 * (1 + (transformFeedback ? 2 : 0) + 4 * path + 16 * WEIGHT_POLICIES.indexOf(weights) + (skinning === 'dqs' ? 64 : 0)
    + 128 * (influences === 4 ? 0 : influences === 8 ? 1 : 2) + 512 * (instancing === 'none' ? 0 : instancing === 'live' ? 1 : 2)
    + morph + 4096 * jointCapacity + featureBits) + view;
}
