import { test as base, expect, type Page } from '@playwright/test';
import { writeFileSync, mkdirSync } from 'node:fs';
import { isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';
import { compareWithModelViewer, openSideBySide } from '../helpers/model-viewer-compare.ts';

// The same page with the same camera attributes in <model-viewer> (its bundled three.js) and <sinew-viewer>:
// the model's silhouettes (alpha > 0) must overlap with IoU ≥ 0.95. Both show the file's node pose. The IoU of
// each case is printed (README, "Camera").

const MODELS = ['CesiumMan', 'Fox', 'RiggedFigure'] as const;
const SETTINGS = [
  { name: 'no attribute but src (a renamed page)', orbit: '', fov: '', target: '', w: 300, h: 300, bare: true },
  { name: 'only camera-controls (a renamed page)', orbit: '', fov: '', target: '', w: 300, h: 300, controls: true },
  { name: 'default orbit', orbit: '0deg 75deg 105%', fov: '30deg', target: '', w: 320, h: 240 },
  { name: 'turned, closer', orbit: '45deg 60deg 90%', fov: '25deg', target: '', w: 320, h: 240 },
  { name: 'low, narrow, target at the feet', orbit: '-60deg 95deg 100%', fov: 'auto', target: 'auto 0m auto', w: 200, h: 300 },
] as const satisfies ReadonlyArray<{ name: string; orbit: string; fov: string; target: string; w: number; h: number; controls?: boolean; bare?: boolean }>;

// One page per worker for every case: each case shows a new pair of elements on it (openSideBySide), so the page's
// modules (model-viewer's bundle among them) load once. A failed test ends its worker, and the page with it.
const test = base.extend<object, { sideBySidePage: Page }>({
  sideBySidePage: [async ({ browser }, use, workerInfo) => {
    const { baseURL, viewport, deviceScaleFactor } = workerInfo.project.use;
    const page = await browser.newPage({ baseURL, viewport, deviceScaleFactor });
    await isolateFromLiveReload(page);
    await use(page);
    await page.close();
  }, { scope: 'worker' }],
});

test.beforeEach(() => requireSharedAssets());

const results: string[] = [];

for (const model of MODELS) {
  for (const s of SETTINGS) {
    test(`${model}, ${s.name}: silhouettes match model-viewer's (IoU ≥ 0.95)`, async ({ sideBySidePage: page }) => {
      const q = new URLSearchParams({ src: `/shared/assets/gltf/${model}.glb`, orbit: s.orbit, fov: s.fov, target: s.target, w: String(s.w), h: String(s.h) });
      if ('controls' in s) q.set('controls', '1');
      if ('bare' in s) q.set('bare', '1');
      await openSideBySide(page, q);
      const c = await compareWithModelViewer(page);
      mkdirSync('test-results/side-by-side', { recursive: true });
      writeFileSync(`test-results/side-by-side/${model}-${SETTINGS.indexOf(s)}.png`, Buffer.from(c.image.split(',')[1], 'base64'));
      const cameras = await page.evaluate(() => {
        const mv = document.getElementById('model-viewer') as HTMLElement & { getCameraOrbit(): object; getFieldOfView(): number; getCameraTarget(): object };
        const sv = document.getElementById('sinew-viewer') as HTMLElementTagNameMap['sinew-viewer'];
        const describe = (el: typeof mv | typeof sv): string => `${el.getCameraOrbit().toString()} fov ${el.getFieldOfView().toFixed(3)} target ${el.getCameraTarget().toString()}`;
        return { mv: describe(mv), sv: describe(sv) };
      });
      const attrs = 'bare' in s ? 'src only' : 'controls' in s ? 'camera-controls' : `camera-orbit="${s.orbit}" field-of-view="${s.fov}"${s.target ? ` camera-target="${s.target}"` : ''}`;
      const line = `${model} | ${s.name} (${attrs}, ${s.w}×${s.h}) | IoU ${c.iou.toFixed(3)}`;
      results.push(line);
      console.log(`${line}\n  model-viewer: ${cameras.mv}\n  sinew-viewer: ${cameras.sv}\n  pixels ${c.modelViewerPixels} / ${c.sinewPixels}`);
      expect(c.modelViewerPixels, 'model-viewer drew the model').toBeGreaterThan(500);
      expect(c.iou).toBeGreaterThanOrEqual(0.95);
    });
  }
}

test.afterAll(() => {
  if (results.length) console.log(`IoU with <model-viewer>:\n${results.join('\n')}`);
});
