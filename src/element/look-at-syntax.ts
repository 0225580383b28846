import { terms } from './camera-syntax.ts';
import { parseLength } from './hotspot-syntax.ts';

/**
 * What `look-at` asks the avatar's eyes to follow: nothing (`none`: the eyes as the clip poses them), the element's
 * camera, the pointer over the element, or a fixed point (`point`: metres, model space — the file's coordinates,
 * as hotspots' `data-position`, so `orientation` and `scale` carry it with the model).
 */
export type LookAtSetting =
  | { readonly kind: 'none' | 'camera' | 'cursor' }
  | { readonly kind: 'point'; readonly point: readonly [number, number, number] };

/** `look-at` when absent, empty or malformed. */
export const LOOK_AT_NONE: LookAtSetting = Object.freeze({ kind: 'none' });

/**
 * Reads `look-at`: `camera`, `cursor` or `none` (case-insensitive; absent or empty: `none`), or `"X Y Z"` — three
 * lengths in metres (`1.5`, `150cm`, `1500mm`; spaces or commas between), model space.
 * @returns the setting, or `none` with the error saying what was expected
 */
export function parseLookAt(raw: string | null): { readonly value: LookAtSetting; readonly error: string | null } {
  const t = terms(raw);
  if (t.length === 0) return { value: LOOK_AT_NONE, error: null };
  if (t.length === 1) {
    const word = t[0].toLowerCase();
    if (word === 'none' || word === 'camera' || word === 'cursor') return { value: Object.freeze({ kind: word }), error: null };
  }
  const xyz = t.length === 3 ? t.map(parseLength) : [];
  if (xyz.length !== 3 || xyz.some((v) => v === null)) {
    return { value: LOOK_AT_NONE, error: 'expected camera, cursor, none or "X Y Z" (metres, model space; m, cm or mm); using none' };
  }
  return { value: Object.freeze({ kind: 'point', point: Object.freeze(xyz as [number, number, number]) }), error: null };
}
