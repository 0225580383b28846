/**
 * The files `<sinew-viewer>`'s `toVideo` writes, by MIME type: WebM and MP4 through WebCodecs and mediabunny,
 * animated PNG through upng-js, GIF through gifenc. The encoders are loaded on first use (dynamic `import()`), so
 * the element's main chunk carries none of them.
 */

/** The MIME types `toVideo` writes, the default first. */
export const VIDEO_MIME_TYPES = ['video/webm', 'video/mp4', 'image/apng', 'image/gif'] as const;

/** One of {@link VIDEO_MIME_TYPES}. */
export type VideoMimeType = (typeof VIDEO_MIME_TYPES)[number];

/** Whether `type` is one of {@link VIDEO_MIME_TYPES} (exactly; no parameters such as `;codecs=`). */
export function isVideoMimeType(type: string): type is VideoMimeType {
  return (VIDEO_MIME_TYPES as readonly string[]).includes(type);
}

/** Whether `type` is encoded through WebCodecs (`VideoEncoder`), which the browser must have. */
export function needsWebCodecs(type: VideoMimeType): boolean {
  return type === 'video/webm' || type === 'video/mp4';
}
