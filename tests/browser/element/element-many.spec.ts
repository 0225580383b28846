import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';
import { quietPeriod } from '../helpers/page-turns.ts';
import { recordGlContexts } from '../helpers/gl-counter.ts';
import { quadWithTranslation } from '../../unit/helpers/gltf-builder.ts';

// Many <sinew-viewer> elements on one page (tests/browser/pages/many-viewers.html): one shared WebGL2 context,
// one frame loop that leaves elements out of view alone, and loading="lazy".

const PAGE = '/tests/browser/pages/many-viewers.html';
const CESIUM_MAN = '/shared/assets/gltf/CesiumMan.glb';

type Viewer = HTMLElementTagNameMap['sinew-viewer'];
type TestWindow = Window & { __contexts: WebGL2RenderingContext[]; __events: { id: string; type: string }[] };

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  await recordGlContexts(page);
  await page.addInitScript(() => {
    // Every load / sinew-error.
    const events: unknown[] = [];
    (window as unknown as { __events: unknown[] }).__events = events;
    for (const type of ['load', 'sinew-error']) {
      document.addEventListener(type, (e) => events.push({ id: (e.target as HTMLElement).id, type }));
    }
  });
});

/** Every console message of the page (any level), from now on. */
function collectConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (msg) => messages.push(`${msg.type()}: ${msg.text()}`));
  return messages;
}

/** Fraction of `#id`'s canvas pixels that are not transparent (frames are cleared to transparent). */
async function coverageOf(page: Page, ids: string[]): Promise<number[]> {
  return page.evaluate((ids) => ids.map((id) => {
    const canvas = (document.getElementById(id) as Viewer).shadowRoot!.querySelector('canvas')!;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn++;
    return drawn / (canvas.width * canvas.height);
  }), ids);
}

test('50 elements on one page share one WebGL2 context and all draw, with no context warnings', async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const errors = collectErrors(page);
  const messages = collectConsole(page);
  await page.goto(`${PAGE}?n=50&src=${CESIUM_MAN}`);
  await page.waitForFunction(() => [...document.querySelectorAll('sinew-viewer')].every((el) => el.model !== ''), undefined, { timeout: 240_000 });

  const ids = Array.from({ length: 50 }, (_, i) => `v${i}`);
  const state = await page.evaluate(() => {
    const w = window as unknown as TestWindow;
    const viewers = [...document.querySelectorAll('sinew-viewer')];
    return {
      count: viewers.length,
      models: [...new Set(viewers.map((el) => el.model))],
      contexts: w.__contexts.length,
      lost: w.__contexts.map((gl) => gl.isContextLost()),
      loads: w.__events.filter((e) => e.type === 'load').length,
      errors: w.__events.filter((e) => e.type === 'sinew-error').length,
      inView: viewers.every((el) => el.getBoundingClientRect().bottom <= innerHeight),
    };
  });
  expect(state).toEqual({ count: 50, models: ['CesiumMan.glb'], contexts: 1, lost: [false], loads: 50, errors: 0, inView: true });

  // Each element's canvas holds a frame of its own (shown by the loop and by the load itself).
  const coverage = await coverageOf(page, ids);
  expect(coverage.filter((c) => c < 0.02), JSON.stringify(coverage)).toEqual([]);

  // The one frame loop keeps them all playing: every clock moves on.
  const before = await page.evaluate(() => [...document.querySelectorAll('sinew-viewer')].map((el) => el.currentTime));
  await page.waitForFunction((before) => [...document.querySelectorAll('sinew-viewer')].every((el, i) => el.currentTime !== before[i]), before, { timeout: 120_000 });

  expect(messages.filter((m) => /too many active webgl contexts|context lost|CONTEXT_LOST/i.test(m))).toEqual([]);
  expect(errors).toEqual([]);
});

test('the console gets each loader warning once per page and model URL; every element\'s sinew-load (deprecated alias of load, the one event with the warnings) lists it', async ({ page }) => {
  const errors = collectErrors(page);
  const messages = collectConsole(page);
  // A lenient file: one warning (an extension it uses but does not require, which Sinew ignores).
  const b = quadWithTranslation([0, 1], [0, 0, 0, 1, 0, 0], 'LINEAR', 2);
  b.json.extensionsUsed = ['EXT_mesh_gpu_instancing'];
  const body = Buffer.from(b.glb());
  await page.route('**/models/lenient.glb*', (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }));
  await page.goto(`${PAGE}?n=0`);
  const warnings = await page.evaluate(() => {
    // Six elements on one URL (one of them relative to the page, which resolves to the same), two on another.
    const sources = ['/models/lenient.glb', '/models/lenient.glb', '/models/lenient.glb', '/models/lenient.glb', '/models/lenient.glb',
      new URL('/models/lenient.glb', location.href).href, '/models/lenient.glb?copy', '/models/lenient.glb?copy'];
    return Promise.all(sources.map((src, i) => new Promise<readonly string[]>((done) => {
      const viewer = document.createElement('sinew-viewer');
      viewer.id = `w${i}`;
      viewer.addEventListener('sinew-load', (e) => done((e as CustomEvent).detail.warnings), { once: true });
      viewer.src = src;
      document.getElementById('grid')!.append(viewer);
    })));
  });
  const expected = 'lenient.glb: uses extension "EXT_mesh_gpu_instancing", not required; ignored';
  expect(warnings).toEqual(Array.from({ length: 8 }, () => [expected]));
  // Re-adding an element shows its model again (load again) without a second console line.
  await page.evaluate(() => new Promise<void>((done) => {
    const viewer = document.getElementById('w0')!;
    viewer.addEventListener('load', () => done(), { once: true });
    viewer.remove();
    document.getElementById('grid')!.append(viewer);
  }));
  expect(messages.filter((m) => m.includes('EXT_mesh_gpu_instancing'))).toEqual([`warning: sinew-viewer: ${expected}`, `warning: sinew-viewer: ${expected}`]);
  expect(errors).toEqual([]);
});

test('an element out of view does not draw or advance; scrolled into view it plays', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await page.goto(`${PAGE}?n=0`);
  await page.evaluate((src) => {
    document.getElementById('grid')!.innerHTML =
      `<sinew-viewer id="top" autoplay src="${src}"></sinew-viewer>` +
      '<div style="height: 3000px; width: 100%"></div>' +
      `<sinew-viewer id="below" autoplay src="${src}"></sinew-viewer>`;
  }, CESIUM_MAN);
  await page.waitForFunction(() => ['top', 'below'].every((id) => (document.getElementById(id) as Viewer).model !== ''), undefined, { timeout: 120_000 });
  // Both play; only the one in view gets frames (its clock moves), the other holds the frame its load drew.
  await page.waitForFunction(() => (document.getElementById('top') as Viewer).currentTime > 0.3, undefined, { timeout: 60_000 });
  const below = await page.evaluate(() => {
    const el = document.getElementById('below') as Viewer;
    return { paused: el.paused, time: el.currentTime };
  });
  expect(below).toEqual({ paused: false, time: 0 });
  expect((await coverageOf(page, ['below']))[0]).toBeGreaterThan(0.02);

  await page.locator('#below').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => (document.getElementById('below') as Viewer).currentTime > 0, undefined, { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test('loading="lazy" elements below the fold do not fetch until scrolled near the viewport; the poster shows until then', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('.glb')) requests.push(new URL(r.url()).search);
  });
  await page.goto(`${PAGE}?n=0`);
  await page.evaluate((src) => {
    document.getElementById('grid')!.innerHTML =
      `<sinew-viewer id="eager" src="${src}?which=eager"></sinew-viewer>` +
      `<sinew-viewer id="lazy-top" loading="lazy" src="${src}?which=lazy-top"></sinew-viewer>` +
      '<div style="height: 3000px; width: 100%"></div>' +
      `<sinew-viewer id="lazy-below" loading="lazy" poster="/favicon.svg" src="${src}?which=lazy-below"></sinew-viewer>`;
  }, CESIUM_MAN);
  // The eager one and the lazy one already in view load.
  await page.waitForFunction(() => ['eager', 'lazy-top'].every((id) => (document.getElementById(id) as Viewer).model !== ''), undefined, { timeout: 120_000 });
  await quietPeriod(page, 1000); // a wrongly eager load would show itself meanwhile
  expect(requests.sort()).toEqual(['?which=eager', '?which=lazy-top']);
  const before = await page.evaluate(() => {
    const el = document.getElementById('lazy-below') as Viewer;
    const poster = el.shadowRoot!.querySelector('[part="poster"]') as HTMLImageElement;
    return { model: el.model, loading: el.loading, posterShown: !poster.hidden, posterSrc: poster.getAttribute('src') };
  });
  expect(before).toEqual({ model: '', loading: 'lazy', posterShown: true, posterSrc: '/favicon.svg' });
  await expect(page.locator('#lazy-below').locator('[part="poster"]')).toBeVisible();

  await page.locator('#lazy-below').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => (document.getElementById('lazy-below') as Viewer).model === 'CesiumMan.glb', undefined, { timeout: 120_000 });
  expect(requests.filter((q) => q === '?which=lazy-below')).toHaveLength(1);
  // The first frame replaced the poster.
  await expect(page.locator('#lazy-below').locator('[part="poster"]')).toBeHidden();
  expect((await coverageOf(page, ['lazy-below']))[0]).toBeGreaterThan(0.02);
  expect(errors).toEqual([]);
});
