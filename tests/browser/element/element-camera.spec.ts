import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload } from '../helpers/viewer-page.ts';

// <sinew-viewer>'s camera in <model-viewer>'s language (element-camera.ts): attribute parsing (bad values warn,
// fire sinew-error and read as the default, never throw), camera-change and its sources, camera-controls,
// disable-zoom / disable-pan, limits, auto-rotate, interaction-prompt, the yaw/pitch/distance alias note.
// The built-in octopus (no src) keeps it quick.

const PAGE = '/tests/browser/pages/empty-page.html';
const DEG = Math.PI / 180;

interface Heard {
  type: string;
  detail: { source?: string; message?: string };
}

/** Adds a `<sinew-viewer id="v">` with `attributes` (300 × 200) and waits for its model. */
async function addViewer(page: Page, attributes: Record<string, string>): Promise<void> {
  await page.evaluate((attrs) => {
    const el = document.createElement('sinew-viewer');
    el.id = 'v';
    el.style.cssText = 'display: block; width: 300px; height: 200px';
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    document.body.append(el);
  }, attributes);
  await page.waitForFunction(() => document.querySelector('sinew-viewer')?.model !== '', undefined, { timeout: 120_000 });
}

/** The camera now: orbit (radians, metres), target (metres) and field of view (degrees). */
async function camera(page: Page): Promise<{ theta: number; phi: number; radius: number; target: number[]; fov: number; text: string }> {
  return page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    const o = el.getCameraOrbit();
    const t = el.getCameraTarget();
    return { theta: o.theta, phi: o.phi, radius: o.radius, target: [t.x, t.y, t.z], fov: el.getFieldOfView(), text: `${o} | ${t}` };
  });
}

/** Events heard since the last call. */
async function heard(page: Page): Promise<Heard[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __heard: Heard[] };
    return w.__heard.splice(0);
  });
}

/** Drags on the element's canvas by (dx, dy) CSS pixels from its centre (with shift: a pan). */
async function drag(page: Page, dx: number, dy: number, shift = false): Promise<void> {
  const box = (await page.locator('sinew-viewer').boundingBox())!;
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2);
  await page.mouse.move(x + dx, y + dy);
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}

async function wheel(page: Page, deltaY: number): Promise<void> {
  const box = (await page.locator('sinew-viewer').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, deltaY);
}

let warnings: string[];
let errors: string[];

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  errors = collectErrors(page);
  warnings = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await page.addInitScript(() => {
    const list: unknown[] = [];
    (window as unknown as { __heard: unknown[] }).__heard = list;
    for (const type of ['camera-change', 'sinew-error']) {
      document.addEventListener(type, (e) => list.push({ type, detail: (e as CustomEvent).detail }));
    }
  });
  await page.goto(PAGE);
});

test.afterEach(() => {
  expect(errors, 'no page errors').toEqual([]);
});

test("camera-orbit, camera-target and field-of-view set the camera in model-viewer's units; the getters read it back", async ({ page }) => {
  await addViewer(page, { 'camera-orbit': '30deg 60deg 4m', 'camera-target': '0m 50cm 0m', 'field-of-view': '20deg', 'max-camera-orbit': 'auto auto 10m' });
  const c = await camera(page);
  expect(c.theta).toBeCloseTo(30 * DEG, 6);
  expect(c.phi).toBeCloseTo(60 * DEG, 6);
  expect(c.radius).toBeCloseTo(4, 5);
  expect(c.target).toEqual([0, 0.5, 0]);
  expect(c.fov).toBeCloseTo(20, 4);
  expect(c.text).toMatch(/^[\d.e-]+rad [\d.e-]+rad 4m \| 0m 0.5m 0m$/);

  // % of the framed distance, and the default 105% (the auto maximum).
  await page.evaluate(() => document.querySelector('sinew-viewer')!.setAttribute('camera-orbit', '0deg 90deg 50%'));
  const half = (await camera(page)).radius;
  await page.evaluate(() => document.querySelector('sinew-viewer')!.setAttribute('camera-orbit', 'auto auto auto'));
  const auto = await camera(page);
  expect(auto.radius / half).toBeCloseTo(2.1, 5);
  expect(auto.phi).toBeCloseTo(75 * DEG, 6);
  // The property reflects the attribute, as model-viewer's string properties do.
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.cameraOrbit)).toBe('auto auto auto');
});

test('bad camera values: a console warning naming the attribute, sinew-error, the default; nothing throws', async ({ page }) => {
  await addViewer(page, { 'camera-controls': '' });
  const defaults = await camera(page);
  await heard(page);
  const bad: Record<string, string> = {
    'camera-orbit': '10px 20deg 3m',
    'camera-target': '1m 2m 3%',
    'field-of-view': '200deg',
    'min-camera-orbit': 'a b c',
    'max-camera-orbit': '1 2 3 4',
    'min-field-of-view': '-5deg',
    'max-field-of-view': 'wide',
    'auto-rotate-delay': '-100',
    'rotation-per-second': '5m',
    'interaction-prompt': 'sometimes',
  };
  for (const [name, value] of Object.entries(bad)) {
    warnings.length = 0;
    await page.evaluate(([n, v]) => document.querySelector('sinew-viewer')!.setAttribute(n, v), [name, value]);
    expect(warnings.filter((w) => w.includes(`<sinew-viewer ${name}="${value}">: expected`)), name).toHaveLength(1);
    const events = await heard(page);
    expect(events.filter((e) => e.type === 'sinew-error').map((e) => e.detail.message), name).toEqual([expect.stringContaining(`${name}="${value}"`)]);
  }
  // Every one read as its default: the camera is where it was.
  const after = await camera(page);
  expect(after.theta).toBeCloseTo(defaults.theta, 6);
  expect(after.phi).toBeCloseTo(defaults.phi, 6);
  expect(after.radius).toBeCloseTo(defaults.radius, 4);
  expect(after.fov).toBeCloseTo(defaults.fov, 4);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.autoRotateDelay)).toBeNull();
});

test('bad values present when the element connects are reported after it is upgraded', async ({ page }) => {
  await addViewer(page, { 'camera-orbit': 'sideways', 'field-of-view': '0deg' });
  await expect.poll(() => warnings.filter((w) => /camera-orbit="sideways"|field-of-view="0deg"/.test(w)).length).toBe(2);
  const c = await camera(page);
  expect(c.phi).toBeCloseTo(75 * DEG, 6);
  expect(c.fov).toBeCloseTo(30, 3);
});

test('camera-change: none on load, attributes and jumpCameraToGoal; user-interaction on drags; input only with camera-controls', async ({ page }) => {
  await addViewer(page, { 'camera-orbit': '0deg 75deg 105%' });
  expect((await heard(page)).filter((e) => e.type === 'camera-change')).toEqual([{ type: 'camera-change', detail: { source: 'none' } }]);

  // A model-viewer camera attribute without camera-controls: dragging does nothing.
  const before = await camera(page);
  await drag(page, 80, 0);
  expect((await camera(page)).theta).toBe(before.theta);
  expect(await heard(page)).toEqual([]);

  await page.evaluate(() => document.querySelector('sinew-viewer')!.toggleAttribute('camera-controls', true));
  expect(await heard(page)).toEqual([{ type: 'camera-change', detail: { source: 'none' } }]);
  await drag(page, 80, 0);
  expect((await camera(page)).theta).not.toBe(before.theta);
  const dragged = await heard(page);
  expect(dragged.length).toBeGreaterThan(0);
  expect(dragged.every((e) => e.type === 'camera-change' && e.detail.source === 'user-interaction')).toBe(true);

  // jumpCameraToGoal: back to camera-orbit, source none.
  await page.evaluate(() => document.querySelector('sinew-viewer')!.jumpCameraToGoal());
  expect((await camera(page)).theta).toBeCloseTo(0, 9);
  expect(await heard(page)).toEqual([{ type: 'camera-change', detail: { source: 'none' } }]);
});

test('an element with no model-viewer camera attribute orbits as before (yaw / pitch / distance, one alias note)', async ({ page }) => {
  await addViewer(page, { yaw: '20', pitch: '10' });
  const c = await camera(page);
  expect(c.theta).toBeCloseTo(20 * DEG, 6);
  expect(c.phi).toBeCloseTo(80 * DEG, 6);
  expect(c.fov).toBeCloseTo(45, 4);
  await drag(page, 80, 0);
  expect((await camera(page)).theta).not.toBeCloseTo(20 * DEG, 3);
  await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    el.setAttribute('yaw', '40');
    el.setAttribute('distance', '2');
  });
  expect(warnings.filter((w) => w.includes('use camera-orbit'))).toHaveLength(1);
});

test('disable-zoom, disable-pan and max-camera-orbit bound the input', async ({ page }) => {
  await addViewer(page, { 'camera-controls': '', 'disable-zoom': '', 'disable-pan': '', 'max-camera-orbit': '20deg 80deg auto', 'min-camera-orbit': '-20deg 70deg auto' });
  const start = await camera(page);
  await wheel(page, 400);
  await wheel(page, -400);
  expect((await camera(page)).radius).toBe(start.radius);
  await drag(page, 40, 40, true);
  expect((await camera(page)).target).toEqual(start.target);
  await drag(page, -250, -150);
  const c = await camera(page);
  expect(c.theta).toBeCloseTo(20 * DEG, 6);
  expect(c.phi).toBeCloseTo(80 * DEG, 6);

  // Zoom back on: the wheel zooms, within [min, max] radius.
  await page.evaluate(() => document.querySelector('sinew-viewer')!.toggleAttribute('disable-zoom', false));
  await wheel(page, -300);
  expect((await camera(page)).radius).toBeLessThan(start.radius);
  await wheel(page, 5000);
  expect((await camera(page)).radius).toBeCloseTo(start.radius, 5); // the auto maximum: 105%, where it started
});

test('auto-rotate turns the model after auto-rotate-delay, at rotation-per-second; camera-orbit stays', async ({ page }) => {
  await addViewer(page, { 'camera-orbit': '0deg 75deg 105%', time: '0' });
  await page.clock.install();
  // The red channel, crossing to node as one base64 string (Playwright serializes a returned array element by element, slowly).
  const pixels = (): Promise<Uint8Array> => page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const red = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data.filter((_, i) => i % 4 === 0);
    let binary = '';
    for (let i = 0; i < red.length; i += 0x8000) binary += String.fromCharCode(...red.subarray(i, i + 0x8000));
    return btoa(binary);
  }).then((base64) => new Uint8Array(Buffer.from(base64, 'base64')));
  const still = await pixels();
  await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    el.setAttribute('auto-rotate-delay', '1000');
    el.setAttribute('rotation-per-second', '90deg');
    el.toggleAttribute('auto-rotate', true);
  });
  await page.clock.runFor(500);
  expect(await pixels(), 'not before the delay').toEqual(still);
  await page.clock.runFor(1500);
  const turned = await pixels();
  const changed = turned.filter((v, i) => v !== still[i]).length;
  expect(changed, 'the model turned').toBeGreaterThan(100);
  expect((await camera(page)).theta).toBe(0);
});

test('interaction-prompt: a hint 3 s after load with camera-controls, gone after the first drag; none: never', async ({ page }) => {
  await page.clock.install();
  await addViewer(page, { 'camera-controls': '' });
  const prompt = page.locator('sinew-viewer').locator('[part="interaction-prompt"]');
  await expect(prompt).toBeHidden();
  await page.clock.runFor(3100);
  await expect(prompt).toBeVisible();
  await page.locator('sinew-viewer').screenshot({ path: 'test-results/element-camera/prompt.png' });
  await drag(page, 30, 0);
  await expect(prompt).toBeHidden();

  await page.evaluate(() => {
    document.querySelector('sinew-viewer')!.remove();
  });
  await addViewer(page, { 'camera-controls': '', 'interaction-prompt': 'none' });
  await page.clock.runFor(5000);
  await expect(page.locator('sinew-viewer').locator('[part="interaction-prompt"]')).toBeHidden();
});
