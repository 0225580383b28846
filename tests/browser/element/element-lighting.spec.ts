import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';
import { nextTask, quietPeriod } from '../helpers/page-turns.ts';
import { encodeHdr } from '../../unit/helpers/rgbe-encoder.ts';

// <sinew-viewer>'s light attributes, model-viewer's names: environment-image, skybox-image, exposure,
// tone-mapping (src/element/element-environment.ts, src/gpu/shading/scene-lighting.ts). Frames are drawn with
// renderOnce() (rAF is throttled headless) and read back from the element's 2D canvas.

const PAGE = '/tests/browser/pages/lighting.html';
const FOX = '/shared/assets/gltf/Fox.glb';

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

/** A uniform .hdr of RGBE bytes (r, g, b, e): radiance (r, g, b) · 2^(e − 128) / 255. */
function flatHdr(rgbe: readonly number[], width = 64, height = 32): Buffer {
  return Buffer.from(encodeHdr(width, height, () => rgbe, true));
}

/** Serves `body` at every URL ending in `path`. */
async function serve(page: Page, path: string, body: Buffer | string, contentType = 'application/octet-stream'): Promise<void> {
  await page.route(`**${path}`, (route) => route.fulfill({ body, contentType }));
}

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  await page.addInitScript(() => {
    const events: unknown[] = [];
    (window as unknown as { __events: unknown[] }).__events = events;
    for (const type of ['load', 'sinew-error', 'error']) {
      document.addEventListener(type, (e) => {
        const detail = (e as CustomEvent).detail as { message?: string; url?: string; type?: string } | undefined;
        events.push({ id: (e.target as HTMLElement).id, type, message: detail?.message ?? '', url: detail?.url ?? '', detailType: detail?.type ?? '' });
      });
    }
  });
});

/** Adds `<sinew-viewer id …attributes>` and waits for its model. */
async function addViewer(page: Page, id: string, attributes: Record<string, string>): Promise<void> {
  await page.evaluate(({ id, attributes }) => {
    const el = document.createElement('sinew-viewer');
    el.id = id;
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
    document.body.append(el);
  }, { id, attributes });
  await page.waitForFunction((id) => (document.getElementById(id) as Viewer).model !== '', id, { timeout: 60_000 });
}

interface Stats {
  /** Mean relative luminance (Rec. 709 weights on the sRGB-encoded 0…255 values) over the model's pixels (alpha > 0). */
  luminance: number;
  /** Mean R, G, B over the model's pixels. */
  rgb: number[];
  /** Pixel count of the model. */
  count: number;
  /** RGBA of the top-left pixel (the background / skybox). */
  corner: number[];
}

/** Draws `#id` now and measures its canvas. */
async function measure(page: Page, id: string): Promise<Stats> {
  return page.evaluate((id) => {
    const el = document.getElementById(id) as Viewer;
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0, lum = 0;
    const rgb = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] < 255) continue;
      n++;
      for (let c = 0; c < 3; c++) rgb[c] += data[i + c];
      lum += 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
    }
    return { luminance: lum / Math.max(1, n), rgb: rgb.map((v) => v / Math.max(1, n)), count: n, corner: [...data.slice(0, 4)] };
  }, id);
}

test('attributes: defaults, model-viewer values, and bad values warn (sinew-error) and fall back, never throw', async ({ page }) => {
  const errors = collectErrors(page);
  const warnings: string[] = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(PAGE);
  await addViewer(page, 'a', {});
  const read = () => page.evaluate(() => {
    const el = document.getElementById('a') as Viewer;
    return { exposure: el.exposure, toneMapping: el.toneMapping, environmentImage: el.environmentImage, skyboxImage: el.skyboxImage };
  });
  expect(await read()).toEqual({ exposure: 1, toneMapping: null, environmentImage: null, skyboxImage: null });
  await page.evaluate(() => {
    const el = document.getElementById('a') as Viewer;
    el.exposure = 2;
    el.toneMapping = 'AgX';
    el.environmentImage = 'neutral';
  });
  expect(await read()).toEqual({ exposure: 2, toneMapping: 'AgX', environmentImage: 'neutral', skyboxImage: null });
  for (const [name, value] of [['exposure', '-1'], ['exposure', 'bright'], ['tone-mapping', 'filmic']] as const) {
    await page.evaluate(([name, value]) => document.getElementById('a')!.setAttribute(name, value), [name, value]);
  }
  expect(await page.evaluate(() => (document.getElementById('a') as Viewer).exposure)).toBe(1);
  const events = await page.evaluate(() => (window as unknown as { __events: { type: string; message: string }[] }).__events.filter((e) => e.type === 'sinew-error').map((e) => e.message));
  expect(events).toEqual([
    '<sinew-viewer exposure="-1">: expected a number ≥ 0 (1 is as lit)',
    '<sinew-viewer exposure="bright">: expected a number ≥ 0 (1 is as lit)',
    '<sinew-viewer tone-mapping="filmic">: expected auto, aces, agx, commerce, neutral, reinhard, cineon, linear, none',
  ]);
  expect(warnings.filter((w) => w.includes('tone-mapping="filmic"'))).toHaveLength(1);
  await measure(page, 'a'); // still draws
  expect(errors).toEqual([]);
});

test('exposure 2 vs 0.5 brightens the model, in Sinew and in model-viewer on the same page', async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await page.goto(PAGE);
  const figures: Record<string, number> = {};
  for (const environment of ['', 'neutral']) {
    const lum: Record<string, number> = {};
    for (const exposure of ['0.5', '2']) {
      const id = `s${environment}${exposure.replace('.', '')}`;
      await addViewer(page, id, { src: FOX, time: '0', yaw: '-60', ...(environment ? { 'environment-image': environment } : {}), exposure });
      await nextTask(page); // (the environment attribute applies after a task)
      lum[exposure] = (await measure(page, id)).luminance;
    }
    figures[`sinew ${environment || 'studio'}`] = lum['2'] / lum['0.5'];
    expect(lum['2'], JSON.stringify(lum)).toBeGreaterThan(lum['0.5'] * 1.3);
  }

  // model-viewer (dev dependency) with the same model and attributes; its frames read through toDataURL.
  await page.addScriptTag({ url: '/node_modules/@google/model-viewer/dist/model-viewer.min.js', type: 'module' });
  await page.waitForFunction(() => customElements.get('model-viewer') !== undefined);
  const mv: Record<string, number> = {};
  for (const exposure of ['0.5', '2']) {
    mv[exposure] = await page.evaluate(async ({ exposure, src }) => {
      const el = document.createElement('model-viewer') as HTMLElement & { toDataURL(): string; loaded: boolean };
      el.setAttribute('src', src);
      el.setAttribute('exposure', exposure);
      el.setAttribute('camera-orbit', '-60deg 80deg auto');
      el.setAttribute('interaction-prompt', 'none');
      el.setAttribute('loading', 'eager');
      el.setAttribute('reveal', 'auto');
      document.querySelectorAll('sinew-viewer, model-viewer').forEach((old) => old.remove());
      document.body.prepend(el);
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
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0, lum = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] < 255) continue;
        n++;
        lum += 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
      }
      return lum / Math.max(1, n);
    }, { exposure, src: FOX });
  }
  figures['model-viewer neutral'] = mv['2'] / mv['0.5'];
  console.log(`exposure 2 / exposure 0.5 mean luminance (sRGB 0…255 over the model's pixels): ${JSON.stringify(figures)} (Sinew ${JSON.stringify(figures)}; model-viewer 0.5 → ${mv['0.5'].toFixed(1)}, 2 → ${mv['2'].toFixed(1)})`);
  expect(mv['2']).toBeGreaterThan(mv['0.5'] * 1.3);
  await page.screenshot({ path: 'test-results/lighting-exposure.png' });
  expect(errors).toEqual([]);
});

test('tone mappings differ; linear is exposure × radiance, clamped, sRGB-encoded (a uniform skybox by hand)', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  // Radiance (128, 64, 32)/255 · 2^(129 − 128) ≈ (1.004, 0.502, 0.251).
  await serve(page, '/flat.hdr', flatHdr([128, 64, 32, 129]));
  await page.goto(PAGE);
  await addViewer(page, 't', { src: FOX, time: '0', 'skybox-image': '/flat.hdr' });
  await page.waitForFunction(() => {
    const el = document.getElementById('t') as Viewer;
    el.renderOnce();
    return el.shadowRoot!.querySelector('canvas')!.getContext('2d')!.getImageData(0, 0, 1, 1).data[3] === 255;
  }, undefined, { timeout: 20_000 });
  const means: Record<string, number[]> = {};
  // At exposure 1.5, so that `none` (which ignores the exposure, as three's NoToneMapping) differs from `linear`.
  await page.evaluate(() => document.getElementById('t')!.setAttribute('exposure', '1.5'));
  for (const tone of ['neutral', 'aces', 'agx', 'reinhard', 'cineon', 'linear', 'none']) {
    await page.evaluate((tone) => document.getElementById('t')!.setAttribute('tone-mapping', tone), tone);
    const stats = await measure(page, 't');
    means[tone] = [...stats.rgb];
    if (tone === 'linear') {
      for (const exposure of [0.5, 1.5]) {
        await page.evaluate((e) => document.getElementById('t')!.setAttribute('exposure', String(e)), exposure);
        const corner = (await measure(page, 't')).corner;
        const srgb = (c: number) => 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
        const expected = [128, 64, 32].map((b) => srgb(Math.min(1, exposure * (b / 255) * 2)));
        for (let c = 0; c < 3; c++) expect(Math.abs(corner[c] - expected[c]), `${exposure}: ${corner} vs ${expected}`).toBeLessThanOrEqual(2);
      }
      await page.evaluate(() => document.getElementById('t')!.setAttribute('exposure', '1.5'));
    }
  }
  await page.screenshot({ path: 'test-results/lighting-tone.png' });
  const names = Object.keys(means);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const d = Math.max(...means[names[i]].map((v, c) => Math.abs(v - means[names[j]][c])));
      expect(d, `${names[i]} vs ${names[j]}: ${JSON.stringify(means)}`).toBeGreaterThan(0.5);
    }
  }
  expect(errors).toEqual([]);
});

test('a bad environment-image keeps the light shown before and fires one error event naming it; a huge .hdr is refused from its header', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await serve(page, '/red.hdr', flatHdr([200, 20, 20, 128]));
  await serve(page, '/not-an-image.hdr', '<html>nope</html>', 'text/plain');
  await serve(page, '/not-an-image.png', 'just text', 'image/png');
  await serve(page, '/huge.hdr', Buffer.from('#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8192 +X 16384\n\x02\x02\x40\x00'));
  await page.route('**/missing.hdr', (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(PAGE);
  await addViewer(page, 'e', { src: FOX, time: '0', 'environment-image': '/red.hdr' });
  await page.waitForFunction(() => { const el = document.getElementById('e') as Viewer; el.renderOnce(); return true; });
  // The image is fetched and decoded, then applied: the fox is lit red once it is.
  await expect.poll(async () => { const { rgb } = await measure(page, 'e'); return rgb[0] / rgb[1]; }, { timeout: 30_000 }).toBeGreaterThan(2);
  const red = await measure(page, 'e');
  expect(red.rgb[0], JSON.stringify(red.rgb)).toBeGreaterThan(red.rgb[1] * 2);
  for (const bad of ['/missing.hdr', '/not-an-image.hdr', '/not-an-image.png', '/huge.hdr']) {
    const before = await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events.length);
    await page.evaluate((bad) => document.getElementById('e')!.setAttribute('environment-image', bad), bad);
    await page.waitForFunction((before) => (window as unknown as { __events: { type: string }[] }).__events.slice(before).some((e) => e.type === 'error'), before, { timeout: 10_000 });
    await quietPeriod(page, 100); // a second error event, or a change of light, would show meanwhile
    const events = await page.evaluate((before) => (window as unknown as { __events: { type: string; url: string; message: string; detailType: string }[] }).__events.slice(before), before);
    const errorEvents = events.filter((e) => e.type === 'error');
    expect(errorEvents, JSON.stringify(events)).toHaveLength(1);
    expect(errorEvents[0].url).toContain(bad);
    expect(errorEvents[0].message).toContain(bad);
    expect(errorEvents[0].detailType).toBe('loadfailure');
    if (bad === '/huge.hdr') expect(errorEvents[0].message).toMatch(/16384 × 8192 .* over the memory budget of 512 MiB/);
    const after = await measure(page, 'e');
    for (let c = 0; c < 3; c++) expect(Math.abs(after.rgb[c] - red.rgb[c]), bad).toBeLessThan(0.5);
  }
  expect(errors.filter((e) => !/404 \(Not Found\)/.test(e))).toEqual([]);
});

test('two elements with different environments on one page each keep their own light', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await serve(page, '/red.hdr', flatHdr([200, 20, 20, 128]));
  await serve(page, '/blue.hdr', flatHdr([20, 20, 200, 128]));
  await page.goto(PAGE);
  await addViewer(page, 'r', { src: FOX, time: '0', 'environment-image': '/red.hdr', 'skybox-image': '/red.hdr' });
  await addViewer(page, 'b', { src: FOX, time: '0', 'environment-image': '/blue.hdr', exposure: '2', 'tone-mapping': 'aces' });
  await addViewer(page, 'n', { src: FOX, time: '0', 'environment-image': 'legacy' });
  // Their images are fetched and decoded, then applied: r's skybox covers its background, b's fox turns purple.
  await expect.poll(async () => {
    const r = await measure(page, 'r'), b = await measure(page, 'b');
    return r.corner[3] === 255 && b.rgb[2] > b.rgb[0];
  }, { timeout: 30_000 }).toBe(true);
  const first = { r: await measure(page, 'r'), b: await measure(page, 'b'), n: await measure(page, 'n') };
  // Interleaved draws: each element's frame is the same whoever drew last.
  const again = { n: await measure(page, 'n'), b: await measure(page, 'b'), r: await measure(page, 'r') };
  await page.screenshot({ path: 'test-results/lighting-two.png' });
  expect(first.r.rgb[0]).toBeGreaterThan(first.r.rgb[2] * 2);
  // The fox is orange: under blue light it turns purple, far bluer than under red.
  expect(first.b.rgb[2] / first.b.rgb[0]).toBeGreaterThan(3 * first.r.rgb[2] / first.r.rgb[0]);
  expect(first.r.corner[3], 'the skybox covers the background').toBe(255);
  expect(first.b.corner[3], 'no skybox: transparent').toBe(0);
  expect(Math.abs(first.n.rgb[0] - first.n.rgb[2])).toBeLessThan(Math.abs(first.r.rgb[0] - first.r.rgb[2]));
  for (const id of ['r', 'b', 'n'] as const) {
    for (let c = 0; c < 3; c++) expect(Math.abs(again[id].rgb[c] - first[id].rgb[c]), id).toBeLessThan(0.01);
  }
  expect(errors).toEqual([]);
});
