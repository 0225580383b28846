import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { startFileServer } from './file-server.ts';
import { sinewPackageRoot } from './package-root.ts';
import { renderPageHtml } from './render-page.ts';
import { findClipIndex, unknownClipHint } from '../animation/find-clip.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { launchRenderBrowser, type RenderBrowser, type RenderPage } from './render-browser.ts';
import { checkRenderOptions, RenderModelError, type RenderModelOptions } from './render-options.ts';
import { isAnimatedFormat, videoMimeTypeOf } from './render-format.ts';
import { bindVideoProgress, recordVideo } from './render-video.ts';

/**
 * One headless Chromium drawing many models in turn (`sinew render a.glb b.glb … --out-dir DIR`): the browser
 * starts once; each `render` opens a page of its own (the model's folder served on a loopback port for it) and
 * closes it, so one model's failure leaves the session usable for the next.
 */
export interface RenderSession {
  /**
   * Draws one model as {@link renderModel} does.
   * @returns PNG bytes, or the animated format's file
   * @throws as renderModel
   */
  render(options: RenderModelOptions): Promise<Uint8Array>;
  /** Closes the browser; idempotent. */
  close(): Promise<void>;
}

/**
 * Node only: starts the browser a {@link RenderSession} draws in.
 * @throws Error when playwright-core or a Chromium is missing, or the browser does not start
 */
export async function openRenderSession(): Promise<RenderSession> {
  const browser = await launchRenderBrowser();
  let closed: Promise<void> | null = null;
  return {
    render: (options) => {
      if (closed) return Promise.reject(new Error('renderModel: the render session is closed'));
      return renderInBrowser(browser, options);
    },
    close: () => (closed ??= browser.close()),
  };
}

/** {@link RenderSession.render}: checks, serves the model's folder, draws it in a new page, closes both. */
async function renderInBrowser(browser: RenderBrowser, options: RenderModelOptions): Promise<Uint8Array> {
  checkRenderOptions(options);
  const model = resolve(options.model);
  if (!existsSync(model)) throw new Error(`${options.model}: no such file`);
  if (options.anim !== undefined && !existsSync(options.anim)) throw new Error(`${options.anim}: no such file`);
  const animKind = options.anim === undefined ? null : /\.md5anim$/i.test(options.anim) ? 'md5anim' : /\.(glb|gltf|vrma)$/i.test(options.anim) ? 'gltf' : 'other';
  if (animKind === 'other') throw new Error(`${options.anim}: --anim takes an .md5anim, .glb, .gltf or .vrma file`);
  // As `sinew eval --anim` (src/cli/load-command-model.ts): the mesh's own anim plays as the file's; anything
  // else is retargeted, through the element's appendAnimations.
  const retarget = animKind === 'gltf' || (animKind === 'md5anim' && modelFormatOf(model) !== 'md5mesh');
  const animUrl = options.anim === undefined ? undefined : `/anim/${encodeURIComponent(basename(options.anim))}`;
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const timeout = options.timeoutMs ?? 120_000;
  const format = options.format ?? 'png';
  const animated = isAnimatedFormat(format);

  const html = renderPageHtml({
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
    { '/': html },
  );
  let tab: RenderPage | null = null;
  try {
    tab = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    const pageErrors: string[] = [];
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    if (animated && options.onProgress) await bindVideoProgress(tab, options.onProgress);
    await tab.goto(`${server.url}/`);
    try {
      await tab.waitForFunction('window.sinewRenderResult !== undefined', undefined, { timeout });
    } catch {
      throw new RenderModelError(`${basename(model)}: not shown after ${timeout / 1000} s${pageErrors.length ? ` (${pageErrors[0]})` : ''}`);
    }
    const result = await tab.evaluate<{ type: string; detail: { message?: string; clips?: string[] } }>('window.sinewRenderResult');
    if (result.type === 'sinew-error') throw new RenderModelError(result.detail.message ?? `${basename(model)}: cannot be shown`);
    // The clip as the element names it, for toVideo: undefined plays what the element shows.
    let shownClip: string | undefined;
    if (retarget) {
      shownClip = await playRetargeted(tab, basename(model), animUrl!, basename(options.anim!), options.clip, options.time ?? 0);
    } else {
      const clips = result.detail.clips ?? [];
      // The element's own rule (findClipIndex): an unknown clip would silently show the first one.
      const index = options.clip === undefined ? undefined : findClipIndex(options.clip, clips);
      if (index === null) throw new RenderModelError(`${basename(model)}: no clip ${JSON.stringify(options.clip)} (${unknownClipHint(options.clip!, clips)})`);
      shownClip = index === undefined ? undefined : index < 0 ? 'rest' : clips[index];
    }
    if (animated) {
      return await recordVideo(tab, basename(model), {
        clip: shownClip, fps: options.fps ?? 30, duration: options.duration, mimeType: videoMimeTypeOf(format), turntable: options.turntable ?? 0,
      });
    }
    await tab.evaluate('document.getElementById("viewer").renderOnce()');
    return await tab.locator('#viewer').screenshot({ omitBackground: options.background === 'transparent', type: 'png' });
  } finally {
    // Both always closed, whichever step failed: a listening server or a live page would keep node running.
    await Promise.allSettled([tab?.close(), server.close()]);
  }
}

/**
 * Adds the clips of the file at `url` (`file`) to the model shown, retargeted (the element's
 * `appendAnimations`), and poses the model at `time` seconds of the one `clip` names among them, as
 * `sinew eval --anim` names it: its name in the file (a clip the element renamed `Walk (walk.glb)`, since the
 * model has a `Walk` of its own, is still `Walk` here) or its index among the file's clips; undefined: the
 * first (the rest pose when the file has none).
 * @returns the clip's name as the element shows it (`rest` for the rest pose)
 * @throws RenderModelError with the element's message (`RETARGET_NO_MATCH`, …), or for an unknown clip
 */
async function playRetargeted(tab: RenderPage, model: string, url: string, file: string, clip: string | undefined, time: number): Promise<string> {
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
  return name;
}
