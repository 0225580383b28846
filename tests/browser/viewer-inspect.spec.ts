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
