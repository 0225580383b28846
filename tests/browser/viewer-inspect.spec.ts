import { test, expect } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets, collectErrors, openViewer } from './helpers/viewer-page.ts';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

test('smoke: panel and views', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await page.setViewportSize({ width: 1000, height: 700 });
  await openViewer(page, '?model=/shared/assets/gltf/CesiumMan.glb&time=0.5');
  await page.screenshot({ path: '/tmp/inspect-shots/panel.png' });
  await page.evaluate(() => window.sinew!.setView({ skeleton: true, surface: 'weights' }));
  await page.evaluate(() => window.sinew!.selectJoint(10));
  await page.screenshot({ path: '/tmp/inspect-shots/weights.png' });
  await page.evaluate(() => window.sinew!.setView({ skeleton: false, surface: 'shaded', wireframe: true, bounds: true }));
  await page.screenshot({ path: '/tmp/inspect-shots/wire.png' });
  const reading = await page.evaluate(() => window.sinew!.compareNow());
  console.log(JSON.stringify(reading));
  expect(errors).toEqual([]);
});

test('debug: context loss with views on', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?time=0.5');
  await page.evaluate(() => window.sinew!.setView({ skeleton: true, wireframe: true, compare: true }));
  await page.evaluate(() => {
    const gl = (document.getElementById('sinew-canvas') as HTMLCanvasElement).getContext('webgl2')!;
    const ext = gl.getExtension('WEBGL_lose_context')!;
    ext.loseContext();
    (window as unknown as { __loseExt: unknown }).__loseExt = ext;
  });
  await page.waitForFunction(() => window.sinew!.state().contextLost);
  await page.evaluate(() => (window as unknown as { __loseExt: WEBGL_lose_context }).__loseExt.restoreContext());
  await page.waitForFunction(() => !window.sinew!.state().contextLost && window.sinew!.state().palette !== null);
  await page.waitForTimeout(1000);
  console.log(await page.evaluate(() => window.sinew!.coverage()), JSON.stringify(await page.evaluate(() => window.sinew!.state().error)));
  console.log(errors);
});
