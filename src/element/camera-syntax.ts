/**
 * `<model-viewer>`'s camera attribute syntax (its `parseExpressions` and `normalizeUnit`, styles/), as
 * `<sinew-viewer>` reads it: space- or comma-separated terms, each a number with a unit or `auto`. Angles take
 * `deg` or `rad` (no unit: radians), lengths `m`, `cm`, `mm` (no unit: metres) or, for an orbit's radius, `%` of
 * its basis; `Infinity` and `-Infinity` are numbers. Missing trailing terms are `auto`. model-viewer's `calc()` and
 * `env()` are not read. Each parser returns the value, or `error` saying what was expected and the default.
 */
import type { OrbitLength, OrbitTerms, TargetTerms } from '../view/camera-goal.ts';

/** A parsed attribute: its value, or `error` (the value then is the default). */
export interface CameraReading<T> {
  readonly value: T;
  readonly error: string | null;
}

const TERM = /^([+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?))(deg|rad|m|cm|mm|%)?$/i;
const DEG = Math.PI / 180;

/** The terms of `raw` (null or blank: none), split at spaces and commas as model-viewer's `parseExpressions`. */
export function terms(raw: string | null): string[] {
  const text = (raw ?? '').trim();
  return text === '' ? [] : text.split(/[\s,]+/);
}

/** One angle term in radians (`deg`, `rad`, no unit: radians); null for `auto`; undefined when malformed. */
export function angle(term: string): number | null | undefined {
  if (term.toLowerCase() === 'auto') return null;
  const m = TERM.exec(term);
  if (!m) return undefined;
  const unit = (m[2] ?? 'rad').toLowerCase();
  if (unit === 'rad') return Number(m[1]);
  if (unit === 'deg') return Number(m[1]) * DEG;
  return undefined;
}

/** One length term; null for `auto`; undefined when malformed (or `%` where `percent` is false). */
function length(term: string, percent: boolean): OrbitLength | null | undefined {
  if (term.toLowerCase() === 'auto') return null;
  const m = TERM.exec(term);
  if (!m) return undefined;
  const unit = (m[2] ?? 'm').toLowerCase();
  const n = Number(m[1]);
  if (unit === 'm') return { value: n, unit: 'm' };
  if (unit === 'cm') return { value: n / 100, unit: 'm' };
  if (unit === 'mm') return { value: n / 1000, unit: 'm' };
  if (unit === '%' && percent) return { value: n, unit: '%' };
  return undefined;
}

const AUTO_ORBIT: OrbitTerms = Object.freeze({ theta: null, phi: null, radius: null });

/**
 * Reads `camera-orbit`, `min-camera-orbit`, `max-camera-orbit`: `"θ φ r"`, θ and φ angles, r a length or `%`.
 * A finite radius must be > 0 for `camera-orbit`, ≥ 0 for the limits.
 * @param limit reading a limit (`±Infinity` allowed for every term)
 */
export function parseCameraOrbit(raw: string | null, limit = false): CameraReading<OrbitTerms> {
  const t = terms(raw);
  if (t.length === 1 && t[0].toLowerCase() === 'auto') return { value: AUTO_ORBIT, error: null };
  if (t.length === 0) return { value: AUTO_ORBIT, error: null };
  const theta = t.length > 0 ? angle(t[0]) : null;
  const phi = t.length > 1 ? angle(t[1]) : null;
  const radius = t.length > 2 ? length(t[2], true) : null;
  const finite = (v: number | null | undefined): boolean => v === null || v === undefined || limit || Number.isFinite(v);
  const radiusOk = radius === null || (radius !== undefined && (limit ? radius.value >= 0 : radius.value > 0 && Number.isFinite(radius.value)));
  if (t.length > 3 || theta === undefined || phi === undefined || radius === undefined || !finite(theta) || !finite(phi) || !radiusOk) {
    return {
      value: AUTO_ORBIT,
      error: `expected "θ φ r": angles in deg or rad, a radius in m, cm, mm or % (each may be auto; e.g. "0deg 75deg 105%"); using auto`,
    };
  }
  return { value: Object.freeze({ theta, phi, radius }), error: null };
}

const AUTO_TARGET: TargetTerms = Object.freeze([null, null, null] as const);

/** Reads `camera-target`: `"x y z"`, lengths in m, cm or mm (each may be `auto`: the centre of the model's box). */
export function parseCameraTarget(raw: string | null): CameraReading<TargetTerms> {
  const t = terms(raw);
  if (t.length === 0 || (t.length === 1 && t[0].toLowerCase() === 'auto')) return { value: AUTO_TARGET, error: null };
  const xyz = [0, 1, 2].map((i) => (i < t.length ? length(t[i], false) : null));
  if (t.length > 3 || xyz.some((v) => v === undefined || (v !== null && !Number.isFinite(v.value)))) {
    return { value: AUTO_TARGET, error: 'expected "x y z" in m, cm or mm (each may be auto); using auto' };
  }
  return { value: Object.freeze(xyz.map((v) => (v ? v.value : null))) as unknown as TargetTerms, error: null };
}

/**
 * Reads `field-of-view`, `min-field-of-view`, `max-field-of-view`: an angle in (0°, 180°) in deg or rad, or
 * `auto` (null).
 */
export function parseFieldOfView(raw: string | null): CameraReading<number | null> {
  const t = terms(raw);
  if (t.length === 0) return { value: null, error: null };
  const a = t.length === 1 ? angle(t[0]) : undefined;
  if (a === undefined || (a !== null && !(a > 0 && a < Math.PI))) {
    return { value: null, error: 'expected an angle between 0deg and 180deg (deg or rad) or auto; using auto' };
  }
  return { value: a, error: null };
}

/** model-viewer's `rotation-per-second` for `auto`: π/32 radians per second. */
export const DEFAULT_ROTATION_PER_SECOND = Math.PI / 32;

/** Reads `rotation-per-second`: an angle per second in deg or rad (negative turns the other way), or `auto`. */
export function parseRotationPerSecond(raw: string | null): CameraReading<number> {
  const t = terms(raw);
  if (t.length === 0) return { value: DEFAULT_ROTATION_PER_SECOND, error: null };
  const a = t.length === 1 ? angle(t[0]) : undefined;
  if (a === undefined || (a !== null && !Number.isFinite(a))) {
    return { value: DEFAULT_ROTATION_PER_SECOND, error: 'expected an angle per second in deg or rad, or auto; using auto (π/32 rad)' };
  }
  return { value: a ?? DEFAULT_ROTATION_PER_SECOND, error: null };
}

/** model-viewer's `AUTO_ROTATE_DELAY_DEFAULT`, milliseconds. */
export const DEFAULT_AUTO_ROTATE_DELAY_MS = 3000;

/** Reads `auto-rotate-delay`: milliseconds ≥ 0; null when absent or malformed (the element then uses 3000). */
export function parseAutoRotateDelay(raw: string | null): CameraReading<number | null> {
  if (raw === null || raw.trim() === '') return { value: null, error: null };
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0) return { value: null, error: 'expected milliseconds ≥ 0; using 3000' };
  return { value: v, error: null };
}

/** Reads `interaction-prompt`: `auto` (absent) or `none`. */
export function parseInteractionPrompt(raw: string | null): CameraReading<'auto' | 'none'> {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '' || v === 'auto') return { value: 'auto', error: null };
  if (v === 'none') return { value: 'none', error: null };
  return { value: 'auto', error: 'expected auto or none; using auto' };
}
