/**
 * Reading rules of `<sinew-viewer>`'s light attributes (model-viewer's names, values and defaults,
 * model-viewer 4.x features/environment.ts): `exposure` and `tone-mapping`. `environment-image` and
 * `skybox-image` are URLs (or `neutral` / `legacy`) read by element-environment.ts.
 */
import { TONE_MAPPINGS, type ToneMapping } from '../gpu/shading/tone-mapping.ts';

/** Reads `exposure`: a number ≥ 0 (a linear multiplier of radiance); absent or empty: 1. Malformed: 1 and an error. */
export function parseExposureSetting(raw: string | null): { value: number; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: 1, error: null };
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0) return { value: 1, error: 'expected a number ≥ 0 (1 is as lit)' };
  return { value: v, error: null };
}

/**
 * Reads `tone-mapping`, case-insensitive: one of model-viewer's {@link TONE_MAPPINGS}; absent or empty:
 * `auto` (the Khronos PBR Neutral tone mapper). Malformed: `auto` and an error.
 */
export function parseToneMappingSetting(raw: string | null): { value: ToneMapping; error: string | null } {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return { value: 'auto', error: null };
  if ((TONE_MAPPINGS as readonly string[]).includes(value)) return { value: value as ToneMapping, error: null };
  return { value: 'auto', error: `expected ${TONE_MAPPINGS.join(', ')}` };
}

/**
 * Reads `shadow-intensity` (model-viewer 4.x features/staging.ts): the contact shadow's opacity in [0, 1];
 * absent or empty: 0 (no shadow). Malformed or outside [0, 1]: 0 and an error.
 */
export function parseShadowIntensitySetting(raw: string | null): { value: number; error: string | null } {
  return parseUnitSetting(raw, 0, 'expected a number in [0, 1] (0: no shadow)');
}

/**
 * Reads `shadow-softness` (model-viewer 4.x features/staging.ts): the contact shadow's blur in [0, 1], 0 hard;
 * absent or empty: 1. Malformed or outside [0, 1]: 1 and an error.
 */
export function parseShadowSoftnessSetting(raw: string | null): { value: number; error: string | null } {
  return parseUnitSetting(raw, 1, 'expected a number in [0, 1] (0: hard, 1: soft)');
}

function parseUnitSetting(raw: string | null, fallback: number, expected: string): { value: number; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: fallback, error: null };
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0 || v > 1) return { value: fallback, error: expected };
  return { value: v, error: null };
}
