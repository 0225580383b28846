import { distance } from 'fastest-levenshtein';

/** Most names one suggestion offers (when several are equally close). */
const MOST_SUGGESTED = 3;

/**
 * The known names closest to `given`, for a "did you mean" hint after a mistyped clip or joint name: compared
 * case-insensitively by Levenshtein distance (insertions, deletions and substitutions each cost 1), the names
 * at the smallest distance, in `known`'s order, at most three. A name counts as close by the rule commander
 * uses for mistyped options (its `suggestSimilar`): at most 3 edits, and more than 40 % of the longer name's
 * characters left unedited. A name that differs from `given` only in letter case is at distance 0, so it is
 * always the suggestion.
 * @param given the name asked for, as typed
 * @param known the names there are (empty names are never suggested)
 * @returns the suggested names (empty when none is close, or `given` is itself among `known`)
 */
export function closestNames(given: string, known: readonly string[]): string[] {
  if (known.includes(given)) return [];
  const typed = given.toLowerCase();
  let best = Infinity;
  let found: string[] = [];
  for (const name of new Set(known)) {
    if (name === '') continue;
    const d = distance(typed, name.toLowerCase());
    const longest = Math.max(typed.length, name.length);
    if (d > 3 || (longest - d) / longest <= 0.4) continue;
    if (d < best) {
      best = d;
      found = [name];
    } else if (d === best) found.push(name);
  }
  return found.slice(0, MOST_SUGGESTED);
}

/**
 * The hint a message about an unknown clip or joint name gives: `did you mean "Walk"?`, or
 * `did you mean "Arm.L" or "Arm.R"?` for several equally close names ({@link closestNames}); names quoted as
 * JSON strings, then `after` (a separator before what the message says next); `''` when no known name is close.
 */
export function didYouMean(given: string, known: readonly string[], after = ''): string {
  const names = closestNames(given, known).map((name) => JSON.stringify(name));
  if (names.length === 0) return '';
  return `did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}?${after}`;
}
