import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { startFileServer, type FileServer } from '../../../src/node/file-server.ts';

// The benchmark page contract (README "Crowds"): `npm run build` emits the static dist/bench/crowd-bench.html,
// served here by a plain static server (no dev server): window.ready, window.info(), await window.bench(…).

const DIST_BENCH = resolve(process.cwd(), 'dist/bench');

type Result = { frameMs: number[]; animMs: number; submitMs: number; syncMs: number; drawCalls: number; verts: number };
type BenchWindow = { ready?: boolean; info: () => Record<string, unknown>; bench: (options: object) => Promise<Result> };

let server: FileServer;

test.beforeAll(async () => {
  if (!existsSync(resolve(DIST_BENCH, 'crowd-bench.html'))) throw new Error('dist/bench/crowd-bench.html is missing: the global setup (tests/helpers/fresh-build.ts) builds it');
  const routes = [{ prefix: '/', folder: DIST_BENCH }];
  if (existsSync(SHARED_ASSETS)) routes.push({ prefix: '/models/', folder: resolve(SHARED_ASSETS, 'gltf') });
  server = await startFileServer(routes);
});

test.afterAll(async () => {
  await server?.close();
});

/** Share of the 512×512 canvas's pixels that are not the clear colour, from a screenshot of the last frame. */
async function coverage(page: import('@playwright/test').Page): Promise<number> {
  const png = await page.locator('#bench-canvas').screenshot();
  return page.evaluate(async (bytes) => {
    const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let covered = 0;
    // Clear colour: (0.12, 0.12, 0.13) in sRGB bytes ≈ (31, 31, 33).
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 31) + Math.abs(data[i + 1] - 31) + Math.abs(data[i + 2] - 33) > 12) covered++;
    return covered / (data.length / 4);
  }, [...png]);
}

test('crowd-bench.html from dist: ready, info(), bench() live and baked', async ({ page }) => {
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  await page.goto(`${server.url}/crowd-bench.html`);
  await page.waitForFunction(() => (window as unknown as BenchWindow).ready === true);
  const info = await page.evaluate(() => (window as unknown as BenchWindow).info());
  console.log(JSON.stringify(info));
  expect(typeof info.renderer).toBe('string');
  expect(info.maxTextureSize).toBeGreaterThanOrEqual(2048);
  for (const mode of ['live', 'baked'] as const) {
    const result = await page.evaluate((m) => (window as unknown as BenchWindow).bench({ model: 'octopus', N: 25, frames: 4, warmup: 2, mode: m }), mode);
    console.log(mode, JSON.stringify(result));
    expect(result.frameMs).toHaveLength(4);
    for (const ms of result.frameMs) expect(ms).toBeGreaterThan(0);
    for (const key of ['animMs', 'submitMs', 'syncMs'] as const) expect(result[key]).toBeGreaterThanOrEqual(0);
    // The octopus has 3 skinned primitives: one instanced draw each for all 25.
    expect(result.drawCalls).toBe(3);
    expect(result.verts % 25).toBe(0);
    expect(result.verts).toBeGreaterThan(25 * 1000);
    expect(await coverage(page)).toBeGreaterThan(0.05);
  }
});

test('crowd-bench.html: a glTF URL as the model (Fox)', async ({ page }) => {
  requireSharedAssets();
  await page.goto(`${server.url}/crowd-bench.html`);
  await page.waitForFunction(() => (window as unknown as BenchWindow).ready === true);
  const result = await page.evaluate(() => (window as unknown as BenchWindow).bench({ model: '/models/Fox.glb', N: 100, frames: 3, warmup: 1, mode: 'live' }));
  expect(result.frameMs).toHaveLength(3);
  expect(result.drawCalls).toBe(1);
  expect(result.verts).toBe(100 * 1728);
  expect(await coverage(page)).toBeGreaterThan(0.01);
  const bad = await page.evaluate(() => (window as unknown as BenchWindow).bench({ model: 'worm', N: 0, frames: 1, mode: 'live' }).then(() => 'resolved', (e: Error) => e.message));
  expect(bad).toMatch(/N must be a positive integer/);
});
