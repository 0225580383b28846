import { test, expect } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets, collectErrors, openViewer, grid, gridDistance } from '../helpers/viewer-page.ts';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

// SimpleMorph: one triangle, 2 POSITION targets, weights (0,0) at 0 s, (0,1) at 1 s, (1,1) at 2 s: the
// viewer shows the morph (docs/skinning-formulas.md M0) without a warning.
for (const time of [0, 1, 2]) {
  test(`golden: SimpleMorph morphed at ${time} s`, async ({ page }) => {
    requireSharedAssets();
    const errors = collectErrors(page);
    await openViewer(page, `?ui=0&model=/shared/assets/gltf/SimpleMorph.gltf&time=${time}&yaw=0&pitch=0`);
    await page.evaluate(() => window.sinew!.renderOnce());
    await expect(page.locator('#sinew-canvas')).toHaveScreenshot(`simple-morph-${time}s.png`, { maxDiffPixelRatio: 0.005 });
    expect(errors).toEqual([]);
  });
}

test('SimpleMorph: the picture changes with the weights (0 s, 1 s, 2 s differ)', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page, '?ui=0&model=/shared/assets/gltf/SimpleMorph.gltf&time=0&yaw=0&pitch=0');
  const grids: number[][] = [];
  for (const time of [0, 1, 2]) {
    await page.evaluate((t) => window.sinew!.setTime(t), time);
    grids.push(await grid(page));
  }
  expect(gridDistance(grids[0], grids[1])).toBeGreaterThan(2);
  expect(gridDistance(grids[1], grids[2])).toBeGreaterThan(2);
});
