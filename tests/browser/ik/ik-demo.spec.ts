import { expect, test, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, openViewer, requireSharedAssets } from '../helpers/viewer-page.ts';

// The viewer's IK folder (issue 22): "Look at the cursor" turns the head's forward axis toward the point under
// the mouse; "Feet on tilted ground" puts both ankles at their height above a tilted plane, the hips lowered.
// Joint matrices are read back through the dev-only test hooks (window.sinew.jointMatrix).

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const CESIUM = '/shared/assets/gltf/CesiumMan.glb';

type Vec = number[];
const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vec): Vec => { const l = Math.hypot(a[0], a[1], a[2]); return a.map((x) => x / l); };
const column = (m: number[], axis: Vec): Vec => [0, 1, 2].map((r) => m[r] * axis[0] + m[4 + r] * axis[1] + m[8 + r] * axis[2]);

/** The head's forward axis (the demo's local axis) in world space, and the world direction from the head to the target. */
async function headAim(page: Page): Promise<{ forward: Vec; toTarget: Vec }> {
  return page.evaluate(() => {
    const hooks = window.sinew!;
    const state = hooks.ik();
    const head = state.lookAt.chain.at(-1)!;
    const { world, model } = hooks.jointMatrix(head)!;
    const f = state.lookAt.forward;
    const forward = [0, 1, 2].map((r) => world[r] * f[0] + world[4 + r] * f[1] + world[8 + r] * f[2]);
    // glTF: world = model space here (identity display matrix), so the target needs no transform.
    const t = state.lookAt.target;
    return { forward, toTarget: [t[0] - model[12], t[1] - model[13], t[2] - model[14]] };
  });
}

test('look at the cursor: the head turns toward each of two mouse positions', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `?model=${CESIUM}&time=0.5`);
  await page.evaluate(() => { window.sinew!.pause(); window.sinew!.setCamera({ yaw: 0, pitch: 0 }); });
  const state = await page.evaluate(() => window.sinew!.ik());
  expect(state.lookAt.unavailable).toBeNull();
  expect(state.lookAt.chain).toEqual(['torso_joint_3', 'Skeleton_neck_joint_1', 'Skeleton_neck_joint_2']);
  await page.locator('#sinew-ik-look').check();
  const canvas = (await page.locator('#sinew-canvas').boundingBox())!;
  const forwards: Vec[] = [];
  // Left of the model and right of it (the panel covers the canvas's right side from about 0.53), above its head.
  for (const x of [0.05, 0.45]) {
    await page.mouse.move(canvas.x + x * canvas.width, canvas.y + 0.1 * canvas.height);
    await page.evaluate(() => window.sinew!.renderOnce());
    const { forward, toTarget } = await headAim(page);
    // The forward axis points at the target under the cursor.
    expect(dot(norm(forward), norm(toTarget))).toBeGreaterThan(Math.cos(1e-3));
    forwards.push(norm(forward));
    await saveShot(await page.evaluate(() => window.sinew!.screenshot(1)), `ik-demo-look-at-${x}.png`);
  }
  const png = await page.evaluate(() => window.sinew!.screenshot(1));
  await saveShot(png, 'ik-demo-look-at.png');
  // Camera at yaw 0 looks at the model's front along −Z: screen left is world −X, screen right +X, up is +Y.
  expect(forwards[0][0]).toBeLessThan(-0.3);
  expect(forwards[1][0]).toBeGreaterThan(0.3);
  expect(forwards[0][1]).toBeGreaterThan(0);
  expect(dot(forwards[0], forwards[1])).toBeLessThan(Math.cos((30 * Math.PI) / 180));
  expect(errors).toEqual([]);
});

test('feet on tilted ground: both ankles at their height above the plane, the hips lowered', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `?model=${CESIUM}&time=0.5`);
  await page.evaluate(() => { window.sinew!.pause(); window.sinew!.setCamera({ yaw: 0, pitch: 10 }); });
  const hipsBefore = await page.evaluate(() => window.sinew!.jointMatrix('Skeleton_torso_joint_1')!.model);
  const anklesBefore = await page.evaluate(() => ['leg_joint_L_3', 'leg_joint_R_3'].map((j) => window.sinew!.jointMatrix(j)!.model));
  await page.locator('#sinew-ik-feet').check();
  const state = await page.evaluate(() => window.sinew!.ik({ tilt: 20 }));
  expect(state.feet.unavailable).toBeNull();
  expect(state.feet.legs).toEqual([['leg_joint_L_1', 'leg_joint_L_2', 'leg_joint_L_3'], ['leg_joint_R_1', 'leg_joint_R_2', 'leg_joint_R_3']]);
  expect(state.feet.pelvis).toBe('Skeleton_torso_joint_1');
  expect(state.feet.reached).toBe(true);
  const n = norm(state.feet.planeNormal);
  const ankles = await page.evaluate(() => ['leg_joint_L_3', 'leg_joint_R_3'].map((j) => window.sinew!.jointMatrix(j)!.model));
  const size = Math.hypot(...sub([anklesBefore[0][12], anklesBefore[0][13], anklesBefore[0][14]], [hipsBefore[12], hipsBefore[13], hipsBefore[14]]));
  for (let i = 0; i < 2; i++) {
    const height = dot(sub([ankles[i][12], ankles[i][13], ankles[i][14]], state.feet.planePoint), n);
    expect(Math.abs(height - state.feet.ankleHeights[i])).toBeLessThan(1e-4 * size);
  }
  // The slope: the ankles now stand at different heights; the hips went down (model +Y is up for CesiumMan).
  expect(Math.abs(ankles[0][13] - ankles[1][13])).toBeGreaterThan(0.02 * size);
  const hips = await page.evaluate(() => window.sinew!.jointMatrix('Skeleton_torso_joint_1')!.model);
  expect(hips[13]).toBeLessThan(hipsBefore[13] - 0.01 * size);
  const png = await page.evaluate(() => window.sinew!.screenshot(1));
  await saveShot(png, 'ik-demo-feet.png');
  // Nearly edge-on, the plane is a sloping line under both feet.
  await saveShot(await page.evaluate(() => { window.sinew!.setCamera({ pitch: 2 }); return window.sinew!.screenshot(1); }), 'ik-demo-feet-edge.png');
  expect(errors).toEqual([]);
});

test('the octopus has neither head nor legs: both controls are off and say why', async ({ page }) => {
  await openViewer(page);
  const state = await page.evaluate(() => window.sinew!.ik());
  expect(state.lookAt.unavailable).toBe('no head on a neck or spine found by name');
  expect(state.feet.unavailable).toMatch(/no left and right hip–knee–ankle/);
  await expect(page.locator('#sinew-ik-look')).toBeDisabled();
  await expect(page.locator('#sinew-ik-feet')).toBeDisabled();
  await expect(page.locator('#sinew-ik')).toContainText('no head on a neck or spine found by name');
});

async function saveShot(dataUrl: string | null, name: string): Promise<void> {
  expect(dataUrl).not.toBeNull();
  const { writeFile, mkdir } = await import('node:fs/promises');
  await mkdir('test-results', { recursive: true });
  await writeFile(`test-results/${name}`, Buffer.from(dataUrl!.split(',')[1], 'base64'));
}
