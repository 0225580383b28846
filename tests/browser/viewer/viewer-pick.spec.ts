import { expect, test, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, openViewer, requireSharedAssets } from '../helpers/viewer-page.ts';

// The viewer's surface picking (src/viewer/surface-picking.ts): a click (no drag) on the skinned surface selects
// its dominant joint and shows the hit's influences beside the pointer; a click on the background or a drag
// does not.

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const CESIUM = '/shared/assets/gltf/CesiumMan.glb';
const control = (page: Page, name: string) => page.locator(`#sinew-panel [data-control="${name}"]`);

test('a click on the surface selects its dominant joint and lists the weights there', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `?model=${CESIUM}&time=0.5&yaw=30&pitch=10`);
  await page.evaluate(() => { window.sinew!.pause(); window.sinew!.renderOnce(); });
  const tip = page.locator('#sinew-surface-tip');
  // The right upper arm's joint lies inside the arm: the surface is in front of it. (Its place on screen comes
  // from the skeleton overlay, turned off again so that the click goes to the surface.)
  await page.evaluate(() => window.sinew!.setView({ skeleton: true }));
  const arm = await page.evaluate(() => window.sinew!.selectJoint('Skeleton_arm_joint_R'));
  await page.evaluate(() => window.sinew!.selectJoint(-1));
  const at = (await page.evaluate((j) => window.sinew!.jointOnScreen(j), arm))!;
  expect(at).not.toBeNull();
  await page.evaluate(() => window.sinew!.setView({ skeleton: false }));
  await page.mouse.click(at.x, at.y);
  await expect(tip).toBeVisible();
  const selected = await page.evaluate(() => window.sinew!.selectedJoint());
  expect(selected).toBeGreaterThanOrEqual(0);
  expect(Number(await tip.getAttribute('data-joint'))).toBe(selected);
  const weights = JSON.parse((await tip.getAttribute('data-weights'))!) as { joint: number; name: string; weight: number }[];
  expect(weights[0].joint).toBe(selected);
  expect(weights.reduce((sum, w) => sum + w.weight, 0)).toBeCloseTo(1, 6);
  // An arm joint or one next to it along the chain.
  expect(weights.map((w) => w.name).join(' ')).toMatch(/arm|shoulder|clavicle|torso|hand/i);
  await expect(tip).toContainText(weights[0].name);
  await expect(control(page, 'joint').locator('select')).toHaveValue(weights[0].name);
  await page.screenshot({ path: 'test-results/viewer-surface-pick.png' });

  // A drag orbits and picks nothing; a click on the background hides the tip and keeps the selection.
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x + 60, at.y + 10, { steps: 4 });
  await page.mouse.up();
  await page.mouse.click(4, 4);
  await expect(tip).toBeHidden();
  expect(await page.evaluate(() => window.sinew!.selectedJoint())).toBe(selected);
  expect(errors).toEqual([]);
});
