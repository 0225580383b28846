import { test, expect, type Page } from '@playwright/test';
import { isolateFromLiveReload, collectErrors, openViewer } from '../helpers/viewer-page.ts';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const control = (page: Page, name: string) => page.locator(`#sinew-panel [data-control="${name}"]`);

/** A box of the canvas, drawing-buffer pixels (the screenshot's), and the RGBA bytes of the frame drawn now in it. */
interface Box { x0: number; y0: number; x1: number; y1: number }

/** Draws a frame and returns its pixels in `box` (RGBA, row by row), read from the viewer's screenshot. */
async function pixelsIn(page: Page, box: Box): Promise<Uint8Array> {
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
    // One base64 string: Playwright serializes a returned array element by element, slowly for a box of pixels.
    const data = context.getImageData(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(binary);
  }, box).then((base64) => new Uint8Array(Buffer.from(base64, 'base64')));
}

/** Pixels of `a` and `b` (same box) whose RGB differ by more than 24 in some channel. */
function changedPixels(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if ([0, 1, 2].some((c) => Math.abs(a[i + c] - b[i + c]) > 24)) n++;
  return n;
}

/** Pixels of the hair's dark brown (linear 0.12, 0.05, 0.025 lit: red well over blue, darker than the skin). */
function hairPixels(p: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < p.length; i += 4) {
    const r = p[i], g = p[i + 1], b = p[i + 2];
    if (r < 150 && r > 25 && r > b + 12 && g < 0.8 * r) n++;
  }
  return n;
}

async function openAvatar(page: Page): Promise<void> {
  await openViewer(page, '?yaw=20&pitch=5');
  await control(page, 'sample').locator('select').selectOption({ label: 'VRM avatar (generated)' });
  await page.waitForFunction(() => /^generated-avatar\./.test(window.sinew!.state().model));
  await expect(page.locator('#sinew-vrm')).toBeVisible();
  await page.evaluate(() => window.sinew!.setCamera({ yaw: 20, pitch: 5 }));
  await page.evaluate(() => window.sinew!.aimAt('head', 0.6)); // the head fills the view
}

/** A box around joints `names` on screen (drawing-buffer pixels), grown by `margin` pixels. */
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

test('VRM panel: licence and permissions first, a slider per expression, look-at, auto-blink and first person', async ({ page }) => {
  const errors = collectErrors(page);
  await openAvatar(page);
  const vrm = page.locator('#sinew-vrm');
  // The folder sits right under the header, and its first rows are the licence and the permissions.
  const rows = await vrm.locator('.sinew-vrm-meta-row').allTextContents();
  expect(rows.slice(0, 4)).toEqual([
    'Licence: https://vrm.dev/licenses/1.0/', 'Avatar use: everyone', 'Commercial use: corporation', 'Credit: unnecessary',
  ]);
  expect(await page.evaluate(() => document.querySelector('#sinew-vrm-meta')!.parentElement!.firstElementChild!.id)).toBe('sinew-vrm-meta');
  expect(await page.evaluate(() => document.querySelector('#sinew-vrm')!.previousElementSibling!.className)).toBe('sinew-header');
  for (const name of ['happy', 'blink', 'aa', 'cheekPuff']) await expect(control(page, `expression-${name}`)).toBeAttached();
  await expect(control(page, 'look-at').locator('select')).toBeAttached();
  await expect(control(page, 'auto-blink').locator('input')).toBeAttached();
  await expect(control(page, 'first-person').locator('input')).toBeAttached();
  expect(errors).toEqual([]);
});

test('VRM panel: the blink slider closes the eyes (eye pixels change); first person hides the hair', async ({ page }) => {
  await openAvatar(page);
  const eyes = await boxAround(page, ['leftEye', 'rightEye'], 40);
  const open = await pixelsIn(page, eyes);
  const blink = control(page, 'expression-blink').locator('input');
  await blink.fill('1');
  await blink.press('Enter');
  await expect.poll(() => page.evaluate(() => window.sinew!.expression('blink'))).toBe(1);
  const closed = await pixelsIn(page, eyes);
  const changed = changedPixels(open, closed);
  expect(changed).toBeGreaterThan(400);

  // Springs off: the viewer settles its springs while paused, and swinging hair would change the count between pictures.
  await control(page, 'spring-bones').locator('input').uncheck();
  const head = await boxAround(page, ['head', 'neck'], 200);
  const withHair = hairPixels(await pixelsIn(page, head));
  await control(page, 'first-person').locator('input').check();
  const firstPerson = hairPixels(await pixelsIn(page, head));
  expect(withHair).toBeGreaterThan(2000);
  // What stays are shaded skin pixels of the same hue: the hair's own are gone.
  expect(firstPerson).toBeLessThan(withHair / 2);
  await control(page, 'first-person').locator('input').uncheck();
  expect(hairPixels(await pixelsIn(page, head))).toBe(withHair);
});
