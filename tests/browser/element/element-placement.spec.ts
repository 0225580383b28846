import { test, expect, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Euler, Matrix4, PerspectiveCamera, Quaternion, Vector3 } from 'three';
import { collectErrors, isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';
import { compareWithModelViewer, openSideBySide } from '../helpers/model-viewer-compare.ts';

// <sinew-viewer>'s `orientation` and `scale` (<model-viewer>'s: placement-syntax.ts, element-placement.ts) checked
// against expectations computed here with three.js, as model-viewer places a model: a hotspot's projected
// position, the box the camera targets, a golden, and the silhouette of <model-viewer> itself with the same
// attributes. Also the once-per-element warning for model-viewer attributes and slots Sinew ignores.

const PAGE = '/tests/browser/pages/empty-page.html';
const DEG = Math.PI / 180;

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

/** Adds a `<sinew-viewer id="v">` (the built-in octopus, paused at its first frame) with `attributes`, 300 × 200, and waits for its model. */
async function addViewer(page: Page, attributes: Record<string, string>, hotspot?: string): Promise<void> {
  await page.evaluate(({ attrs, position }) => {
    const el = document.createElement('sinew-viewer');
    el.id = 'v';
    el.style.cssText = 'display: block; width: 300px; height: 200px';
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (position) {
      const button = document.createElement('button');
      button.slot = 'hotspot-p';
      button.dataset.position = position;
      el.append(button);
    }
    document.body.append(el);
  }, { attrs: attributes, position: hotspot ?? null });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer | null)?.model !== '', undefined, { timeout: 120_000 });
}

interface CameraNow {
  theta: number;
  phi: number;
  radius: number;
  target: [number, number, number];
  fov: number;
  width: number;
  height: number;
}

/** The element's camera (model-viewer's getters) and CSS size. */
async function cameraNow(page: Page): Promise<CameraNow> {
  return page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    const o = el.getCameraOrbit();
    const t = el.getCameraTarget();
    const r = el.getBoundingClientRect();
    return { theta: o.theta, phi: o.phi, radius: o.radius, target: [t.x, t.y, t.z], fov: el.getFieldOfView(), width: r.width, height: r.height };
  });
}

/**
 * Where `point` (model space) lands on the canvas, CSS pixels from its top-left corner, computed with three.js:
 * placed as model-viewer's applyTransform places the model (Euler YXZ of pitch, yaw, roll, then scale), seen from
 * model-viewer's spherical camera (theta about +Y from +Z, phi down from +Y).
 */
function expectedCanvasPosition(point: [number, number, number], roll: number, pitch: number, yaw: number, scale: [number, number, number], c: CameraNow): [number, number] {
  const model = new Matrix4().compose(new Vector3(), new Quaternion().setFromEuler(new Euler(pitch, yaw, roll, 'YXZ')), new Vector3(...scale));
  const world = new Vector3(...point).applyMatrix4(model);
  const camera = new PerspectiveCamera(c.fov, c.width / c.height, 0.01, 1000);
  const target = new Vector3(...c.target);
  camera.position.set(
    target.x + c.radius * Math.sin(c.phi) * Math.sin(c.theta),
    target.y + c.radius * Math.cos(c.phi),
    target.z + c.radius * Math.sin(c.phi) * Math.cos(c.theta),
  );
  camera.lookAt(target);
  camera.updateMatrixWorld();
  const ndc = world.project(camera);
  return [((ndc.x + 1) / 2) * c.width, ((1 - ndc.y) / 2) * c.height];
}

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
});

test('a hotspot lands where three.js projects the placed point', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto(PAGE);
  const point: [number, number, number] = [0.3, 0.8, 0.2];
  const cases = [
    { orientation: '', roll: 0, pitch: 0, yaw: 0, scale: '', s: [1, 1, 1] as [number, number, number] },
    { orientation: '20deg -30deg 90deg', roll: 20 * DEG, pitch: -30 * DEG, yaw: 90 * DEG, scale: '1.5 0.75 2', s: [1.5, 0.75, 2] as [number, number, number] },
    { orientation: '0.4 1.1rad -2', roll: 0.4, pitch: 1.1, yaw: -2, scale: '-1 1 1', s: [-1, 1, 1] as [number, number, number] },
  ];
  const placed: Array<[number, number]> = [];
  for (const c of cases) {
    await page.evaluate(() => document.getElementById('v')?.remove());
    const attributes: Record<string, string> = { 'interaction-prompt': 'none' };
    if (c.orientation) attributes.orientation = c.orientation;
    if (c.scale) attributes.scale = c.scale;
    await addViewer(page, attributes, `${point[0]}m ${point[1]}m ${point[2]}m`);
    const got = await page.evaluate(() => {
      const el = document.getElementById('v') as Viewer;
      el.renderOnce();
      const p = el.queryHotspot('hotspot-p')!.canvasPosition;
      return [p.x, p.y] as [number, number];
    });
    const want = expectedCanvasPosition(point, c.roll, c.pitch, c.yaw, c.s, await cameraNow(page));
    expect(Math.abs(got[0] - want[0]), `${c.orientation} / ${c.scale}: x ${got[0]} vs ${want[0]}`).toBeLessThan(0.5);
    expect(Math.abs(got[1] - want[1]), `${c.orientation} / ${c.scale}: y ${got[1]} vs ${want[1]}`).toBeLessThan(0.5);
    placed.push(got);
  }
  // The placements move the point on the canvas (the check above could not pass by ignoring them).
  expect(Math.hypot(placed[1][0] - placed[0][0], placed[1][1] - placed[0][1])).toBeGreaterThan(10);
  expect(errors).toEqual([]);
});

test("the camera targets the placed model's box: yaw 90deg and scale map its centre exactly", async ({ page }) => {
  await page.goto(PAGE);
  await addViewer(page, {});
  const plain = (await cameraNow(page)).target;
  await page.evaluate(() => document.getElementById('v')!.remove());
  await addViewer(page, { orientation: '0deg 0deg 90deg', scale: '2 3 0.5' });
  const placed = await cameraNow(page);
  // Ry(90°) · S(2, 3, 0.5) takes (x, y, z) to (0.5 z, 3 y, −2 x), and an axis-aligned box to an axis-aligned box.
  const want = [0.5 * plain[2], 3 * plain[1], -2 * plain[0]];
  for (let a = 0; a < 3; a++) expect(placed.target[a], `target[${a}]`).toBeCloseTo(want[a], 4);

  // Changed after load: placed and framed again at once, camera-change fired; properties reflect.
  const after = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    const heard: string[] = [];
    el.addEventListener('camera-change', (e) => heard.push(e.detail.source));
    el.scale = '1 1 1';
    el.orientation = null;
    const t = el.getCameraTarget();
    return { target: [t.x, t.y, t.z], heard, scale: el.scale, orientation: el.getAttribute('orientation') };
  });
  for (let a = 0; a < 3; a++) expect(after.target[a], `target[${a}] after`).toBeCloseTo(plain[a], 4);
  expect(after.heard).toEqual(['none', 'none']);
  expect(after.scale).toBe('1 1 1');
  expect(after.orientation).toBeNull();
});

test('a malformed orientation or scale fires sinew-error naming it and reads as the default', async ({ page }) => {
  await page.goto(PAGE);
  await addViewer(page, {});
  const plain = (await cameraNow(page)).target;
  const messages = await page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    const heard: string[] = [];
    el.addEventListener('sinew-error', (e) => heard.push(e.detail.message));
    el.setAttribute('orientation', '90deg');
    el.setAttribute('scale', '1 0 1');
    return heard;
  });
  expect(messages).toEqual([
    '<sinew-viewer orientation="90deg">: expected "roll pitch yaw": three angles in deg or rad (e.g. "0deg 90deg 0deg"); using 0deg 0deg 0deg',
    '<sinew-viewer scale="1 0 1">: expected "x y z": three non-zero numbers (e.g. "2 2 2"); using 1 1 1',
  ]);
  const target = (await cameraNow(page)).target;
  for (let a = 0; a < 3; a++) expect(target[a]).toBeCloseTo(plain[a], 6);
});

test('the placed octopus matches its golden', async ({ page }) => {
  await page.goto(PAGE);
  await addViewer(page, { orientation: '0deg -30deg 60deg', scale: '1 1.6 1', background: '#202830', 'interaction-prompt': 'none' });
  await page.evaluate(() => (document.getElementById('v') as Viewer).renderOnce());
  await expect(page.locator('#v')).toHaveScreenshot('placed-octopus.png', { maxDiffPixelRatio: 0.005 });
});

test('model-viewer attributes and slots Sinew ignores: one warning each, per element', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning' && msg.text().includes('is ignored')) warnings.push(msg.text());
  });
  await page.goto(PAGE);
  await addViewer(page, { ar: '', 'ar-modes': 'webxr', 'ios-src': 'x.usdz', 'variant-name': 'red' });
  await page.evaluate(async () => {
    const el = document.getElementById('v')!;
    const button = document.createElement('button');
    button.slot = 'ar-button';
    el.append(button);
    el.setAttribute('touch-action', 'pan-y');
    el.setAttribute('ar-modes', 'scene-viewer'); // a second value: no second warning
    el.removeAttribute('ar');
    el.setAttribute('ar', '');
    // A second element with one of them warns again: once per element.
    const other = document.createElement('sinew-viewer');
    other.setAttribute('variant-name', 'blue');
    other.style.cssText = 'display: block; width: 100px; height: 100px';
    document.body.append(other);
    await new Promise((r) => setTimeout(r, 0));
  });
  await expect.poll(() => warnings.length).toBe(7);
  expect([...warnings].sort()).toEqual([
    "sinew-viewer: <sinew-viewer ar> is ignored: Sinew does not support <model-viewer>'s augmented reality.",
    "sinew-viewer: <sinew-viewer ar-modes> is ignored: Sinew does not support <model-viewer>'s augmented reality.",
    "sinew-viewer: <sinew-viewer ios-src> is ignored: Sinew does not support <model-viewer>'s augmented reality (Quick Look).",
    "sinew-viewer: <sinew-viewer variant-name> is ignored: Sinew does not support <model-viewer>'s material variants (KHR_materials_variants).",
    "sinew-viewer: <sinew-viewer variant-name> is ignored: Sinew does not support <model-viewer>'s material variants (KHR_materials_variants).",
    "sinew-viewer: <sinew-viewer touch-action> is ignored: Sinew does not support <model-viewer>'s touch-action (the canvas takes every touch it is given).",
    "sinew-viewer: <sinew-viewer>: the child in slot=\"ar-button\" is ignored: Sinew does not support <model-viewer>'s augmented reality.",
  ].sort());
});

test.describe('side by side with <model-viewer>', () => {
  const CASES = [
    { model: 'CesiumMan', orientation: '0deg 0deg 90deg', scale: '' },
    { model: 'Fox', orientation: '30deg 20deg -45deg', scale: '1 2 1' },
    { model: 'RiggedFigure', orientation: '', scale: '2 0.5 1' },
  ];
  for (const c of CASES) {
    test(`${c.model}, orientation="${c.orientation}" scale="${c.scale}": silhouettes match (IoU ≥ 0.95), same target`, async ({ page }) => {
      requireSharedAssets();
      const q = new URLSearchParams({ src: `/shared/assets/gltf/${c.model}.glb`, orientation: c.orientation, scale: c.scale, w: '300', h: '300' });
      await openSideBySide(page, q);
      const result = await compareWithModelViewer(page);
      mkdirSync('test-results/side-by-side', { recursive: true });
      writeFileSync(`test-results/side-by-side/placement-${c.model}.png`, Buffer.from(result.image.split(',')[1], 'base64'));
      const targets = await page.evaluate(() => {
        type T = { getCameraTarget(): { x: number; y: number; z: number } };
        const of = (id: string) => {
          const t = (document.getElementById(id) as unknown as T).getCameraTarget();
          return [t.x, t.y, t.z];
        };
        return { mv: of('model-viewer'), sv: of('sinew-viewer') };
      });
      console.log(`${c.model} orientation="${c.orientation}" scale="${c.scale}": IoU ${result.iou.toFixed(3)}; target mv ${targets.mv.map((v) => v.toFixed(3))} sv ${targets.sv.map((v) => v.toFixed(3))}`);
      expect(result.modelViewerPixels, 'model-viewer drew the model').toBeGreaterThan(500);
      expect(result.iou).toBeGreaterThanOrEqual(0.95);
      // model-viewer's auto target is the centre of the placed model's box: so is Sinew's.
      for (let a = 0; a < 3; a++) expect(Math.abs(targets.sv[a] - targets.mv[a]), `target[${a}]`).toBeLessThanOrEqual(1e-3 * (1 + Math.abs(targets.mv[a])));
    });
  }
});
