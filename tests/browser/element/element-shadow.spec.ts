import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';
import { nextTask } from '../helpers/page-turns.ts';

// <sinew-viewer>'s contact shadow, model-viewer's names: shadow-intensity, shadow-softness
// (src/element/element-shadow.ts, src/gpu/passes/contact-shadow.ts). The background is transparent in the element's
// canvas, so a pixel that is not the model's reads the shadow's opacity in its alpha. Frames are drawn with
// renderOnce() (rAF is throttled headless) and read back from the element's 2D canvas.

const PAGE = '/tests/browser/pages/lighting.html';
const FOX = '/shared/assets/gltf/Fox.glb';
const ORBIT = '30deg 60deg auto';

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  await page.addInitScript(() => {
    const events: unknown[] = [];
    (window as unknown as { __events: unknown[] }).__events = events;
    document.addEventListener('sinew-error', (e) => {
      events.push({ id: (e.target as HTMLElement).id, message: (e as CustomEvent<{ message: string }>).detail.message });
    });
  });
});

async function addViewer(page: Page, id: string, attributes: Record<string, string>): Promise<void> {
  await page.evaluate(({ id, attributes }) => {
    const el = document.createElement('sinew-viewer');
    el.id = id;
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
    document.body.append(el);
  }, { id, attributes });
  await page.waitForFunction((id) => (document.getElementById(id) as Viewer).model !== '', id, { timeout: 60_000 });
}

/** RGBA of `#id`'s canvas after drawing it now (attributes set first, when given). */
async function pixels(page: Page, id: string, attributes: Record<string, string> = {}): Promise<Image> {
  const { base64, width, height } = await page.evaluate(({ id, attributes }) => {
    const el = document.getElementById(id) as Viewer;
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { base64: btoa(binary), width: canvas.width, height: canvas.height };
  }, { id, attributes });
  return { data: new Uint8Array(Buffer.from(base64, 'base64')), width, height };
}

/**
 * RGBA pixels. They cross from the page as one base64 string: Playwright serializes a returned array element by
 * element, which took seconds per picture.
 */
interface Image { data: Uint8Array; width: number; height: number }

/**
 * The ground under the feet: columns of the model's extent, rows from 15 % of the height above its lowest
 * pixel to 10 % below, without the model's pixels (of `bare`, drawn without a shadow). Mean luminance of
 * `image` composited on white (Rec. 709 weights on the sRGB values, 0…255).
 */
function groundLuminance(image: Image, bare: Image): number {
  const { width, height } = bare;
  let x0 = width, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (bare.data[4 * (y * width + x) + 3] === 0) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  let sum = 0, n = 0;
  for (let y = Math.max(0, y1 - Math.round(0.15 * height)); y < Math.min(height, y1 + Math.round(0.1 * height)); y++) {
    for (let x = x0; x <= x1; x++) {
      const i = 4 * (y * width + x);
      if (bare.data[i + 3] !== 0) continue;
      const a = image.data[i + 3] / 255;
      const c = (k: number) => image.data[i + k] * a + 255 * (1 - a);
      sum += 0.2126 * c(0) + 0.7152 * c(1) + 0.0722 * c(2);
      n++;
    }
  }
  return sum / Math.max(1, n);
}

/** Alpha of the pixels that are not the model's in `bare` (the shadow alone, 0…255). */
function shadowAlpha(image: Image, bare: Image): number[] {
  const out: number[] = [];
  for (let i = 3; i < bare.data.length; i += 4) out.push(bare.data[i] === 0 ? image.data[i] : 0);
  return out;
}

test('attributes: defaults, and bad values warn (sinew-error), fall back and never throw', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  const warnings: string[] = [];
  page.on('console', (msg) => { if (msg.type() === 'warning') warnings.push(msg.text()); });
  await page.goto(PAGE);
  await addViewer(page, 'bad', { src: FOX, time: '0', 'camera-orbit': ORBIT, 'shadow-intensity': '2', 'shadow-softness': 'soft' });
  await nextTask(page); // the element's connect-time work runs a task after it connects
  const bare = await pixels(page, 'bad', { 'shadow-intensity': '0' });
  await page.evaluate(() => document.getElementById('bad')!.setAttribute('shadow-intensity', '2'));
  const bad = await pixels(page, 'bad');
  expect(shadowAlpha(bad, bare).some((a) => a > 0), 'intensity 2 falls back to 0: no shadow').toBe(false);
  await page.evaluate(() => {
    const el = document.getElementById('bad')!;
    el.setAttribute('shadow-intensity', '-0.5');
    el.setAttribute('shadow-intensity', 'NaN');
    el.setAttribute('shadow-softness', '1.5');
  });
  const events = await page.evaluate(() => (window as unknown as { __events: { message: string }[] }).__events.map((e) => e.message));
  for (const expected of [/shadow-intensity.*2/, /shadow-softness.*soft/, /shadow-intensity.*-0\.5/, /shadow-intensity.*NaN/, /shadow-softness.*1\.5/]) {
    expect(events.some((m) => expected.test(m)), `${expected} in ${JSON.stringify(events)}`).toBe(true);
  }
  expect(warnings.some((w) => /shadow-intensity/.test(w))).toBe(true);
  const props = await page.evaluate(() => {
    const el = document.getElementById('bad') as Viewer & { shadowIntensity: number | null; shadowSoftness: number | null };
    const fresh = document.createElement('sinew-viewer') as Viewer & { shadowIntensity: number | null; shadowSoftness: number | null };
    el.setAttribute('shadow-intensity', '0.25');
    el.setAttribute('shadow-softness', '0');
    return { intensity: el.shadowIntensity, softness: el.shadowSoftness, freshIntensity: fresh.shadowIntensity, freshSoftness: fresh.shadowSoftness };
  });
  expect(props).toEqual({ intensity: 0.25, softness: 0, freshIntensity: 0, freshSoftness: 1 });
  expect(errors).toEqual([]);
});

test('shadow-intensity 1 vs 0 darkens the ground under the feet, in Sinew and in model-viewer on the same page', async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await page.goto(PAGE);
  await addViewer(page, 'fox', { src: FOX, time: '0', 'camera-orbit': ORBIT });
  await nextTask(page);
  const bare = await pixels(page, 'fox', { 'shadow-intensity': '0' });
  const lit = await pixels(page, 'fox', { 'shadow-intensity': '1' });
  const sinew = { off: groundLuminance(bare, bare), on: groundLuminance(lit, bare) };
  await page.screenshot({ path: 'test-results/element-shadow-fox.png' });
  expect(sinew.on, JSON.stringify(sinew)).toBeLessThan(sinew.off * 0.99);

  await page.addScriptTag({ url: '/node_modules/@google/model-viewer/dist/model-viewer.min.js', type: 'module' });
  await page.waitForFunction(() => customElements.get('model-viewer') !== undefined);
  const mv: Record<string, number> = {};
  const mvImages: Record<string, Image> = {};
  for (const intensity of ['0', '1']) {
    mvImages[intensity] = await page.evaluate(async ({ intensity, src, orbit }) => {
      const el = document.createElement('model-viewer') as HTMLElement & { toDataURL(): string };
      el.setAttribute('src', src);
      el.setAttribute('shadow-intensity', intensity);
      el.setAttribute('camera-orbit', orbit);
      el.setAttribute('interaction-prompt', 'none');
      el.setAttribute('loading', 'eager');
      document.querySelectorAll('model-viewer').forEach((old) => old.remove());
      document.body.append(el);
      await new Promise((resolve) => el.addEventListener('load', resolve, { once: true }));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const image = new Image();
      image.src = el.toDataURL();
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let binary = '';
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return { base64: btoa(binary), width: canvas.width, height: canvas.height };
    }, { intensity, src: FOX, orbit: ORBIT }).then(({ base64, width, height }) => ({ data: new Uint8Array(Buffer.from(base64, 'base64')), width, height }));
  }
  mv.off = groundLuminance(mvImages['0'], mvImages['0']);
  mv.on = groundLuminance(mvImages['1'], mvImages['0']);
  await page.addStyleTag({ content: 'body { background: #fff; }' });
  await page.evaluate(() => { document.getElementById('fox')!.setAttribute('background', 'transparent'); (document.getElementById('fox') as Viewer).renderOnce(); });
  await page.screenshot({ path: 'test-results/element-shadow-side-by-side.png' });
  console.log(`shadow-intensity 1 / 0, mean luminance of the ground under the feet (on white, sRGB 0…255): Sinew ${(sinew.on / sinew.off).toFixed(3)} (${sinew.off.toFixed(1)} → ${sinew.on.toFixed(1)}), model-viewer ${(mv.on / mv.off).toFixed(3)} (${mv.off.toFixed(1)} → ${mv.on.toFixed(1)})`);
  expect(mv.on).toBeLessThan(mv.off * 0.99);
  expect(errors).toEqual([]);
});

test('the shadow moves with the animation, softness 0 vs 1 changes its edge, two elements keep their own', async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await page.goto(PAGE);
  await addViewer(page, 'a', { src: FOX, 'animation-name': 'Run', time: '0', 'camera-orbit': ORBIT, 'shadow-intensity': '1' });
  await addViewer(page, 'b', { src: FOX, 'animation-name': 'Run', time: '0', 'camera-orbit': ORBIT });
  await nextTask(page);

  // Two clip times: the shadow's pixels differ where neither frame has the model.
  const shadowAt = async (time: string) => {
    const bare = await pixels(page, 'a', { time, 'shadow-intensity': '0' });
    const lit = await pixels(page, 'a', { 'shadow-intensity': '1' });
    return { alpha: shadowAlpha(lit, bare), bare };
  };
  const t0 = await shadowAt('0');
  const t1 = await shadowAt('0.35');
  let moved = 0;
  for (let i = 0; i < t0.alpha.length; i++) {
    if (t0.bare.data[4 * i + 3] === 0 && t1.bare.data[4 * i + 3] === 0 && Math.abs(t0.alpha[i] - t1.alpha[i]) > 8) moved++;
  }
  expect(moved, 'shadow pixels changed between two clip times').toBeGreaterThan(20);

  // Softness: the share of the shadow's pixels in its penumbra (below 80 % of its darkest).
  const penumbra = async (softness: string) => {
    const bare = await pixels(page, 'a', { time: '0', 'shadow-intensity': '0', 'shadow-softness': softness });
    const alpha = shadowAlpha(await pixels(page, 'a', { 'shadow-intensity': '1' }), bare);
    const peak = Math.max(...alpha);
    const shadowed = alpha.filter((a) => a > 2);
    return { share: shadowed.filter((a) => a < 0.8 * peak).length / Math.max(1, shadowed.length), peak, count: shadowed.length };
  };
  const hard = await penumbra('0');
  const soft = await penumbra('1');
  console.log(`penumbra share: softness 0 ${hard.share.toFixed(3)} (peak α ${hard.peak}, ${hard.count} px), softness 1 ${soft.share.toFixed(3)} (peak α ${soft.peak}, ${soft.count} px)`);
  expect(hard.count).toBeGreaterThan(0);
  expect(soft.share).toBeGreaterThan(hard.share + 0.1);
  await page.evaluate(() => document.getElementById('a')!.setAttribute('shadow-softness', '1'));

  // Each element keeps its own: a has a shadow, b (same model, same context) none.
  const aBare = await pixels(page, 'a', { 'shadow-intensity': '0' });
  const aLit = await pixels(page, 'a', { 'shadow-intensity': '1' });
  const bImage = await pixels(page, 'b');
  const aAgain = await pixels(page, 'a');
  expect(shadowAlpha(aLit, aBare).filter((a) => a > 2).length).toBeGreaterThan(100);
  expect(shadowAlpha(bImage, aBare).filter((a) => a > 0).length, 'b draws no shadow').toBe(0);
  expect(aAgain.data).toEqual(aLit.data);
  await page.screenshot({ path: 'test-results/element-shadow-two.png' });

  // The shadow pass's cost: frames with and without it (the model is skinned in each pass), each frame
  // waited for by reading a pixel of the element's canvas (its copy of the shared context's picture).
  const cost = await page.evaluate(() => {
    const el = document.getElementById('a') as Viewer;
    const context = el.shadowRoot!.querySelector('canvas')!.getContext('2d')!;
    const frame = () => { el.renderOnce(); context.getImageData(0, 0, 1, 1); };
    const time = (intensity: string) => {
      el.setAttribute('shadow-intensity', intensity);
      for (let i = 0; i < 5; i++) frame();
      const t = performance.now();
      for (let i = 0; i < 40; i++) frame();
      return (performance.now() - t) / 40;
    };
    return { without: time('0'), with: time('1'), without2: time('0'), with2: time('1') };
  });
  console.log(`ms per frame (renderOnce + a pixel read back): without shadow ${cost.without.toFixed(2)} / ${cost.without2.toFixed(2)}, with shadow ${cost.with.toFixed(2)} / ${cost.with2.toFixed(2)}`);
  expect(errors).toEqual([]);
});
