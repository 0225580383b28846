import { expect, test, type Page } from '@playwright/test';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFileServer } from '../../../src/node/file-server.ts';
import { compressModel, type Codec } from '../../unit/helpers/compress-model.ts';
import { openHarness } from '../helpers/harness.ts';
import { expectParity, printParityTable } from '../helpers/parity-report.ts';
import { collectErrors, grid, gridDistance, isolateFromLiveReload, openViewer, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import type { ModelParity } from '../pages/parity.ts';

// Draco- and meshopt-compressed CesiumMan (made here with the codecs' encoders, served from memory) in the
// browser: GPU-vs-CPU transform-feedback parity on the decoded model, the element draws and animates it, and the
// standalone dist/standalone/sinew-viewer.js, copied alone into a folder of its own, fetches the decoders' chunks
// from beside itself only for a file that needs them.
const ROOT = resolve(import.meta.dirname, '../../..');
const CODECS = ['draco', 'meshopt'] as const;

type Viewer = HTMLElement & { model: string; renderOnce(): void; seek(s: number): void; pause(): void };

const compressed = new Map<string, Buffer>();
async function compressedCesiumMan(codec: Codec): Promise<Buffer> {
  if (!compressed.has(codec)) compressed.set(codec, Buffer.from(await compressModel(join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), codec)));
  return compressed.get(codec)!;
}

/** Serves `/compressed/CesiumMan-<codec>.glb` to `page` from memory. */
async function routeCompressed(page: Page): Promise<void> {
  for (const codec of CODECS) {
    const body = await compressedCesiumMan(codec);
    await page.route(`**/compressed/CesiumMan-${codec}.glb`, (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }));
  }
}

/** Draws `#v` and returns the fraction of its canvas's pixels the model covers, and a fingerprint of them. */
function drawn(page: Page): Promise<{ covered: number; sum: number }> {
  return page.evaluate(() => {
    const viewer = document.getElementById('v') as Viewer;
    viewer.renderOnce();
    const canvas = viewer.shadowRoot!.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let opaque = 0, sum = 0;
    for (let i = 3; i < data.length; i += 4) {
      if (data[i] > 0) opaque++;
      sum += (data[i - 3] * 3 + data[i - 2] * 5 + data[i - 1] * 7) * ((i >> 2) % 9973);
    }
    return { covered: opaque / (data.length / 4), sum };
  });
}

/** Loads `src` into a new `#v` element and resolves at its load or sinew-error. */
function loadInElement(page: Page, src: string): Promise<string> {
  return page.evaluate((url) => new Promise<string>((done) => {
    let viewer = document.getElementById('v') as Viewer | null;
    if (!viewer) {
      viewer = document.createElement('sinew-viewer') as Viewer;
      viewer.id = 'v';
      viewer.style.cssText = 'width: 240px; height: 240px';
      viewer.setAttribute('autoplay', '');
      document.body.append(viewer);
    }
    viewer.addEventListener('load', () => done('LOADED'), { once: true });
    viewer.addEventListener('sinew-error', (e) => done((e as CustomEvent).detail.message), { once: true });
    viewer.setAttribute('src', url);
  }), src);
}

/** The element shows a model that covers part of it and changes between two clip times. */
async function expectDrawnAndAnimated(page: Page): Promise<void> {
  await page.evaluate(() => { const v = document.getElementById('v') as Viewer; v.pause(); v.seek(0.25); });
  const early = await drawn(page);
  await page.evaluate(() => (document.getElementById('v') as Viewer).seek(1.0));
  const late = await drawn(page);
  expect(early.covered).toBeGreaterThan(0.03);
  expect(late.covered).toBeGreaterThan(0.03);
  expect(early.sum).not.toBe(late.sum);
}

test.describe('compressed CesiumMan', () => {
  test.beforeEach(() => requireSharedAssets());

  test('GPU-vs-CPU transform-feedback parity on the decoded Draco and meshopt models', async ({ page }) => {
    test.setTimeout(300_000);
    await routeCompressed(page);
    await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
    const rows: { label: string; result: ModelParity }[] = [];
    for (const codec of CODECS) {
      const result = await page.evaluate((url) => (window as unknown as { sinewParity: { url(url: string): Promise<ModelParity> } }).sinewParity.url(url), `/compressed/CesiumMan-${codec}.glb`);
      rows.push({ label: `CesiumMan ${codec}`, result });
      expect(result.warnings).toEqual([]);
      expectParity(result);
      expect(result.paths.find((p) => p.path === 'texture')?.skipped).toBeNull();
    }
    printParityTable(rows);
  });

  test('<sinew-viewer> draws and animates the Draco and meshopt models', async ({ page }) => {
    test.setTimeout(180_000);
    await isolateFromLiveReload(page);
    await routeCompressed(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    await page.goto('/tests/browser/pages/empty-page.html');
    for (const codec of CODECS) {
      expect(await loadInElement(page, `/compressed/CesiumMan-${codec}.glb`)).toBe('LOADED');
      expect(await page.evaluate(() => (document.getElementById('v') as Viewer).model)).toBe(`CesiumMan-${codec}.glb`);
      await expectDrawnAndAnimated(page);
    }
    expect(errors).toEqual([]);
  });

  test('the viewer app (?model=) shows the Draco and meshopt models as it shows the original', async ({ page }) => {
    test.setTimeout(180_000);
    await isolateFromLiveReload(page);
    await routeCompressed(page);
    const errors = collectErrors(page);
    const view = '&ui=0&time=0.5&yaw=30&pitch=10';
    await openViewer(page, `?model=/shared/assets/gltf/CesiumMan.glb${view}`);
    const original = await grid(page);
    for (const codec of CODECS) {
      await openViewer(page, `?model=/compressed/CesiumMan-${codec}.glb${view}`);
      const state = await page.evaluate(() => window.sinew!.state());
      expect([state.model, state.error]).toEqual([`CesiumMan-${codec}.glb`, null]);
      // Mean luminance difference over a 32 × 24 grid, 0–255: the codecs' quantisation moves no cell visibly.
      const distance = gridDistance(original, await grid(page));
      console.log(`viewer: CesiumMan ${codec} vs original, mean grid luminance difference ${distance.toFixed(3)} of 255`);
      expect(distance).toBeLessThan(1);
    }
    expect(errors).toEqual([]);
  });

  test('a copy of dist/standalone/ alone is enough: sinew-viewer.js fetches the decoders from beside itself, only for a file that needs them', async ({ page }) => {
    test.setTimeout(180_000);
    const standalone = resolve(ROOT, 'dist/standalone');
    // The folder holds the element and the chunks it loads, nothing else (package.json exports it as sinew-gl/sinew-viewer.js):
    // the decoders, and toVideo's encoders (src/video/).
    const files = readdirSync(standalone).sort();
    expect(files.filter((name) => !/^(sinew-viewer|(draco-primitives|meshopt-views|ktx2-texture|frame-encoder|apng-frame-encoder|gif-frame-encoder|webcodecs-frame-encoder)-[\w-]+)\.js$/.test(name))).toEqual([]);
    const chunk = (prefix: string) => files.find((name) => name.startsWith(prefix));
    expect(chunk('draco-primitives-'), 'the Draco chunk beside sinew-viewer.js').toBeDefined();
    expect(chunk('meshopt-views-'), 'the meshopt chunk beside sinew-viewer.js').toBeDefined();
    // What a user does: copy that one folder into a site of their own, beside a page with the element.
    const site = mkdtempSync(join(tmpdir(), 'sinew-standalone-'));
    cpSync(standalone, join(site, 'sinew'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><script type="module" src="./sinew/sinew-viewer.js"></script></head><body></body></html>');
    const server = await startFileServer([{ prefix: '/', folder: site }]);
    try {
      await routeCompressed(page);
      const original = readFileSync(join(SHARED_ASSETS, 'gltf/CesiumMan.glb'));
      await page.route('**/models/CesiumMan.glb', (route) => route.fulfill({ body: original, contentType: 'model/gltf-binary' }));
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const scripts: string[] = [];
      page.on('request', (request) => { if (request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname); });
      await page.goto(`${server.url}/index.html`);
      await page.waitForFunction(() => customElements.get('sinew-viewer') !== undefined);
      expect(await loadInElement(page, '/models/CesiumMan.glb')).toBe('LOADED');
      await expectDrawnAndAnimated(page);
      // Uncompressed: the element's one file, no decoder.
      expect(scripts).toEqual(['/sinew/sinew-viewer.js']);
      for (const codec of CODECS) {
        expect(await loadInElement(page, `/compressed/CesiumMan-${codec}.glb`)).toBe('LOADED');
        await expectDrawnAndAnimated(page);
      }
      expect(scripts).toEqual(['/sinew/sinew-viewer.js', `/sinew/${chunk('draco-primitives-')}`, `/sinew/${chunk('meshopt-views-')}`]);
      expect(errors).toEqual([]);
    } finally {
      await server.close();
      rmSync(site, { recursive: true, force: true });
    }
  });

  test("under a Content-Security-Policy without 'unsafe-eval' (only 'wasm-unsafe-eval' for the decoders), dist/standalone/sinew-viewer.js loads both", async ({ page }) => {
    test.setTimeout(180_000);
    const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; connect-src 'self' blob: data:";
    const html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<script type="module" src="/standalone/sinew-viewer.js"></script></head><body></body></html>`;
    const server = await startFileServer([{ prefix: '/standalone/', folder: resolve(ROOT, 'dist/standalone') }], { '/csp.html': html });
    try {
      await routeCompressed(page);
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
      await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => ((window as { __violations?: string[] }).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`)));
      await page.goto(`${server.url}/csp.html`);
      await page.waitForFunction(() => customElements.get('sinew-viewer') !== undefined);
      for (const codec of CODECS) {
        expect(await loadInElement(page, `${server.url}/compressed/CesiumMan-${codec}.glb`)).toBe('LOADED');
        await expectDrawnAndAnimated(page);
      }
      expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations ?? [])).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
