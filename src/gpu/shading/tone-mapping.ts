import toneMappingSource from '../../../shaders/tone-mapping.glsl?raw';

/**
 * model-viewer's `tone-mapping` values (model-viewer 4.x `ToneMappingValue`, features/environment.ts): `auto`
 * and `commerce` are `neutral` (the Khronos PBR Neutral tone mapper), `none` leaves the radiance as it is
 * (clamped by the sRGB encoding) and ignores the exposure, as three.js's NoToneMapping does.
 */
export const TONE_MAPPINGS = ['auto', 'aces', 'agx', 'commerce', 'neutral', 'reinhard', 'cineon', 'linear', 'none'] as const;

/** One of {@link TONE_MAPPINGS}. */
export type ToneMapping = (typeof TONE_MAPPINGS)[number];

/** `u_toneMapping` of shaders/tone-mapping.glsl for each value. */
const OPERATOR: Readonly<Record<ToneMapping, number>> = {
  auto: 0, neutral: 0, commerce: 0, aces: 1, agx: 2, reinhard: 3, cineon: 4, linear: 5, none: 6,
};

/** The shader's operator index (`u_toneMapping`) of `toneMapping`. */
export function toneMappingOperator(toneMapping: ToneMapping): number {
  return OPERATOR[toneMapping];
}

/** `source` with its `#pragma tone-mapping` line replaced by shaders/tone-mapping.glsl (`toneMap`, `u_exposure`, `u_toneMapping`). */
export function withToneMapping(source: string): string {
  if (!source.includes('#pragma tone-mapping')) throw new Error('withToneMapping: the shader has no #pragma tone-mapping line');
  return source.replace('#pragma tone-mapping', toneMappingSource);
}
