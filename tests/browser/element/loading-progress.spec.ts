import { test, expect } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { collectErrors, isolateFromLiveReload, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';

// Download progress: `sinew-progress`, the element's bar and "loading NAME…", and the viewer panel's, over a
// slow server of our own (route handlers cannot stream a body in pieces).

type Viewer = HTMLElementTagNameMap['sinew-viewer'];
interface Progress { loaded: number; total: number | null }

/** Serves /gltf/NAME from the shared assets in 64 KiB pieces 120 ms apart, with CORS; `?length=0` leaves out Content-Length. */
let server: Server;
let origin = '';

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let bytes: Buffer;
    try {
      bytes = readFileSync(`${SHARED_ASSETS}/gltf/${decodeURIComponent(url.pathname.replace(/^\/gltf\//, ''))}`);
    } catch {
      res.writeHead(404, { 'Access-Control-Allow-Origin': '*' }).end();
      return;
    }
    const headers: Record<string, string> = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'model/gltf-binary', 'Cache-Control': 'no-store' };
    if (url.searchParams.get('length') !== '0') headers['Content-Length'] = String(bytes.length);
    res.writeHead(200, headers);
    const piece = 64 * 1024;
    let offset = 0;
    const next = (): void => {
      if (res.destroyed) return;
      res.write(bytes.subarray(offset, offset + piece));
      offset += piece;
      if (offset >= bytes.length) res.end();
      else setTimeout(next, 120);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
});

/** CesiumMan.glb's size in bytes. */
function cesiumManSize(): number {
  return readFileSync(`${SHARED_ASSETS}/gltf/CesiumMan.glb`).length;
}

test('sinew-progress reports growing bytes of a slow download; the bar and the controls show it, then go', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  const size = cesiumManSize();
  await page.goto('/tests/browser/pages/many-viewers.html?n=0');
  await page.evaluate((src) => {
    const progress: unknown[] = [];
    (window as unknown as { __progress: unknown[] }).__progress = progress;
    // Bubbling and composed: heard on the document.
    document.addEventListener('sinew-progress', (e) => progress.push({ ...(e as CustomEvent<Progress>).detail, target: (e.target as HTMLElement).id }));
    document.getElementById('grid')!.innerHTML = `<sinew-viewer id="slow" controls src="${src}" style="width: 320px; height: 200px"></sinew-viewer>`;
  }, `${origin}/gltf/CesiumMan.glb`);

  // While it downloads: a determinate bar over the file's size, and the controls say what is loading.
  const bar = page.locator('#slow').locator('[part="progress"]');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuemax', String(size));
  await expect(page.locator('#slow').locator('[part="status"]')).toHaveText('loading CesiumMan.glb…');
  await expect(page.locator('#slow').locator('[part="time-readout"]')).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('loading.png') });

  await page.waitForFunction(() => (document.getElementById('slow') as Viewer).model === 'CesiumMan.glb', undefined, { timeout: 60_000 });
  const events = await page.evaluate(() => (window as unknown as { __progress: (Progress & { target: string })[] }).__progress);
  expect(events.length).toBeGreaterThanOrEqual(4);
  expect(events.every((e) => e.target === 'slow' && e.total === size)).toBe(true);
  for (let i = 1; i < events.length; i++) expect(events[i].loaded).toBeGreaterThanOrEqual(events[i - 1].loaded);
  expect(events[0].loaded).toBeLessThan(size / 2);
  expect(events.at(-1)!.loaded).toBe(size);
  // Bytes in between were reported too, not just the ends.
  expect(events.some((e) => e.loaded > 0 && e.loaded < size)).toBe(true);

  await expect(bar).toBeHidden();
  await expect(page.locator('#slow').locator('[part="status"]')).toBeHidden();
  await expect(page.locator('#slow').locator('[part="time-readout"]')).toBeVisible();
  expect(errors).toEqual([]);
});

test('without a Content-Length the total is null (an indeterminate bar) until the download ends', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  const size = cesiumManSize();
  await page.goto('/tests/browser/pages/many-viewers.html?n=0');
  await page.evaluate((src) => {
    const progress: unknown[] = [];
    (window as unknown as { __progress: unknown[] }).__progress = progress;
    document.addEventListener('sinew-progress', (e) => progress.push((e as CustomEvent<Progress>).detail));
    document.getElementById('grid')!.innerHTML = `<sinew-viewer id="slow" src="${src}"></sinew-viewer>`;
  }, `${origin}/gltf/CesiumMan.glb?length=0`);
  const bar = page.locator('#slow').locator('[part="progress"]');
  await expect(bar).toHaveAttribute('data-indeterminate', '');
  await expect(bar).not.toHaveAttribute('aria-valuenow', /./);
  await page.waitForFunction(() => (document.getElementById('slow') as Viewer).model === 'CesiumMan.glb', undefined, { timeout: 60_000 });
  const events = await page.evaluate(() => (window as unknown as { __progress: Progress[] }).__progress);
  expect(events.slice(0, -1).every((e) => e.total === null)).toBe(true);
  expect(events.some((e) => e.total === null && e.loaded > 0)).toBe(true);
  expect(events.at(-1)).toEqual({ loaded: size, total: size });
  await expect(bar).toBeHidden();
  expect(errors).toEqual([]);
});

test('the viewer panel says "loading NAME…" over a download bar while a model downloads', async ({ page }) => {
  requireSharedAssets();
  const size = cesiumManSize();
  await page.goto(`/?model=${encodeURIComponent(`${origin}/gltf/CesiumMan.glb`)}`);
  await expect(page.locator('#sinew-model')).toHaveText('loading CesiumMan.glb…');
  const bar = page.locator('#sinew-progress');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuemax', String(size));
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('viewer-loading.png') });
  await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 60_000 });
  await expect(page.locator('#sinew-model')).toHaveText('CesiumMan.glb');
  await expect(bar).toBeHidden();
  expect(await page.evaluate(() => window.sinew!.state().error)).toBeNull();
});
