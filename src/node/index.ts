/**
 * `sinew-gl/node`: Sinew's node-only API (it imports `node:fs`; never import it into a browser bundle). The
 * browser-safe API is the package root, `sinew-gl`.
 */
export { loadModelFromPath, type LoadModelFromPathOptions } from './load-model-from-path.ts';
export { loadClipsFromPath } from './load-clips-from-path.ts';
export { findChromium, CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, type FoundChromium, type ChromiumSource } from './find-chromium.ts';
export { renderModel, RenderModelError, type RenderModelOptions } from './render-model.ts';
export { startFileServer, type FileServer, type FolderRoute } from './file-server.ts';
