/** What {@link renderPageHtml} puts on the page: the `<sinew-viewer>` attributes, already as URLs and strings. */
export interface RenderPageOptions {
  /** URL of the model (served next to the page). */
  src: string;
  /** URL of the `.md5anim`, or undefined for the element's default. */
  anim?: string;
  /** Clip name or index; undefined: the first clip. */
  clip?: string;
  /** Seconds into the clip (the element is paused there). */
  time: number;
  /** CSS pixels. */
  width: number;
  height: number;
  /** Degrees; undefined: the element's defaults. */
  yaw?: number;
  pitch?: number;
  /** Multiple of the distance that frames the whole model. */
  distance?: number;
  /** CSS colour or `transparent`; undefined: the element's default. */
  background?: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The page `sinew render` opens: one `<sinew-viewer>` filling a `width × height` viewport, loaded from
 * `/sinew-viewer.js`. A listener installed before the element exists records the first `sinew-load` or
 * `sinew-error` in `window.sinewRenderResult`, so neither can be missed.
 */
export function renderPageHtml(options: RenderPageOptions): string {
  const attributes: [string, string | number | undefined][] = [
    ['src', options.src], ['anim', options.anim], ['clip', options.clip], ['time', options.time],
    ['yaw', options.yaw], ['pitch', options.pitch], ['distance', options.distance], ['background', options.background],
  ];
  const list = attributes
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sinew render</title>
<style>html, body { margin: 0; background: transparent; } sinew-viewer { display: block; width: ${options.width}px; height: ${options.height}px; }</style>
<script>
  for (const type of ['sinew-load', 'sinew-error']) {
    document.addEventListener(type, (event) => { window.sinewRenderResult ??= { type, detail: event.detail }; });
  }
</script>
<script type="module" src="/sinew-viewer.js"></script>
</head><body><sinew-viewer id="viewer"${list}></sinew-viewer></body></html>
`;
}
