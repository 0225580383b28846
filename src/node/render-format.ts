import { extname } from 'node:path';

/**
 * What `sinew render` writes: `png` a still picture; `apng`, `gif`, `webm`, `mp4` an animated preview, posed by
 * time (frame k at k / fps seconds), encoded in the page by `<sinew-viewer>`'s `toVideo`.
 */
export type RenderFormat = 'png' | 'apng' | 'gif' | 'webm' | 'mp4';

/** Every {@link RenderFormat}, in the order help texts list them. */
export const RENDER_FORMATS: readonly RenderFormat[] = ['png', 'apng', 'gif', 'webm', 'mp4'];

/** The MIME type `toVideo` takes for each animated format (its `mimeType` option). */
const VIDEO_MIME_TYPES: Readonly<Record<Exclude<RenderFormat, 'png'>, string>> = {
  apng: 'image/apng', gif: 'image/gif', webm: 'video/webm', mp4: 'video/mp4',
};

/** Whether `value` names a {@link RenderFormat} (lower case, as `--format` takes it). */
export function isRenderFormat(value: string): value is RenderFormat {
  return (RENDER_FORMATS as readonly string[]).includes(value);
}

/**
 * The format a file name asks for by its extension, case-insensitive: `.png`, `.apng`, `.gif`, `.webm`,
 * `.mp4`; null for any other extension (or none).
 */
export function renderFormatOfPath(path: string): RenderFormat | null {
  const extension = extname(path).slice(1).toLowerCase();
  return isRenderFormat(extension) ? extension : null;
}

/** Whether the format is animated (written through `toVideo`) rather than a still PNG. */
export function isAnimatedFormat(format: RenderFormat): format is Exclude<RenderFormat, 'png'> {
  return format !== 'png';
}

/** The `toVideo` `mimeType` of an animated format. */
export function videoMimeTypeOf(format: Exclude<RenderFormat, 'png'>): string {
  return VIDEO_MIME_TYPES[format];
}
