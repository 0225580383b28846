import { didYouMean } from '../math/did-you-mean.ts';

/**
 * Finds a clip given as the viewer URL, the `<sinew-viewer>` `clip` attribute and `sinew eval --clip` take
 * it: an exact clip name first (a clip named "7" wins over index 7), then a 0-based index; `rest` or `-1`
 * means the rest pose.
 * @returns the clip index, −1 for the rest pose, or null when nothing matches
 */
export function findClipIndex(clip: string, clipNames: readonly string[]): number | null {
  const byName = clipNames.indexOf(clip);
  if (byName >= 0) return byName;
  if (clip === 'rest') return -1;
  if (/^-?\d+$/.test(clip.trim())) {
    const i = Number(clip);
    if (i === -1 || (i >= 0 && i < clipNames.length)) return i;
  }
  return null;
}

/**
 * What a message about a clip {@link findClipIndex} did not find says after it, in one form everywhere a clip
 * is asked for by name (the API, the element, the CLI): a case-insensitive "did you mean" when a clip name is
 * close (src/math/did-you-mean.ts), then the clips there are, quoted: `did you mean "Walk"? clips: "Walk",
 * "Run"`, or `clips: none`.
 */
export function unknownClipHint(clip: string, clipNames: readonly string[]): string {
  return `${didYouMean(clip, clipNames, ' ')}clips: ${clipNames.length > 0 ? clipNames.map((name) => JSON.stringify(name)).join(', ') : 'none'}`;
}
