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
