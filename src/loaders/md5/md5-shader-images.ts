/** Image file extensions tried for an MD5 shader, in order of preference. */
export const MD5_IMAGE_EXTENSIONS: readonly string[] = ['.png', '.tga', '.jpg', '.jpeg'];

const MAP_SUFFIX = /_(d|local|s|h|diffuse|bump|spec)$/i;

function baseName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(slash + 1);
}

function stripImageExtension(name: string): string {
  const lower = name.toLowerCase();
  for (const ext of MD5_IMAGE_EXTENSIONS) if (lower.endsWith(ext)) return name.slice(0, -ext.length);
  return name;
}

/**
 * Image base names (no extension) that may hold the base colour of an MD5 `shader`, best first. MD5 shaders
 * name a Doom 3 material (e.g. `models/characters/marine/marine`) or, in exported files, an image
 * (`guard1_body.png`): the directories and any image extension are dropped, then the name itself, its `_d`
 * (diffuse) variant, and for a name ending in a map suffix (`_local`, `_d`, `_s`, `_h`, …) the `_d` variant
 * and the bare name of its stem are tried. Empty for an empty shader.
 */
export function md5ShaderImageCandidates(shader: string): string[] {
  const base = stripImageExtension(baseName(shader.trim()));
  if (base.length === 0) return [];
  const out = [base, `${base}_d`];
  const stem = base.replace(MAP_SUFFIX, '');
  if (stem !== base && stem.length > 0) out.push(`${stem}_d`, stem);
  return [...new Set(out)];
}

/**
 * The name in `imageNames` (file names, any directories ignored, case-insensitive) that best matches
 * `shader`: candidate base names of {@link md5ShaderImageCandidates} in order, each with the extensions of
 * {@link MD5_IMAGE_EXTENSIONS} in order. Null when none matches.
 */
export function resolveMd5ShaderImage(shader: string, imageNames: readonly string[]): string | null {
  const byLowerName = new Map<string, string>();
  for (const name of imageNames) {
    const key = baseName(name).toLowerCase();
    if (!byLowerName.has(key)) byLowerName.set(key, name);
  }
  for (const candidate of md5ShaderImageCandidates(shader)) {
    for (const ext of MD5_IMAGE_EXTENSIONS) {
      const found = byLowerName.get(`${candidate}${ext}`.toLowerCase());
      if (found !== undefined) return found;
    }
  }
  return null;
}

/** MIME type from an image file name: `image/png`, `image/jpeg`, `image/x-tga`; `application/octet-stream` otherwise. */
export function imageMimeType(fileName: string): string {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.png')) return 'image/png';
  if (lower.endsWith('.jpg') || lower.endsWith('.jpeg')) return 'image/jpeg';
  if (lower.endsWith('.tga')) return 'image/x-tga';
  return 'application/octet-stream';
}
