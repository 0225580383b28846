import type { PalettePath } from './palette-path.ts';

/** One compiled form of `shaders/skinned.vert` + `shaders/lit.frag`. */
export interface ShaderVariant {
  /** Linear blend skinning (`SKINNED`); false for rigid meshes. */
  readonly skinned: boolean;
  /** Palette source when skinned (`PALETTE_TEXTURE` for `'texture'`); ignored when rigid. */
  readonly palette: PalettePath;
  /** `JOINT_COUNT` of the uniform palette (uniform path only). */
  readonly jointCapacity: number;
  /** Link with transform-feedback varyings `v_displayPosition`, `v_displayNormal` (SEPARATE_ATTRIBS). */
  readonly transformFeedback: boolean;
}

/** The varyings transform feedback captures, in buffer-binding order. */
export const CAPTURED_VARYINGS = ['v_displayPosition', 'v_displayNormal'] as const;

/** `#define` lines (without `#define`) for a variant, in a fixed order. */
export function variantDefines(variant: ShaderVariant): string[] {
  if (!variant.skinned) return [];
  if (variant.palette === 'texture') return ['SKINNED', 'PALETTE_TEXTURE'];
  return ['SKINNED', `JOINT_COUNT ${variant.jointCapacity}`];
}

/** A string naming the variant uniquely: its defines, plus `TF` when linked for transform feedback. */
export function variantKey(variant: ShaderVariant): string {
  const defines = variantDefines(variant).join(' ');
  return variant.transformFeedback ? `${defines} TF` : defines;
}
