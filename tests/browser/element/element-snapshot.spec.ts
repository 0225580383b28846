import { mkdirSync, writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';

// <sinew-viewer>'s snapshots, <model-viewer>'s names: toBlob({ mimeType, qualityArgument, idealAspect }) and
// toDataURL(type, quality). The picture is the element's visible canvas (the frame last drawn from the shared
// context): its size is the drawing buffer (CSS size × devicePixelRatio), its pixels are the ones shown, and
// taking it changes nothing on screen. Run at devicePixelRatio 2 so the size rule is visible.

const PAGE = '/tests/browser/pages/empty-page.html';

test.use({ deviceScaleFactor: 2 });

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
});

/** Adds a paused Fox (320 × 200 CSS px) and a paused CesiumMan (150 × 240 CSS px) and waits for both. */
async function addTwo(page: Page): Promise<void> {
  await page.goto(PAGE);
  await page.evaluate(() => {
    const add = (id: string, src: string, time: string, width: number, height: number): void => {
      const el = document.createElement('sinew-viewer');
      el.id = id;
      el.setAttribute('src', src);
      el.setAttribute('time', time);
      el.style.width = `${width}px`;
      el.style.height = `${height}px`;
      document.body.append(el);
    };
    add('fox', '/shared/assets/gltf/Fox.glb', '0.4', 320, 200);
    add('man', '/shared/assets/gltf/CesiumMan.glb', '0.5', 150, 240);
  });
  await page.waitForFunction(() => [...document.querySelectorAll('sinew-viewer')].every((el) => el.loaded), undefined, { timeout: 120_000 });
  // One more frame at the settled size (drawn in this task; the element is paused, so it never changes after).
  await page.evaluate(() => document.querySelectorAll('sinew-viewer').forEach((el) => el.renderOnce()));
}

/** What {@link snap} found: the decoded picture's size and type, and how it compares with the visible canvas. */
interface Snap {
  width: number;
  height: number;
  type: string;
  /** The visible canvas's drawing-buffer size. */
  canvas: { width: number; height: number };
  /** The visible canvas's pixels are the same after the call as before (no flicker). */
  untouched: boolean;
  /** Over the canvas's opaque pixels under the picture: how many, and the largest channel difference. */
  opaque: number;
  opaqueMax: number;
  /** Other pixels under the picture differing by more than 2 (alpha rounding at the model's edge). */
  translucentOff: number;
  /** Non-transparent pixels in the picture, and in the whole canvas. */
  drawn: number;
  drawnInCanvas: number;
  /** The PNG data URL of the picture (for a look). */
  url: string;
}

/**
 * In the page: `toBlob(options)` of `#id`, decoded, compared with the visible canvas at the centred place a
 * crop takes (the whole canvas when the sizes match); the canvas's pixels are read before and after the call.
 */
async function snap(page: Page, id: string, options?: { mimeType?: string; qualityArgument?: number; idealAspect?: boolean }): Promise<Snap> {
  return page.evaluate(async ({ id, options }) => {
    const el = document.getElementById(id) as HTMLElementTagNameMap['sinew-viewer'];
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const read = (c: HTMLCanvasElement): Uint8ClampedArray => c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const before = read(canvas);
    const blob = await el.toBlob(options);
    const after = read(canvas);
    const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const decoded = document.createElement('canvas');
    decoded.width = bitmap.width;
    decoded.height = bitmap.height;
    decoded.getContext('2d')!.drawImage(bitmap, 0, 0);
    const pixels = read(decoded);
    const x0 = Math.floor((canvas.width - bitmap.width) / 2);
    const y0 = Math.floor((canvas.height - bitmap.height) / 2);
    let opaque = 0, opaqueMax = 0, translucentOff = 0, drawn = 0, drawnInCanvas = 0;
    for (let i = 3; i < before.length; i += 4) if (before[i] > 0) drawnInCanvas++;
    for (let y = 0; y < bitmap.height; y++) {
      for (let x = 0; x < bitmap.width; x++) {
        const p = (y * bitmap.width + x) * 4;
        const c = ((y + y0) * canvas.width + x + x0) * 4;
        let d = 0;
        for (let k = 0; k < 4; k++) d = Math.max(d, Math.abs(pixels[p + k] - before[c + k]));
        if (pixels[p + 3] > 0) drawn++;
        if (before[c + 3] === 255) {
          opaque++;
          opaqueMax = Math.max(opaqueMax, d);
        } else if (d > 2) {
          translucentOff++;
        }
      }
    }
    return {
      width: bitmap.width, height: bitmap.height, type: blob.type, canvas: { width: canvas.width, height: canvas.height },
      untouched: before.every((v, i) => v === after[i]), opaque, opaqueMax, translucentOff, drawn, drawnInCanvas,
      url: decoded.toDataURL(),
    };
  }, { id, options });
}

/** Saves a picture under test-results/ to look at. */
function save(name: string, url: string): void {
  mkdirSync('test-results', { recursive: true });
  writeFileSync(`test-results/${name}.png`, Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
}

test('toBlob: PNG, JPEG and WebP of each element at CSS size × devicePixelRatio; PNG equals the visible canvas; the canvas is untouched', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await addTwo(page);

  const sizes = { fox: { width: 640, height: 400 }, man: { width: 300, height: 480 } };
  const drawnCounts: Record<string, number> = {};
  for (const id of ['fox', 'man'] as const) {
    const png = await snap(page, id);
    save(`element-snapshot-${id}`, png.url);
    expect(png.canvas).toEqual(sizes[id]);
    expect({ width: png.width, height: png.height, type: png.type }).toEqual({ ...sizes[id], type: 'image/png' });
    // No flicker: the visible canvas is exactly as it was.
    expect(png.untouched).toBe(true);
    // The picture is what is shown: lossless PNG, pixel for pixel (edge pixels that are not opaque may round).
    expect(png.opaque, `${id}: the model covers part of the canvas`).toBeGreaterThan(1000);
    expect(png.opaqueMax).toBe(0);
    expect(png.translucentOff).toBe(0);
    drawnCounts[id] = png.opaque;

    for (const [mimeType, type] of [['image/jpeg', 'image/jpeg'], ['image/webp', 'image/webp']] as const) {
      const lossy = await snap(page, id, { mimeType, qualityArgument: 0.9 });
      expect({ width: lossy.width, height: lossy.height, type: lossy.type }).toEqual({ ...sizes[id], type });
      expect(lossy.untouched).toBe(true);
    }
  }
  // Two elements, two pictures: each its own model.
  expect(drawnCounts.fox).not.toBe(drawnCounts.man);

  // qualityArgument reaches the encoder: a lower JPEG quality makes a smaller file.
  const bytes = await page.evaluate(async () => {
    const el = document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer'];
    const high = await el.toBlob({ mimeType: 'image/jpeg', qualityArgument: 0.95 });
    const low = await el.toBlob({ mimeType: 'image/jpeg', qualityArgument: 0.2 });
    return { high: high.size, low: low.size };
  });
  expect(bytes.low).toBeLessThan(bytes.high);
  expect(errors).toEqual([]);
});

test('toBlob({ idealAspect: true }) crops the picture, centred, to the model; toDataURL is the whole canvas', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await addTwo(page);

  // CesiumMan is taller than wide in a wide box (the Fox's box reused for it): bands left and right go.
  await page.evaluate(() => {
    const el = document.getElementById('fox')!;
    el.setAttribute('src', '/shared/assets/gltf/CesiumMan.glb');
  });
  await page.waitForFunction(() => (document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer']).model === 'CesiumMan.glb', undefined, { timeout: 120_000 });
  await page.evaluate(() => (document.getElementById('fox') as HTMLElementTagNameMap['sinew-viewer']).renderOnce());
  const full = await snap(page, 'fox');
  const cropped = await snap(page, 'fox', { idealAspect: true });
  save('element-snapshot-ideal-aspect', cropped.url);
  expect(full.width).toBe(640);
  expect(cropped.height).toBe(400);
  expect(cropped.width).toBeLessThan(400);
  expect(cropped.width).toBeGreaterThan(100);
  expect(cropped.untouched).toBe(true);
  // The crop is the middle of the canvas, pixel for pixel, and keeps (nearly) all of the model.
  expect(cropped.opaqueMax).toBe(0);
  expect(cropped.translucentOff).toBe(0);
  expect(cropped.drawn).toBeGreaterThan(0.98 * cropped.drawnInCanvas);
  await page.screenshot({ path: 'test-results/element-snapshot-page.png' });

  // toDataURL: model-viewer's signature; PNG by default, the whole drawing buffer.
  const urls = await page.evaluate(async () => {
    const el = document.getElementById('man') as HTMLElementTagNameMap['sinew-viewer'];
    const png = el.toDataURL();
    const jpeg = el.toDataURL('image/jpeg', 0.8);
    const image = new Image();
    image.src = png;
    await image.decode();
    const detached = document.createElement('sinew-viewer');
    return { png: png.slice(0, 22), jpeg: jpeg.slice(0, 23), width: image.naturalWidth, height: image.naturalHeight, detached: detached.toDataURL() };
  });
  expect(urls).toEqual({ png: 'data:image/png;base64,', jpeg: 'data:image/jpeg;base64,', width: 300, height: 480, detached: 'data:,' });
  const rejected = await page.evaluate(() => document.createElement('sinew-viewer').toBlob().then(() => 'resolved', (e: Error) => e.message));
  expect(rejected).toMatch(/not in a document/);
  expect(errors).toEqual([]);
});
