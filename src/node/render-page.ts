/** What {@link renderPageHtml} puts on the page: the `<sinew-viewer>` attributes, already as URLs and strings. */
export interface RenderPageOptions {
  /** URL of the model (served next to the page). */
  src: string;
  /** URL of the `.md5anim`, or undefined for the element's default. */
  anim?: string;
  /** Clip name or index (the `animation-name` attribute); undefined: the first clip. */
  clip?: string;
  /** Seconds into the clip (the element is paused there). */
  time: number;
  /** CSS pixels. */
  width: number;
  height: number;
  /** Degrees about +Y from the model's front (`camera-orbit`'s θ); undefined: its default, 0. */
  yaw?: number;
  /** Degrees above the horizon (90° − `camera-orbit`'s φ); undefined: its default, 15 (φ = 75°). */
  pitch?: number;
  /** Multiple of the framed distance (`camera-orbit`'s radius in %); undefined: its default, 1.05. */
  distance?: number;
  /** CSS colour or `transparent`; undefined: the element's default. */
  background?: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The page `sinew render` opens: one `<sinew-viewer>` filling a `width × height` viewport (its defaults:
 * model-viewer's framing and `neutral` light; `--yaw`/`--pitch`/`--distance` become its `camera-orbit`), loaded from
 * `/sinew-viewer.js`. A listener installed before the element exists records the first `sinew-load` or
 * `sinew-error` in `window.sinewRenderResult`, so neither can be missed.
 */
export function renderPageHtml(options: RenderPageOptions): string {
  const { yaw, pitch, distance } = options;
  const orbit = yaw === undefined && pitch === undefined && distance === undefined ? undefined
    : `${yaw === undefined ? 'auto' : `${yaw}deg`} ${pitch === undefined ? 'auto' : `${90 - pitch}deg`} ${distance === undefined ? 'auto' : `${100 * distance}%`}`;
  // The radius asked for is the radius drawn: model-viewer's automatic limits would clamp it (105 % at most).
  const radius = distance === undefined ? undefined : `auto auto ${100 * distance}%`;
  const attributes: [string, string | number | undefined][] = [
    ['src', options.src], ['anim', options.anim], ['animation-name', options.clip], ['time', options.time],
    ['camera-orbit', orbit], ['min-camera-orbit', radius], ['max-camera-orbit', radius], ['background', options.background],
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
