import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { skinnedQuad } from '../../unit/helpers/gltf-builder.ts';
import { malformedCorpus } from '../../fixtures/malformed-corpus.ts';
import { skinnedGrid } from '../../fixtures/large-models.ts';
import { startFileServer } from '../../../src/node/file-server.ts';
import { isolateFromLiveReload, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { recordGlContexts, trackGlObjectsInPage, type GlObjectsWindow } from '../helpers/gl-counter.ts';
import { loadEachInElement } from '../helpers/corpus-in-element.ts';

// <sinew-viewer> in other people's pages: hostile names never become markup, a strict Content-Security-Policy
// is enough, a browser without WebGL2 gets a message, and many context losses leave the picture unchanged.
const ROOT = resolve(import.meta.dirname, '../../..');
const HOSTILE = '<img src=x onerror="window.__xss=1">';

type Viewer = HTMLElement & { model: string; clips: readonly string[]; renderOnce(): void; seek(s: number): void; pause(): void };

/** Draws `#v` now and returns the fraction of its canvas's pixels that the model covers (alpha > 0). */
function coverage(page: Page): Promise<number> {
  return page.evaluate(() => {
    const viewer = document.getElementById('v') as Viewer;
    viewer.renderOnce();
    const canvas = viewer.shadowRoot!.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) opaque++;
    return opaque / (data.length / 4);
  });
}

/** Elements that came from the hostile markup (an `onerror` attribute anywhere, shadow roots included). */
function countInjected(page: Page): Promise<number> {
  return page.evaluate(() => {
    const walk = (root: Document | ShadowRoot): number =>
      root.querySelectorAll('[onerror]').length + [...root.querySelectorAll('*')].reduce((n, el) => n + (el.shadowRoot ? walk(el.shadowRoot) : 0), 0);
    return walk(document);
  });
}

test('names from a file (nodes, clips, the file itself) are shown as text, never parsed as markup', async ({ page }) => {
  await isolateFromLiveReload(page);
  const builder = skinnedQuad();
  builder.json.nodes.forEach((node: { name: string }) => (node.name = HOSTILE));
  builder.json.animations[0].name = HOSTILE;
  builder.json.meshes[0].name = HOSTILE;
  const fileName = `${HOSTILE}.gltf`;
  await page.route('**/hostile/**', (route) => route.fulfill({ body: Buffer.from(builder.gltf()), contentType: 'model/gltf+json' }));
  const url = `/hostile/${encodeURIComponent(fileName)}`;
  const broken = `/hostile/${encodeURIComponent(`${HOSTILE}.md5mesh`)}`;

  // The element, with its control bar (clip menu) showing.
  await page.goto('/tests/browser/pages/empty-page.html');
  await page.evaluate((src) => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.setAttribute('controls', '');
    viewer.setAttribute('src', src);
    document.body.append(viewer);
  }, url);
  await expect.poll(() => page.evaluate(() => (document.getElementById('v') as Viewer).clips.join()), { timeout: 60_000 }).toBe(HOSTILE);
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).model)).toBe(fileName);
  // A file whose error message carries its hostile name.
  const error = page.evaluate(() => new Promise<string>((done) => document.getElementById('v')!.addEventListener('sinew-error', (e) => done((e as CustomEvent).detail.message), { once: true })));
  await page.evaluate((src) => document.getElementById('v')!.setAttribute('src', src), broken);
  expect(await error).toContain(HOSTILE);
  expect(await countInjected(page)).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

  // The viewer page: its panel lists the clip, its banner shows the broken file's error.
  await page.goto(`/?model=${encodeURIComponent(url)}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 60_000 });
  await expect(page.locator('body')).toContainText(HOSTILE);
  await page.goto(`/?model=${encodeURIComponent(broken)}`);
  await expect(page.locator('body')).toContainText(`${HOSTILE}.md5mesh`, { timeout: 60_000 });
  expect(await countInjected(page)).toBe(0);
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
});

/**
 * Loads dist/standalone/sinew-viewer.js with CesiumMan in a page under `scriptSrc`; returns the policy violations
 * and console errors seen after the model is drawn (and checks it is drawn).
 */
async function underPolicy(page: Page, scriptSrc: string): Promise<{ violations: string[]; errors: string[] }> {
  requireSharedAssets();
  const csp = `default-src 'self'; script-src ${scriptSrc}; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; connect-src 'self' blob: data:`;
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<script type="module" src="/standalone/sinew-viewer.js"></script></head>
<body><sinew-viewer id="v" src="/models/CesiumMan.glb" time="1" controls style="width: 320px; height: 240px"></sinew-viewer>
<sinew-viewer src="/models/CesiumMan.glb" time="0.5" style="width: 160px; height: 120px"></sinew-viewer></body></html>`;
  const server = await startFileServer([{ prefix: '/standalone/', folder: resolve(ROOT, 'dist/standalone') }, { prefix: '/models/', folder: resolve(SHARED_ASSETS, 'gltf') }], { '/csp.html': html });
  try {
    const errors: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => ((window as { __violations?: string[] }).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`)));
    await page.goto(`${server.url}/csp.html`);
    await expect.poll(() => page.evaluate(() => (document.getElementById('v') as Viewer).model), { timeout: 60_000 }).toBe('CesiumMan.glb');
    expect(await coverage(page)).toBeGreaterThan(0.03);
    return { violations: await page.evaluate(() => (window as { __violations?: string[] }).__violations ?? []), errors };
  } finally {
    await server.close();
  }
}

test('dist/standalone/sinew-viewer.js works under a strict Content-Security-Policy (script-src self, no eval, no inline script)', async ({ page }) => {
  // Without 'wasm-unsafe-eval' the first kernel's WebAssembly is refused once per page (the browser reports that
  // one attempt; the other kernels do not try again: EmbeddedModule) and every model poses and skins with the
  // portable backends; nothing else is refused.
  const { violations, errors } = await underPolicy(page, "'self'");
  expect(violations).toEqual(['script-src wasm-eval']);
  expect(errors.filter((e) => !/WebAssembly/.test(e))).toEqual([]);
});

test("with 'wasm-unsafe-eval' added, the page reports no violation at all", async ({ page }) => {
  const { violations, errors } = await underPolicy(page, "'self' 'wasm-unsafe-eval'");
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});

test('without WebGL2 the element says so (sinew-error and a visible message) instead of a blank box', async ({ page }) => {
  await isolateFromLiveReload(page);
  await page.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext as (this: HTMLCanvasElement, ...args: unknown[]) => unknown;
    (HTMLCanvasElement.prototype as unknown as { getContext: unknown }).getContext = function (this: HTMLCanvasElement, ...args: unknown[]) {
      return args[0] === 'webgl2' ? null : getContext.apply(this, args);
    };
  });
  await page.goto('/tests/browser/pages/empty-page.html');
  const message = await page.evaluate(() => new Promise<string>((done) => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.addEventListener('sinew-error', (e) => done((e as CustomEvent).detail.message), { once: true });
    document.body.append(viewer);
  }));
  expect(message).toBe('This browser has no WebGL2: Sinew cannot draw here.');
  await expect(page.locator('#v')).toContainText('no WebGL2');
});

// Each restore is held against the frame before the first loss: a resource the element does not restore, or restores
// wrongly, changes the pixels at the first restore; ten in a row also catch what only a later restore breaks. (The
// live GL objects per restore are held equal in tests/browser/gpu/device/context-loss.spec.ts.)
const RESTORES = 10;

test(`${RESTORES} context losses and restores: after each, the element draws the same pixels`, async ({ page }) => {
  requireSharedAssets();
  await isolateFromLiveReload(page);
  await recordGlContexts(page);
  await page.goto('/tests/browser/pages/empty-page.html');
  await page.evaluate(() => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.setAttribute('src', '/shared/assets/gltf/CesiumMan.glb');
    viewer.setAttribute('time', '0.7');
    viewer.style.cssText = 'width: 200px; height: 150px';
    document.body.append(viewer);
  });
  await expect.poll(() => page.evaluate(() => (document.getElementById('v') as Viewer).model), { timeout: 60_000 }).toBe('CesiumMan.glb');
  const result = await page.evaluate(async (restores) => {
    const viewer = document.getElementById('v') as Viewer;
    const gl = (window as unknown as { __contexts: WebGL2RenderingContext[] }).__contexts[0];
    const lose = gl.getExtension('WEBGL_lose_context')!;
    const canvas = viewer.shadowRoot!.querySelector('canvas')!;
    const read = () => {
      viewer.renderOnce();
      return canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data.join();
    };
    const frame = () => new Promise((done) => setTimeout(done, 0));
    const baseline = read();
    const differing: number[] = [];
    for (let cycle = 0; cycle < restores; cycle++) {
      const lost = new Promise((done) => gl.canvas.addEventListener('webglcontextlost', done, { once: true }));
      lose.loseContext();
      await lost;
      // The browser allows restoreContext only from a task after the one that dispatched the loss.
      await frame();
      const restored = new Promise((done) => gl.canvas.addEventListener('webglcontextrestored', done, { once: true }));
      lose.restoreContext();
      await restored;
      let same = false;
      for (let wait = 0; wait < 200 && !same; wait++) {
        await frame();
        same = !gl.isContextLost() && read() === baseline;
      }
      if (!same) differing.push(cycle);
    }
    return { differing, coveredBaseline: baseline.length };
  }, RESTORES);
  expect(result.differing).toEqual([]);
});

// Growth is counted from the first load on: one GL object left behind per load shows as growth from the second load;
// five loads (each alternating with another model) also catch a leak every other load.
const LOADS = 5;

test(`loading every shared model ${LOADS} times into one element leaves no GL object behind`, async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(600_000);
  await isolateFromLiveReload(page);
  await trackGlObjectsInPage(page);
  await page.goto('/tests/browser/pages/empty-page.html');
  const models = ['gltf/CesiumMan.glb', 'gltf/Fox.glb', 'gltf/RiggedFigure.glb', 'gltf/RiggedSimple.glb', 'gltf/SimpleSkin.gltf',
    'gltf/InterpolationTest.glb', 'gltf/RecursiveSkeletons.glb', 'gltf/quad_skin.glb', 'md5/Bob.md5mesh'];
  const report = await page.evaluate(async ({ models, loads }) => {
    const glObjects = (window as unknown as GlObjectsWindow).__glObjects;
    const live = () => glObjects.liveTotal();
    const viewer = document.createElement('sinew-viewer') as Viewer;
    viewer.style.cssText = 'width: 120px; height: 90px';
    document.body.append(viewer);
    const loadOnce = (src: string) => new Promise<string>((done) => {
      const onLoad = () => { viewer.removeEventListener('sinew-error', onError); done(''); };
      const onError = (e: Event) => { viewer.removeEventListener('load', onLoad); done((e as CustomEvent).detail.message); };
      viewer.addEventListener('load', onLoad, { once: true });
      viewer.addEventListener('sinew-error', onError, { once: true });
      viewer.setAttribute('src', src);
    });
    const growth: Record<string, number> = {};
    const errors: string[] = [];
    for (const model of models) {
      let afterFirst = 0;
      for (let i = 0; i < loads; i++) {
        // Alternate with the built-in model so each load really replaces the one before.
        const error = (await loadOnce(`/shared/assets/${model}?n=${i}`)) || (await loadOnce(`/shared/assets/gltf/SimpleSkin.gltf?other=${i}`));
        if (error) errors.push(error);
        viewer.renderOnce();
        if (i === 0) afterFirst = live();
      }
      growth[model] = live() - afterFirst;
    }
    viewer.remove();
    await new Promise((done) => setTimeout(done, 0));
    return { growth, errors, liveAfterRemoval: live() };
  }, { models, loads: LOADS });
  expect(report.errors).toEqual([]);
  expect(report.growth).toEqual(Object.fromEntries(models.map((m) => [m, 0])));
  expect(report.liveAfterRemoval).toBe(0);
});

// A leak shows as bytes kept per frame. The bound was 5 % of the heap over 10 000 frames; it shrinks in proportion to
// the frames run, so the smallest leak per frame that fails is the same.
const HEAP_FRAMES = 4000;
const HEAP_GROWTH = 0.05 * (HEAP_FRAMES / 10_000);

test(`${HEAP_FRAMES} frames of an element keep the JS heap flat`, async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(600_000);
  await isolateFromLiveReload(page);
  await page.goto('/tests/browser/pages/empty-page.html');
  await page.evaluate(() => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.setAttribute('src', '/shared/assets/gltf/CesiumMan.glb');
    viewer.style.cssText = 'width: 64px; height: 48px';
    document.body.append(viewer);
  });
  await expect.poll(() => page.evaluate(() => (document.getElementById('v') as Viewer).model), { timeout: 60_000 }).toBe('CesiumMan.glb');
  const cdp = await page.context().newCDPSession(page);
  const frames = (count: number) => page.evaluate((count) => {
    const viewer = document.getElementById('v') as Viewer;
    viewer.pause();
    for (let f = 0; f < count; f++) {
      viewer.seek((f % 120) / 60);
      viewer.renderOnce();
    }
  }, count);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  await frames(1000);
  const before = await heap();
  for (let batch = 0; batch < HEAP_FRAMES / 1000; batch++) await frames(1000);
  const after = await heap();
  console.log(`JS heap after 1 000 warm-up frames ${before} B, after ${HEAP_FRAMES} more ${after} B (${(((after - before) / before) * 100).toFixed(2)} %)`);
  expect(Math.abs(after - before) / before).toBeLessThan(HEAP_GROWTH);
});

/** A `.gltf`'s buffer and image uris other than data URIs (none for anything that is not glTF JSON). */
function externalUris(bytes: Uint8Array): string[] {
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: unknown }[]; images?: { uri?: unknown }[] };
    return [...(json.buffers ?? []), ...(json.images ?? [])].map((item) => item.uri).filter((uri): uri is string => typeof uri === 'string' && !uri.startsWith('data:'));
  } catch {
    return [];
  }
}

test('every file of the malformed corpus ends in one sinew-error in the element, and the model shown before stays', async ({ page }) => {
  test.setTimeout(600_000);
  await isolateFromLiveReload(page);
  const corpus = malformedCorpus();
  const byName = new Map(corpus.flatMap((entry) => [[entry.name, entry.bytes], ...Object.entries(entry.companions ?? {})]));
  // The path tricks name other hosts (example.org, 127.0.0.1:9): the test must stay offline, so any request
  // that leaves the test server's origin is aborted (the element then reports it like any failed fetch).
  const origin = new URL(test.info().project.use.baseURL!).origin;
  await page.route((url) => url.origin !== origin, (route) => route.abort());
  await page.route('**/corpus/**', (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!);
    const bytes = byName.get(name);
    return bytes ? route.fulfill({ body: Buffer.from(bytes) }) : route.fulfill({ status: 404, body: 'not found' });
  });
  await page.goto('/tests/browser/pages/empty-page.html');
  await page.evaluate(() => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.style.cssText = 'width: 120px; height: 90px';
    document.body.append(viewer);
  });
  await expect.poll(() => page.evaluate(() => (document.getElementById('v') as Viewer).model), { timeout: 60_000 }).not.toBe('');
  const shown = await page.evaluate(() => (document.getElementById('v') as Viewer).model);
  const entries = corpus.map((entry) => [entry.name, ...Object.keys(entry.companions ?? {}), ...externalUris(entry.bytes)]);
  const outcomes = await page.evaluate(loadEachInElement, entries.map(([name]) => name));
  const failures: string[] = [];
  entries.forEach(([name, ...referenced], i) => {
    const { outcome } = outcomes[i];
    const files: string[] = [name, ...referenced];
    // A message starts with the file at fault: the entry (`name: …`, `name:12: …`) or a file it names (its
    // `.md5anim`, a buffer's URL), whose failure is about that file. A URL or file name is quoted whole (a cut
    // address cannot be looked up), so a long one does not count against the message's length.
    const named = files.some((file) => outcome.startsWith(`${file}:`) || outcome.includes(file.slice(0, 40)));
    const prose = outcome.replace(/"(?:[^"\\]|\\.){41,}"/g, '"…"');
    if (outcome === 'LOADED' || prose.length >= 300 || !named) failures.push(`${name}: ${outcome.slice(0, 300)}`);
  });
  const slowest = Math.max(...outcomes.map((o) => o.ms));
  console.log(`corpus in the element: ${corpus.length} files, slowest ${slowest.toFixed(0)} ms`);
  expect(failures).toEqual([]);
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).model)).toBe(shown);
  // Speed is a bench key (bench/malformed-corpus-cost.ts, `malformed_corpus.element_slowest_ms`): this bound only
  // catches a load that hangs, and holds beside other workers on a loaded machine.
  expect(slowest).toBeLessThan(60_000);
});

test('a 1 000 000-vertex skinned mesh loads and renders in the element (README "Limits")', async ({ page }) => {
  test.setTimeout(600_000);
  await isolateFromLiveReload(page);
  const glb = Buffer.from(skinnedGrid(1000, 1000).glb());
  await page.route('**/large/grid.glb', (route) => route.fulfill({ body: glb, contentType: 'model/gltf-binary' }));
  await page.goto('/tests/browser/pages/empty-page.html');
  const outcome = await page.evaluate(() => new Promise<string>((done) => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.setAttribute('src', '/large/grid.glb');
    viewer.setAttribute('time', '1');
    viewer.style.cssText = 'width: 160px; height: 120px';
    viewer.addEventListener('load', () => done('loaded'), { once: true });
    viewer.addEventListener('sinew-error', (e) => done((e as CustomEvent).detail.message), { once: true });
    document.body.append(viewer);
  }));
  expect(outcome).toBe('loaded');
  const covered = await coverage(page);
  expect(covered).toBeGreaterThan(0.05);
});
