import type { SkinningMode, WeightPolicy } from '../../skinning/skinning-method.ts';
import { WEIGHT_POLICIES } from '../../skinning/skinning-method.ts';
import { INSTANCE_TEXTURE_WIDTH } from '../../skinning/instance-blocks.ts';
import { paletteStride, type PalettePath } from './palette-path.ts';

/**
 * One compiled form of `shaders/skinned.vert` + `shaders/lit.frag`, named by fields, not by position: a caller
 * keeps one mutable value ({@link createShaderVariant}) and fills it per draw, so nothing is allocated and no
 * two booleans can trade places. `ProgramCache.get` (program-cache.ts) normalises it first ({@link normalizeShaderVariant}).
 */
export interface ShaderVariant {
  /** Skinning (`SKINNED`); false for rigid meshes. */
  skinned: boolean;
  /** Palette path in use when skinned (`PALETTE_TEXTURE`, `PALETTE_UBO`, or the uniform array); ignored when rigid. */
  palettePath: PalettePath;
  /** `JOINT_COUNT` of the uniform or block palette (0 on the texture path). */
  jointCapacity: number;
  /** Link with transform-feedback varyings `v_displayPosition`, `v_displayNormal`, `v_displayTangent` (SEPARATE_ATTRIBS). */
  transformFeedback: boolean;
  /** `SKINNING_DQS` for `'dqs'`; ignored when rigid. */
  skinning: SkinningMode;
  /** `WEIGHTS_*` define; ignored when rigid. */
  weights: WeightPolicy;
  /**
   * Influence slots the variant reads (`influenceVariant`): 4, 8 (`INFLUENCES_8`) or 12 for any count above 8
   * (`INFLUENCES_8` + `INFLUENCE_OVERFLOW`); absent: 4. Ignored when rigid.
   */
  influences?: 4 | 8 | 12;
  /**
   * Instanced skinning (`INSTANCED`, src/crowd/crowd.ts): joints per instance block (live, or blended from
   * baked frames first; LBS matrices premultiplied by the instance's world matrix: src/crowd/gpu/instance-prepass.ts); absent or false: one model per draw. Skinned variants only;
   * the palette path is then the instance texture.
   */
  instanced?: boolean;
  /** `MORPH_TARGETS`: morph targets before skinning (skinned or rigid; src/gpu/skinning/morph-texture.ts). Absent: false. */
  morphTargets?: boolean;
  /**
   * The draw's {@link MaterialFeature} bits: what lit.frag samples and computes, and which of the vertex
   * shader's optional outputs (texture coordinates, vertex colour, tangent) it reads, so a material and
   * primitive pay, per pixel and per vertex, only for what they use; absent: 0. Ignored when linked for
   * transform feedback or the weight view.
   */
  features?: number;
  /**
   * `WEIGHT_VIEW`, linked with `shaders/debug-weights.frag` instead of `shaders/lit.frag`: the viewer's weight
   * and influence views (src/gpu/debug/draw-style.ts). Absent: false.
   */
  weightView?: boolean;
}

/** A rigid, LBS, uniform-path variant with every optional field present: the value a caller reuses per draw. */
export function createShaderVariant(): Required<ShaderVariant> {
  return {
    skinned: false, palettePath: 'uniform', jointCapacity: 0, transformFeedback: false, skinning: 'lbs', weights: WEIGHT_POLICIES[0],
    influences: 4, instanced: false, morphTargets: false, features: 0, weightView: false,
  };
}

/**
 * Writes into `out` the canonical form of `variant` (`out` may be `variant`), so that variants compiling to
 * the same shader get the same {@link variantId}: fields a variant ignores take their defaults. Instanced
 * applies to skinned variants only and reads the texture path; the joint capacity is 0 unless the path is
 * uniform or ubo; a rigid variant has the uniform path, LBS, the default weight policy and 4 influences;
 * material features are 0 with transform feedback or the weight view. Allocates nothing.
 * @returns `out`
 */
export function normalizeShaderVariant(out: Required<ShaderVariant>, variant: ShaderVariant): Required<ShaderVariant> {
  const skinned = variant.skinned;
  const instanced = skinned && (variant.instanced ?? false);
  const palettePath = !skinned ? 'uniform' : instanced ? 'texture' : variant.palettePath;
  const weightView = variant.weightView ?? false;
  out.skinned = skinned;
  out.palettePath = palettePath;
  out.jointCapacity = skinned && palettePath !== 'texture' ? variant.jointCapacity : 0;
  out.transformFeedback = variant.transformFeedback;
  out.skinning = skinned ? variant.skinning : 'lbs';
  out.weights = skinned ? variant.weights : WEIGHT_POLICIES[0];
  out.influences = skinned ? variant.influences ?? 4 : 4;
  out.instanced = instanced;
  out.morphTargets = variant.morphTargets ?? false;
  out.features = variant.transformFeedback || weightView ? 0 : variant.features ?? 0;
  out.weightView = weightView;
  return out;
}

/**
 * Features of a draw, as bits: a normal map (with its tangent frame), a metallic-roughness, occlusion or
 * emissive texture to sample, KHR_materials_unlit (no lighting at all), a base colour texture to sample; a
 * sampled texture that reads TEXCOORD_1; the primitive's COLOR_0; its TANGENT, with a normal map. Each is a
 * `#define` of lit.frag (`NORMAL_MAP`, …, `VERTEX_TANGENT`); any texture adds `TEXCOORD`. The last four and
 * `TEXCOORD` are also the vertex shader's output defines ({@link vertexOutputDefines}).
 */
export const MaterialFeature = {
  NormalMap: 1, MetallicRoughnessMap: 2, OcclusionMap: 4, EmissiveMap: 8, Unlit: 16, BaseColorMap: 32, TexCoord1: 64, VertexColor: 128, VertexTangent: 256,
  /** VRMC_materials_mtoon: MToon shading instead of metallic-roughness (`MaterialAsset.mtoon`). */
  MToon: 512,
  /** MToon textures: shade multiply (sRGB), shading shift (R), matcap (sRGB), rim multiply (sRGB), UV animation mask (B). */
  ShadeMultiplyMap: 1024, ShadingShiftMap: 2048, MatcapMap: 4096, RimMultiplyMap: 8192, UvAnimationMaskMap: 16384,
  /** The MToon outline pass: the inverted hull of the skinned vertices, front faces culled. */
  Outline: 32768,
  /** The outline width multiply texture (G), read by the outline pass's vertex shader. */
  OutlineWidthMap: 65536,
} as const;
const FEATURE_DEFINES = [
  'NORMAL_MAP', 'METALLIC_ROUGHNESS_MAP', 'OCCLUSION_MAP', 'EMISSIVE_MAP', 'UNLIT', 'BASE_COLOR_MAP', 'TEXCOORD_1', 'VERTEX_COLOR', 'VERTEX_TANGENT',
  'MTOON', 'SHADE_MULTIPLY_MAP', 'SHADING_SHIFT_MAP', 'MATCAP_MAP', 'RIM_MULTIPLY_MAP', 'UV_ANIMATION_MASK_MAP', 'MTOON_OUTLINE', 'OUTLINE_WIDTH_MAP',
] as const;
/** The features that sample a texture by texture coordinates (the matcap samples by the view-space normal, so it is not one). */
const TEXTURE_FEATURES = MaterialFeature.NormalMap | MaterialFeature.MetallicRoughnessMap | MaterialFeature.OcclusionMap
  | MaterialFeature.EmissiveMap | MaterialFeature.BaseColorMap | MaterialFeature.ShadeMultiplyMap | MaterialFeature.ShadingShiftMap
  | MaterialFeature.RimMultiplyMap | MaterialFeature.UvAnimationMaskMap | MaterialFeature.OutlineWidthMap;
/** The features that are also vertex shader defines: its outputs, and the outline's offset (and its width texture). */
const OUTPUT_FEATURES = MaterialFeature.TexCoord1 | MaterialFeature.VertexColor | MaterialFeature.VertexTangent
  | MaterialFeature.Outline | MaterialFeature.OutlineWidthMap;

/** lit.frag's `#define` lines (without `#define`) for {@link MaterialFeature} bits, in bit order, then `TEXCOORD` when a texture is sampled. */
export function featureDefines(features: number): string[] {
  const defines: string[] = FEATURE_DEFINES.filter((_, bit) => (features & (1 << bit)) !== 0);
  if ((features & TEXTURE_FEATURES) !== 0) defines.push('TEXCOORD');
  return defines;
}

/**
 * skinned.vert's optional outputs for {@link MaterialFeature} bits: `TEXCOORD` (v_uv) when a texture is sampled,
 * `TEXCOORD_1` (v_uv1), `VERTEX_COLOR` (v_color), `VERTEX_TANGENT` (v_displayTangent) — always with transform
 * feedback, which captures the tangent; and the outline pass's `MTOON_OUTLINE` (the hull's offset) and
 * `OUTLINE_WIDTH_MAP` (its width texture). Outputs a variant leaves out are not computed at all.
 */
export function vertexOutputDefines(features: number, transformFeedback: boolean): string[] {
  const defines = (features & TEXTURE_FEATURES) !== 0 ? ['TEXCOORD'] : [];
  defines.push(...FEATURE_DEFINES.filter((_, bit) => (features & OUTPUT_FEATURES & (1 << bit)) !== 0));
  if (transformFeedback && (features & MaterialFeature.VertexTangent) === 0) defines.push('VERTEX_TANGENT');
  return defines;
}

/** The varyings transform feedback captures, in buffer-binding order. */
export const CAPTURED_VARYINGS = ['v_displayPosition', 'v_displayNormal', 'v_displayTangent'] as const;

/** skinned.vert's `#define` lines (without `#define`) for a variant, in a fixed order, its outputs' last. */
export function variantDefines(variant: ShaderVariant): string[] {
  return [...skinningDefines(variant), ...vertexOutputDefines(variant.features ?? 0, variant.transformFeedback)];
}

function skinningDefines(variant: ShaderVariant): string[] {
  const morph = variant.morphTargets ? ['MORPH_TARGETS'] : [];
  if (variant.weightView) morph.push('WEIGHT_VIEW');
  if (!variant.skinned) return morph;
  const defines = [...morph, 'SKINNED', `WEIGHTS_${variant.weights.toUpperCase().replace('-', '_')}`];
  if (variant.skinning === 'dqs') defines.push('SKINNING_DQS');
  const influences = variant.influences ?? 4;
  if (influences >= 8) defines.push('INFLUENCES_8');
  if (influences > 8) defines.push('INFLUENCE_OVERFLOW');
  defines.push(`PALETTE_STRIDE ${paletteStride(variant.skinning)}`);
  if (variant.instanced) {
    defines.push('INSTANCED', `INSTANCE_TEXTURE_WIDTH ${INSTANCE_TEXTURE_WIDTH}`);
    return defines;
  }
  if (variant.palettePath === 'texture') defines.push('PALETTE_TEXTURE');
  else if (variant.palettePath === 'ubo') defines.push('PALETTE_UBO', `JOINT_COUNT ${variant.jointCapacity}`);
  else defines.push(`JOINT_COUNT ${variant.jointCapacity}`);
  return defines;
}

/**
 * A string naming the variant uniquely: its vertex defines, plus `TF` when linked for transform feedback, plus
 * `| ` and the fragment defines when it has material features.
 */
export function variantKey(variant: ShaderVariant): string {
  const defines = variantDefines(variant).join(' ');
  const key = variant.transformFeedback ? `${defines} TF` : defines;
  const features = featureDefines(variant.features ?? 0);
  return features.length > 0 ? `${key} | ${features.join(' ')}` : key;
}

/**
 * A number naming the variant uniquely (as {@link ShaderVariant}; normalise it first to name equal shaders
 * alike, {@link normalizeShaderVariant}), so the program cache looks variants up per draw without allocating:
 * bit 0 skinned, bit 1 transform feedback, bits 2–3 the palette path, bits 4–5 the weight policy, bit 6 DQS,
 * bits 7–8 the influences (4, 8, 12), bit 9 instancing (bit 10 unused), bit 11 morph targets, then the
 * capacity (below 2¹² joints), and from bit 24 the material features (9 bits); all of that doubled, plus 1 for
 * the weight view.
 */
export function variantId(variant: ShaderVariant): number {
  const morph = variant.morphTargets ? 2048 : 0;
  const featureBits = (variant.features ?? 0) * 2 ** 24;
  const view = variant.weightView ? 1 : 0;
  const transformFeedback = variant.transformFeedback ? 2 : 0;
  if (!variant.skinned) return 2 * (transformFeedback + morph + featureBits) + view;
  const pathIndex = variant.palettePath === 'uniform' ? 0 : variant.palettePath === 'texture' ? 1 : 2;
  const influences = variant.influences ?? 4;
  return 2 * (1 + transformFeedback + 4 * pathIndex + 16 * WEIGHT_POLICIES.indexOf(variant.weights) + (variant.skinning === 'dqs' ? 64 : 0)
    + 128 * (influences === 4 ? 0 : influences === 8 ? 1 : 2) + (variant.instanced ? 512 : 0)
    + morph + 4096 * variant.jointCapacity + featureBits) + view;
}
