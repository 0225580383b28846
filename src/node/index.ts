/**
 * `sinew-gl/node`: Sinew's node-only API (it imports `node:fs`; never import it into a browser bundle). The
 * browser-safe API is the package root, `sinew-gl`.
 */

// Reading a model, or clips for it, from disk: the node counterparts of `loadModelFromUrl` and `loadClipsFromUrl`.
export { loadModelFromPath, type LoadModelFromPathOptions } from './load-model-from-path.ts';
export { loadClipsFromPath } from './load-clips-from-path.ts';

// A PNG or an animated preview (APNG, GIF, WebM, MP4) of a model through headless Chromium (what `sinew render`
// runs), many models in one browser through a session, and the Chromium it finds, with the launch arguments it
// needs without a GPU, for a page's own screenshot tests.
export { renderModel } from './render-model.ts';
export { RenderModelError, type RenderModelOptions } from './render-options.ts';
export { openRenderSession, type RenderSession } from './render-session.ts';
export { RENDER_FORMATS, renderFormatOfPath, type RenderFormat } from './render-format.ts';
export { findChromium, CHROMIUM_ARGS, type FoundChromium, type ChromiumSource } from './find-chromium.ts';
