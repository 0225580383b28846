import { openRenderSession } from './render-session.ts';
import { checkRenderOptions, type RenderModelOptions } from './render-options.ts';

/**
 * Node only: draws a model with `<sinew-viewer>` (the same renderer and shaders as in a page) in headless
 * Chromium, found by `findChromium`, and returns the PNG, or with an animated `format` the preview `toVideo`
 * encodes in the page. The model's folder is served on a loopback port for the browser to fetch the model's own
 * files from; nothing outside it (and the `--anim` file) is reachable. Many models: `openRenderSession`, one
 * browser for all.
 *
 * @returns PNG bytes of `width × height` pixels (RGBA when `background` is `transparent`), or the APNG, GIF,
 *   WebM or MP4 file's bytes
 * @throws RenderModelError with the loader's message (naming the file) when the model or the `anim` clips cannot
 *   be shown (`RETARGET_NO_MATCH`, …), or an unknown clip (with a "did you mean"); Error when no browser or
 *   playwright-core is installed, a file does not exist, `anim` is no `.md5anim`, `.glb`, `.gltf` or `.vrma`, or
 *   the element cannot encode the format (its message); RangeError from `checkRenderOptions` (a size outside
 *   [1, 8192] pixels, a non-finite time or camera value, a non-positive timeout, fps or duration, …)
 */
export async function renderModel(options: RenderModelOptions): Promise<Uint8Array> {
  checkRenderOptions(options); // before a browser starts
  const session = await openRenderSession();
  try {
    return await session.render(options);
  } finally {
    await session.close();
  }
}
