import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolateFromLiveReload, collectErrors, openViewer } from '../helpers/viewer-page.ts';

// The viewer's "Spring bones" folder on the generated avatar: wind moves the hair's pixels, "show colliders" draws
// lines where the head sphere is, springs off gives the clip's pose (the hair rigid on the head). Each comparison
// is between two runs of the same clip times from a reset, so only the setting under test differs.

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const control = (page: Page, name: string) => page.locator(`#sinew-panel [data-control="${name}"]`);
interface Box { x0: number; y0: number; x1: number; y1: number }

async function pixelsIn(page: Page, box: Box | null): Promise<Uint8Array> {
  return page.evaluate(async (b) => {
    const url = window.sinew!.screenshot(1)!;
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const r = b ?? { x0: 0, y0: 0, x1: image.width, y1: image.height };
    // One base64 string: Playwright serializes a returned array element by element, slowly for a box of pixels.
    const data = context.getImageData(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(binary);
  }, box).then((base64) => new Uint8Array(Buffer.from(base64, 'base64')));
}

function changedPixels(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if ([0, 1, 2].some((c) => Math.abs(a[i + c] - b[i + c]) > 24)) n++;
  return n;
}

async function boxAround(page: Page, names: string[], margin: number): Promise<Box> {
  return page.evaluate(({ names, margin }) => {
    const points = names.map((name) => window.sinew!.jointPixel(name)!);
    const canvas = document.querySelector('#sinew-canvas') as HTMLCanvasElement;
    const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
    return {
      x0: Math.max(0, Math.floor(Math.min(...xs) - margin)), y0: Math.max(0, Math.floor(Math.min(...ys) - margin)),
      x1: Math.min(canvas.width, Math.ceil(Math.max(...xs) + margin)), y1: Math.min(canvas.height, Math.ceil(Math.max(...ys) + margin)),
    };
  }, { names, margin });
}

/**
 * From clip time 0.5 s, springs reset, `frames` steps of 1/60 s with the folder set to `settings`. Each step draws
 * a 640 × 480 frame (real time under SwiftShader); 20 steps (1/3 s) blow the hair tip in wind strength 5 many times
 * the 2 cm and 200 changed pixels the test asks.
 */
async function run(page: Page, settings: { springs?: boolean; strength?: number; direction?: number }, frames = 20): Promise<void> {
  await page.evaluate(({ settings, frames }) => {
    const s = window.sinew!;
    s.pause();
    s.setTime(0.5);
    s.springs({ springs: true, strength: 0, direction: 0, ...settings, reset: true });
    for (let k = 0; k < frames; k++) s.step(1 / 60);
  }, { settings, frames });
}

/** Joint `name`'s position in the head's frame (the head's world matrix is rigid: Rᵀ(p − t)). */
async function inHead(page: Page, name: string): Promise<number[]> {
  return page.evaluate((name) => {
    const h = window.sinew!.jointMatrix('head')!.world, p = window.sinew!.jointMatrix(name)!.world;
    const d = [p[12] - h[12], p[13] - h[13], p[14] - h[14]];
    return [0, 1, 2].map((c) => (h[4 * c] * d[0] + h[4 * c + 1] * d[1] + h[4 * c + 2] * d[2]));
  }, name);
}

test('Spring bones folder: wind moves the hair, colliders are drawn, springs off is the clip pose', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  await openViewer(page, '?yaw=90&pitch=5');
  await control(page, 'sample').locator('select').selectOption({ label: 'VRM avatar (generated)' });
  await page.waitForFunction(() => /^generated-avatar\./.test(window.sinew!.state().model));
  const folder = page.locator('#sinew-springs');
  await expect(folder).toBeVisible();
  for (const name of ['spring-bones', 'wind-strength', 'wind-direction', 'show-colliders', 'reset-springs']) await expect(control(page, name)).toBeAttached();
  const state = await page.evaluate(() => window.sinew!.springs());
  expect(state).toMatchObject({ present: true, enabled: true, wind: [0, 0, 0], showColliders: false, colliderVertices: 0 });
  await page.evaluate(() => { window.sinew!.setCamera({ yaw: 90, pitch: 5 }); window.sinew!.aimAt('neck', 1.4); });

  // Wind along +X (seen side on): the hair is blown off its calm pose.
  await run(page, {});
  const hairBox = await boxAround(page, ['head', 'hair00_0', 'hair03_0', 'neck', 'upperChest'], 90);
  const calm = await pixelsIn(page, hairBox);
  const calmTip = await inHead(page, 'hair00_4');
  await run(page, { strength: 5, direction: 0 });
  expect(await page.evaluate(() => window.sinew!.springs().wind)).toEqual([0, 0, 5]);
  const windy = await pixelsIn(page, hairBox);
  const windyTip = await inHead(page, 'hair00_4');
  expect(Math.hypot(...windyTip.map((v, i) => v - calmTip[i]))).toBeGreaterThan(0.02);
  expect(changedPixels(calm, windy)).toBeGreaterThan(200);

  // Springs off: the clip's pose — the hair rigid on the head at any time, wind or not.
  await run(page, { springs: false, strength: 5 });
  expect(await page.evaluate(() => window.sinew!.springs().enabled)).toBe(false);
  const offTip = await inHead(page, 'hair00_4');
  const offPixels = await pixelsIn(page, hairBox);
  await run(page, { springs: false, strength: 0 }, 20);
  const offTipLater = await inHead(page, 'hair00_4');
  for (let c = 0; c < 3; c++) expect(Math.abs(offTip[c] - offTipLater[c])).toBeLessThan(1e-5);
  expect(Math.hypot(...offTip.map((v, i) => v - windyTip[i]))).toBeGreaterThan(0.02);
  expect(changedPixels(offPixels, windy)).toBeGreaterThan(200);
  // Show colliders: lines where the head sphere is (springs off: the pose holds still between the pictures; a
  // paused view keeps stepping settling springs in real time).
  const headBox = await boxAround(page, ['head'], 60);
  const plain = await pixelsIn(page, headBox);
  const shown = await page.evaluate(() => window.sinew!.springs({ colliders: true }));
  expect(shown.showColliders).toBe(true);
  expect(shown.colliderVertices).toBeGreaterThan(12 * 10);
  const lined = await pixelsIn(page, headBox);
  expect(changedPixels(plain, lined)).toBeGreaterThan(50);
  await page.evaluate(() => window.sinew!.springs({ colliders: false }));
  expect(changedPixels(plain, await pixelsIn(page, headBox))).toBeLessThan(5);

  // For a look (SINEW_SPRINGS_SCREENSHOT_DIR): springs on in the wind, colliders shown, the whole avatar.
  const dir = process.env.SINEW_SPRINGS_SCREENSHOT_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    await run(page, { strength: 5, direction: 0 });
    await page.evaluate(() => { window.sinew!.springs({ colliders: true }); window.sinew!.setCamera({ yaw: 60, pitch: 10 }); window.sinew!.aimAt('spine', 2.6); });
    const url = await page.evaluate(() => window.sinew!.screenshot(1)!);
    writeFileSync(join(dir, 'springs-colliders.png'), Buffer.from(url.split(',')[1], 'base64'));
  }
  expect(errors).toEqual([]);
});
