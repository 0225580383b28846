import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { quietPeriod } from '../helpers/page-turns.ts';
import { recordGlContexts } from '../helpers/gl-counter.ts';

// <sinew-viewer>'s loading under <model-viewer>'s names: the `load`, `error` and `progress` events (beside the
// sinew-* aliases), `loaded`, `modelIsVisible` with `model-visibility`, and `reveal="auto|manual"` with
// `dismissPoster()` / `showPoster()` and `poster-dismissed`.

const PAGE = '/tests/browser/pages/empty-page.html';
const FOX = '/shared/assets/gltf/Fox.glb';
const POSTER = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="4" height="2" fill="#c33"/></svg>');

type Viewer = HTMLElementTagNameMap['sinew-viewer'];
interface Heard { id: string; type: string; detail: Record<string, unknown> | null }
type TestWindow = Window & { __heard: Heard[] };

const EVENTS = ['load', 'error', 'progress', 'sinew-load', 'sinew-error', 'sinew-progress', 'model-visibility', 'poster-dismissed'];

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  await page.addInitScript((types) => {
    const heard: unknown[] = [];
    (window as unknown as { __heard: unknown[] }).__heard = heard;
    for (const type of types) {
      document.addEventListener(type, (e) => {
        // The `load` / `error` of images and scripts do not bubble to the document; the element's do.
        if (!(e.target instanceof HTMLElement) || e.target.localName !== 'sinew-viewer') return;
        let detail = (e as CustomEvent).detail ?? null;
        if (detail && 'sourceError' in detail) {
          const source = detail.sourceError;
          detail = { ...detail, sourceError: source instanceof Error ? `Error: ${source.message}` : String(source) };
        }
        if (detail && 'clips' in detail) detail = { model: detail.model };
        heard.push({ id: e.target.id, type, detail });
      });
    }
  }, EVENTS);
});

/** The events heard from `#id` (all elements when absent) since the last call, which forgets them. */
async function take(page: Page, id?: string): Promise<Heard[]> {
  return page.evaluate((id) => {
    const w = window as unknown as TestWindow;
    const all = w.__heard.splice(0);
    const rest = id ? all.filter((h) => h.id !== id) : [];
    w.__heard.push(...rest);
    return id ? all.filter((h) => h.id === id) : all;
  }, id);
}

/** Adds `<sinew-viewer id=ID ...attributes>` to the page. */
async function add(page: Page, id: string, attributes: Record<string, string>, style = ''): Promise<void> {
  await page.evaluate(({ id, attributes, style }) => {
    const el = document.createElement('sinew-viewer');
    el.id = id;
    el.setAttribute('style', style);
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
    document.body.append(el);
  }, { id, attributes, style });
}

/** `loaded`, `modelIsVisible`, whether the poster and canvas show, and the model's name, of `#id`. */
async function stateOf(page: Page, id: string): Promise<{ loaded: boolean; visible: boolean; poster: boolean; canvas: boolean; model: string }> {
  return page.evaluate((id) => {
    const el = document.getElementById(id) as Viewer;
    const poster = el.shadowRoot!.querySelector('img.poster') as HTMLImageElement;
    const canvas = el.shadowRoot!.querySelector('canvas');
    return {
      loaded: el.loaded, visible: el.modelIsVisible, poster: !poster.hidden,
      canvas: !!canvas && getComputedStyle(canvas).visibility === 'visible', model: el.model,
    };
  }, id);
}

test('load, progress and error (model-viewer names and details) beside the sinew-* aliases; loaded, modelIsVisible, model-visibility', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await recordGlContexts(page);
  await page.goto(PAGE);
  await add(page, 'fox', { src: FOX, time: '0' });
  expect(await stateOf(page, 'fox')).toMatchObject({ loaded: false, visible: false });
  await page.waitForFunction(() => (document.getElementById('fox') as Viewer).loaded, undefined, { timeout: 120_000 });
  expect(await stateOf(page, 'fox')).toEqual({ loaded: true, visible: true, poster: false, canvas: true, model: 'Fox.glb' });

  const first = await take(page, 'fox');
  const progress = first.filter((h) => h.type === 'progress').map((h) => h.detail as { totalProgress: number; reason: string });
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress[0]).toEqual({ totalProgress: 0, reason: 'model-load' });
  expect(progress[progress.length - 1]).toEqual({ totalProgress: 1, reason: 'model-load' });
  for (let i = 1; i < progress.length; i++) expect(progress[i].totalProgress).toBeGreaterThanOrEqual(progress[i - 1].totalProgress);
  expect(progress.every((p) => p.reason === 'model-load' && p.totalProgress >= 0 && p.totalProgress <= 1)).toBe(true);
  expect(first.some((h) => h.type === 'sinew-progress')).toBe(true);
  const others = first.filter((h) => h.type !== 'progress' && h.type !== 'sinew-progress');
  expect(others).toEqual([
    { id: 'fox', type: 'sinew-load', detail: { model: 'Fox.glb' } },
    { id: 'fox', type: 'poster-dismissed', detail: null },
    { id: 'fox', type: 'model-visibility', detail: { visible: true } },
    { id: 'fox', type: 'load', detail: { url: FOX, warnings: [] } },
  ]);

  // A src that fails: loaded at once false (the Fox stays on screen), then `error` with model-viewer's detail.
  const afterChange = await page.evaluate(() => {
    const el = document.getElementById('fox') as Viewer;
    el.setAttribute('src', '/missing/nothing.glb');
    return { loaded: el.loaded, visible: el.modelIsVisible };
  });
  expect(afterChange).toEqual({ loaded: false, visible: false });
  await page.waitForFunction(() => (window as unknown as TestWindow).__heard.some((h) => h.type === 'error'), undefined, { timeout: 60_000 });
  const failed = await take(page, 'fox');
  const error = failed.find((h) => h.type === 'error')!;
  expect(error.detail).toEqual({ type: 'loadfailure', sourceError: expect.stringMatching(/^Error: .*nothing\.glb/) });
  expect(failed.find((h) => h.type === 'sinew-error')!.detail).toEqual({ message: expect.stringMatching(/nothing\.glb/) });
  expect(failed.filter((h) => h.type === 'model-visibility')).toEqual([{ id: 'fox', type: 'model-visibility', detail: { visible: false } }]);
  expect(failed.filter((h) => h.type === 'progress').map((h) => h.detail!.totalProgress)).toEqual([0, 1]);
  expect(failed.some((h) => h.type === 'load')).toBe(false);
  expect(await stateOf(page, 'fox')).toMatchObject({ loaded: false, visible: false, model: 'Fox.glb' });

  // Far below the viewport: loaded (loading="auto" loads at once) but not visible until scrolled to.
  await add(page, 'far', { src: FOX, time: '0' }, 'display: block; margin-top: 3000px');
  await page.waitForFunction(() => (document.getElementById('far') as Viewer).loaded, undefined, { timeout: 120_000 });
  expect(await stateOf(page, 'far')).toMatchObject({ loaded: true, visible: false });
  expect((await take(page, 'far')).some((h) => h.type === 'model-visibility')).toBe(false);
  await page.evaluate(() => document.getElementById('far')!.scrollIntoView());
  await page.waitForFunction(() => (document.getElementById('far') as Viewer).modelIsVisible);
  expect((await take(page, 'far')).filter((h) => h.type === 'model-visibility')).toEqual([{ id: 'far', type: 'model-visibility', detail: { visible: true } }]);

  // The shared context lost: `error` with type webglcontextlost on each element, besides what sinew-* said before.
  await page.evaluate(() => {
    const gl = (window as unknown as { __contexts: WebGL2RenderingContext[] }).__contexts[0];
    gl.getExtension('WEBGL_lose_context')!.loseContext();
  });
  await page.waitForFunction(() => (window as unknown as TestWindow).__heard.filter((h) => h.type === 'error').length >= 2);
  const lost = (await take(page)).filter((h) => h.type === 'error');
  expect(lost.map((h) => h.id).sort()).toEqual(['far', 'fox']);
  for (const h of lost) expect(h.detail).toEqual({ type: 'webglcontextlost', sourceError: 'Error: The browser lost the WebGL context' });
  expect(errors).toEqual([]);
});

test('reveal="manual": the poster stays and nothing is fetched until dismissPoster(); showPoster() hides the model again', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  const body = readFileSync(`${SHARED_ASSETS}/gltf/Fox.glb`);
  const fetched: string[] = [];
  await page.route('**/counted/*.glb', (route) => {
    fetched.push(new URL(route.request().url()).pathname);
    return route.fulfill({ body, contentType: 'model/gltf-binary' });
  });
  await page.goto(PAGE);
  await add(page, 'manual', { src: '/counted/manual.glb', reveal: 'manual', poster: POSTER, time: '0' });
  await quietPeriod(page, 1000); // a load that does not wait for dismissPoster() would be fetching by now
  expect(fetched).toEqual([]);
  expect(await stateOf(page, 'manual')).toEqual({ loaded: false, visible: false, poster: true, canvas: false, model: '' });
  expect(await page.evaluate(() => (document.getElementById('manual') as Viewer).reveal)).toBe('manual');

  await page.evaluate(() => (document.getElementById('manual') as Viewer).dismissPoster());
  await page.waitForFunction(() => (document.getElementById('manual') as Viewer).loaded, undefined, { timeout: 120_000 });
  expect(fetched).toEqual(['/counted/manual.glb']);
  expect(await stateOf(page, 'manual')).toEqual({ loaded: true, visible: true, poster: false, canvas: true, model: 'manual.glb' });
  const revealed = (await take(page, 'manual')).filter((h) => h.type === 'poster-dismissed' || h.type === 'model-visibility');
  expect(revealed.map((h) => [h.type, h.detail])).toEqual([['poster-dismissed', null], ['model-visibility', { visible: true }]]);

  await page.evaluate(() => (document.getElementById('manual') as Viewer).showPoster());
  expect(await stateOf(page, 'manual')).toEqual({ loaded: true, visible: false, poster: true, canvas: false, model: 'manual.glb' });
  await page.evaluate(() => (document.getElementById('manual') as Viewer).dismissPoster());
  expect(await stateOf(page, 'manual')).toEqual({ loaded: true, visible: true, poster: false, canvas: true, model: 'manual.glb' });
  const toggled = (await take(page, 'manual')).filter((h) => h.type === 'poster-dismissed' || h.type === 'model-visibility');
  expect(toggled.map((h) => [h.type, h.detail])).toEqual([
    ['model-visibility', { visible: false }], ['poster-dismissed', null], ['model-visibility', { visible: true }],
  ]);

  // loading="eager": fetched and loaded at once, still behind the poster; reveal="auto" then shows it.
  await add(page, 'eager', { src: '/counted/eager.glb', reveal: 'manual', loading: 'eager', poster: POSTER, time: '0' });
  await page.waitForFunction(() => (document.getElementById('eager') as Viewer).loaded, undefined, { timeout: 120_000 });
  expect(await stateOf(page, 'eager')).toEqual({ loaded: true, visible: false, poster: true, canvas: false, model: 'eager.glb' });
  await page.evaluate(() => document.getElementById('eager')!.setAttribute('reveal', 'auto'));
  expect(await stateOf(page, 'eager')).toEqual({ loaded: true, visible: true, poster: false, canvas: true, model: 'eager.glb' });

  // A malformed value: a console warning and sinew-error naming it, and `auto`.
  await take(page);
  await add(page, 'bad', { src: '/counted/bad.glb', reveal: 'sideways', time: '0' });
  await page.waitForFunction(() => (document.getElementById('bad') as Viewer).loaded, undefined, { timeout: 120_000 });
  expect(await stateOf(page, 'bad')).toMatchObject({ loaded: true, visible: true, canvas: true });
  const message = '<sinew-viewer reveal="sideways">: expected auto or manual';
  expect((await take(page, 'bad')).filter((h) => h.type === 'sinew-error')).toEqual([{ id: 'bad', type: 'sinew-error', detail: { message } }]);
  expect(warnings).toContain(`sinew-viewer: ${message}`);
  await page.screenshot({ path: 'test-results/element-reveal.png' });
  expect(errors).toEqual([]);
});
