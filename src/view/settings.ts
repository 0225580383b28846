/**
 * The playback and skinning settings that both the viewer page's URL parameters (viewer/viewer-params.ts) and
 * the `<sinew-viewer>` attributes take: one parser per setting, so both read a value by the same rule.
 */
import type { LoopMode } from '../animation/loop-mode.ts';
import type { PaletteRequest } from '../gpu/skinning/palette-path.ts';
import {
  parseSkinningMode, parseWeightPolicy, SKINNING_MODES, WEIGHT_POLICIES, type SkinningMode, type WeightPolicy,
} from '../skinning/skinning-method.ts';


/** A numeric setting shared by the viewer's URL parameters and the `<sinew-viewer>` attributes. */
export type NumberSetting = 'yaw' | 'pitch' | 'distance' | 'time' | 'speed' | 'fade';

const NUMBER_RULES: Record<NumberSetting, { check: (v: number) => boolean; expected: string }> = {
  yaw: { check: () => true, expected: 'degrees' },
  pitch: { check: (v) => v >= -90 && v <= 90, expected: 'degrees in [-90, 90]' },
  distance: { check: (v) => v > 0, expected: 'a positive multiple of the framed distance' },
  time: { check: (v) => v >= 0, expected: 'seconds ≥ 0' },
  speed: { check: () => true, expected: 'a playback rate (1 real time, -1 backwards)' },
  fade: { check: (v) => v >= 0, expected: 'seconds ≥ 0' },
};

/**
 * Reads a numeric setting in the units it is written in (yaw and pitch in degrees, distance as a multiple of
 * the framed distance, time and fade in seconds, speed as a rate). Absent or empty gives null.
 * @returns the value, or `error` saying what was expected (the caller names where the value came from)
 */
export function parseNumberSetting(key: NumberSetting, raw: string | null): { value: number | null; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: null, error: null };
  const v = Number(raw);
  const rule = NUMBER_RULES[key];
  if (!Number.isFinite(v) || !rule.check(v)) return { value: null, error: `expected ${rule.expected}` };
  return { value: v, error: null };
}

/** Reads a palette setting (`uniform`, `texture`, `ubo`, `auto`); absent gives `auto`. */
export function parsePaletteSetting(raw: string | null): { value: PaletteRequest; error: string | null } {
  if (raw === null || raw === 'uniform' || raw === 'texture' || raw === 'ubo' || raw === 'auto') return { value: raw ?? 'auto', error: null };
  return { value: 'auto', error: 'expected uniform, texture, ubo or auto' };
}

/** Reads a skinning mode setting (`lbs`, `dqs`); absent or empty gives `lbs`. */
export function parseSkinningSetting(raw: string | null): { value: SkinningMode; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: 'lbs', error: null };
  const value = parseSkinningMode(raw.trim().toLowerCase());
  return value ? { value, error: null } : { value: 'lbs', error: `expected ${SKINNING_MODES.join(' or ')}` };
}

/** Reads a weight policy setting (`normalize`, `as-stored`, `rest-remainder`, `implicit-last`); absent or empty gives `normalize`. */
export function parseWeightsSetting(raw: string | null): { value: WeightPolicy; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: 'normalize', error: null };
  const value = parseWeightPolicy(raw.trim().toLowerCase());
  return value ? { value, error: null } : { value: 'normalize', error: `expected ${WEIGHT_POLICIES.join(', ')}` };
}

/** Reads a loop-mode setting (`loop`, `once`, `pingpong`, also `ping-pong`); absent or empty gives null. */
export function parseLoopSetting(raw: string | null): { value: LoopMode | null; error: string | null } {
  if (raw === null || raw.trim() === '') return { value: null, error: null };
  const v = raw.trim().toLowerCase();
  if (v === 'loop' || v === 'once' || v === 'pingpong') return { value: v, error: null };
  if (v === 'ping-pong') return { value: 'pingpong', error: null };
  return { value: null, error: 'expected loop, once or pingpong' };
}
