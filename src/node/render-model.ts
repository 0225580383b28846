import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE, findChromium } from './find-chromium.ts';
import { startFileServer } from './file-server.ts';
import { sinewPackageRoot } from './package-root.ts';
import { renderPageHtml } from './render-page.ts';
import { findClipIndex, unknownClipHint } from '../animation/find-clip.ts';
import { importOptional } from './import-optional.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { messageOf } from '../errors/message-of.ts';

/** What {@link renderModel} draws. */
export interface RenderModelOptions {
  /** Path of a `.glb`, `.gltf`, `.vrm` or `.md5mesh` file; files it names are read from its folder. */
  model: string;
  /**
   * Clips to play, as `sinew eval --anim` takes them: an `.md5anim` for an `.md5mesh` (its own skeleton; default:
   * `<name>.md5anim` next to the mesh, if present), or a `.glb` / `.gltf` (or an `.md5anim` for a glTF) whose
   * clips are retargeted onto the model by joint name (README "Clips from other files") and replace its own
   * for `clip`.
   */
  anim?: string;
  /**
   * Clip name or 0-based index; `rest` or `-1` for the rest pose; undefined: the first clip. With retargeted
   * `anim` clips, one of theirs, by the name `sinew eval --anim` gives it.
   */
  clip?: string;
  /** Seconds into the clip, default 0 (clamped to the clip like the element's `seek`). */
  time?: number;
  /** Picture size in pixels, default 640 × 480. */
  width?: number;
  height?: number;
  /** Camera yaw and pitch in degrees, and distance as a multiple of the framing distance. */
  yaw?: number;
  pitch?: number;
  distance?: number;
  /** CSS colour, or `transparent` for a PNG with alpha; default the viewer's background. */
  background?: string;
  /** Milliseconds to wait for the model to load, default 120 000. */
  timeoutMs?: number;
}

/** Thrown by {@link renderModel} when the model cannot be shown: `message` is the loader's, naming the file. */
export class RenderModelError extends Error {
  override name = 'RenderModelError';
}

interface Browser {
  newPage(options: object): Promise<Page>;
  close(): Promise<void>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  waitForFunction(fn: string, arg: undefined, options: { timeout: number }): Promise<unknown>;
  evaluate<T>(fn: string): Promise<T>;
  locator(selector: string): { screenshot(options: { omitBackground: boolean; type: 'png' }): Promise<Uint8Array> };
  on(event: 'pageerror', listener: (error: Error) => void): void;
}

/** playwright-core, an optional peer dependency: imported only here, with a message saying what to add. */
async function importPlaywright(): Promise<{ chromium: { launch(options: object): Promise<Browser> } }> {
  const playwright = await importOptional<{ chromium: { launch(options: object): Promise<Browser> } }>(['playwright', 'core'].join('-'));
  if (!playwright) throw new Error('sinew render needs playwright-core and a Chromium: `npm install --save-dev playwright-core @sparticuz/chromium`');
  return playwright;
}

/**
 * Node only: draws a model with `<sinew-viewer>` (the same renderer and shaders as in a page) in headless
 * Chromium, found by `findChromium`, and returns the PNG. The model's folder is served on a loopback port for
 * the browser to fetch the model's own files from; nothing outside it (and the `--anim` file) is reachable.
 *
 * @returns PNG bytes of `width × height` pixels (RGBA when `background` is `transparent`)
 * @throws RenderModelError with the loader's message (naming the file) when the model or the `anim` clips cannot
 *   be shown (`RETARGET_NO_MATCH`, …), or an unknown clip (with a "did you mean"); Error when no browser or
 *   playwright-core is installed, a file does not exist, or `anim` is no `.md5anim`, `.glb`, `.gltf` or `.vrma`; RangeError for a size outside [1, 8192] pixels, a non-finite
 *   time or camera value, or a timeout that is not a positive number
 */
export async function renderModel(options: RenderModelOptions): Promise<Uint8Array> {
  const model = resolve(options.model);
  if (!existsSync(model)) throw new Error(`${options.model}: no such file`);
  if (options.anim !== undefined && !existsSync(options.anim)) throw new Error(`${options.anim}: no such file`);
  const animKind = options.anim === undefined ? null : /\.md5anim$/i.test(options.anim) ? 'md5anim' : /\.(glb|gltf|vrma)$/i.test(options.anim) ? 'gltf' : 'other';
  if (animKind === 'other') throw new Error(`${options.anim}: --anim takes an .md5anim, .glb, .gltf or .vrma file`);
  // As `sinew eval --anim` (src/cli/load-command-model.ts): the mesh's own anim plays as the file's; anything
  // else is retargeted, through the element's appendAnimations.
  const retarget = animKind === 'gltf' || (animKind === 'md5anim' && modelFormatOf(model) !== 'md5mesh');
  const animUrl = options.anim === undefined ? undefined : `/anim/${encodeURIComponent(basename(options.anim))}`;
  const width = checkPixels('width', options.width ?? 640);
  const height = checkPixels('height', options.height ?? 480);
  const timeout = options.timeoutMs ?? 120_000;
  if (!(timeout > 0) || !Number.isFinite(timeout)) throw new RangeError(`renderModel: timeoutMs must be a positive number of milliseconds, got ${timeout}`);
  for (const key of ['time', 'yaw', 'pitch', 'distance'] as const) {
    const value = options[key];
    if (value !== undefined && !Number.isFinite(value)) throw new RangeError(`renderModel: ${key} must be a finite number, got ${value}`);
  }

  const { chromium } = await importPlaywright();
  const found = await findChromium();
  if (!found) throw new Error(NO_CHROMIUM_MESSAGE);

  const page = renderPageHtml({
    src: `/model/${encodeURIComponent(basename(model))}`,
    anim: retarget ? undefined : animUrl,
    clip: retarget ? undefined : options.clip,
    time: options.time ?? 0,
    width,
    height,
    yaw: options.yaw,
    pitch: options.pitch,
    distance: options.distance,
    background: options.background,
  });
  // The standalone element's folder: sinew-viewer.js and the decoder chunks it fetches from beside itself.
  const standalone = join(sinewPackageRoot(import.meta.url), 'dist/standalone');
  const server = await startFileServer(
    [
      { prefix: '/model/', folder: dirname(model) },
      ...(options.anim === undefined ? [] : [{ prefix: '/anim/', folder: dirname(resolve(options.anim)) }]),
      { prefix: '/', folder: standalone },
    ],
    { '/': page },
  );
  let browser: Browser | null = null;
  try {
    try {
      browser = await chromium.launch({ executablePath: found.executablePath, args: [...CHROMIUM_ARGS], headless: true });
    } catch (error) {
      // Playwright's launch error carries its whole browser log; its first line says what happened.
      const firstLine = messageOf(error).split('\n')[0];
      throw new Error(`could not start Chromium at ${found.executablePath} (${found.source}): ${firstLine}`, { cause: error });
    }
    const tab = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    const pageErrors: string[] = [];
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    await tab.goto(`${server.url}/`);
    try {
      await tab.waitForFunction('window.sinewRenderResult !== undefined', undefined, { timeout });
    } catch {
      throw new RenderModelError(`${basename(model)}: not shown after ${timeout / 1000} s${pageErrors.length ? ` (${pageErrors[0]})` : ''}`);
    }
    const result = await tab.evaluate<{ type: string; detail: { message?: string; clips?: string[] } }>('window.sinewRenderResult');
    if (result.type === 'sinew-error') throw new RenderModelError(result.detail.message ?? `${basename(model)}: cannot be shown`);
    if (retarget) {
      await playRetargeted(tab, basename(model), animUrl!, basename(options.anim!), options.clip, options.time ?? 0);
    } else {
      const clips = result.detail.clips ?? [];
      // The element's own rule (findClipIndex): an unknown clip would silently show the first one.
      if (options.clip !== undefined && findClipIndex(options.clip, clips) === null) {
        throw new RenderModelError(`${basename(model)}: no clip ${JSON.stringify(options.clip)} (${unknownClipHint(options.clip, clips)})`);
      }
    }
    await tab.evaluate('document.getElementById("viewer").renderOnce()');
    return await tab.locator('#viewer').screenshot({ omitBackground: options.background === 'transparent', type: 'png' });
  } finally {
    // Both always closed, whichever step failed: a listening server or a live browser would keep node running.
    await Promise.allSettled([browser?.close(), server.close()]);
  }
}

/**
 * Adds the clips of the file at `url` (`file`) to the model shown, retargeted (the element's
 * `appendAnimations`), and poses the model at `time` seconds of the one `clip` names among them, as
 * `sinew eval --anim` names it: its name in the file (a clip the element renamed `Walk (walk.glb)`, since the
 * model has a `Walk` of its own, is still `Walk` here) or its index among the file's clips; undefined: the
 * first (the rest pose when the file has none).
 * @throws RenderModelError with the element's message (`RETARGET_NO_MATCH`, …), or for an unknown clip
 */
async function playRetargeted(tab: Page, model: string, url: string, file: string, clip: string | undefined, time: number): Promise<void> {
  const added = await tab.evaluate<{ names?: string[]; error?: string }>(
    `document.getElementById("viewer").appendAnimations(${JSON.stringify(url)}).then((names) => ({ names: [...names] }), (e) => ({ error: String(e && e.message || e) }))`,
  );
  if (added.error !== undefined || !added.names) throw new RenderModelError(added.error ?? `${file}: its clips could not be added to ${model}`);
  const shown = added.names;
  const suffix = ` (${file})`;
  const asNamed = shown.map((name) => {
    const at = name.lastIndexOf(suffix);
    return at > 0 && /^( \d+)?$/.test(name.slice(at + suffix.length)) ? name.slice(0, at) : name;
  });
  const index = clip === undefined ? (shown.length > 0 ? 0 : -1) : findClipIndex(clip, asNamed);
  if (index === null) throw new RenderModelError(`${model}: no clip ${JSON.stringify(clip)} (${unknownClipHint(clip!, asNamed)})`);
  const name = index < 0 ? 'rest' : shown[index];
  // No crossfade: the picture is of that clip alone, at that time (a time change seeks and pauses).
  await tab.evaluate(`(() => {
    const viewer = document.getElementById("viewer");
    viewer.setAttribute("animation-crossfade-duration", "0");
    viewer.setAttribute("animation-name", ${JSON.stringify(name)});
    viewer.setAttribute("time", ${JSON.stringify(String(time))});
  })()`);
}

/** A picture dimension: a whole number of pixels in [1, 8192]. @throws RangeError otherwise */
function checkPixels(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 8192) throw new RangeError(`renderModel: ${name} must be a whole number of pixels from 1 to 8192, got ${value}`);
  return value;
}
