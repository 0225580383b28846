import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, openViewer } from '../helpers/viewer-page.ts';

// The viewer's Drive folder: the generated avatar on the Drive graph, driven by real key events (↑ speeds up,
// ← turns, J jumps; then a gamepad's stick) and stepped deterministically at 60 Hz through the test hooks. Holding ↑ takes the speed
// parameter from 0 through the walk toward the run and the root forward along its heading (+Z at first); ← turns
// the heading; J enters Jump once and lands back in Locomotion; while walking the lower foot stays at ankle height
// on the ground (y = 0); no page error.

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const DT = 1 / 60;

/** Steps the drive `frames` frames; returns its state. */
const step = (page: Page, frames: number) => page.evaluate(({ dt, frames }) => window.sinew!.driveStep(dt, frames), { dt: DT, frames });

/** World heights of the two ankles (`leftFoot`, `rightFoot`) and the hips' x, z, from the last pose drawn. */
const feet = (page: Page) => page.evaluate(() => {
  const at = (name: string) => window.sinew!.jointMatrix(name)!.world;
  const l = at('leftFoot'), r = at('rightFoot'), h = at('hips');
  return { left: l[13], right: r[13], hips: [h[12], h[14]] };
});

test('Drive folder: the keys drive the graph, the root travels and turns, one jump, feet on the ground', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  await openViewer(page);
  await page.locator('#sinew-drive [data-control="drive"] input').check();
  // Polled from node: waitForFunction takes a returned promise as truthy at once, so it cannot wait on an async hook.
  await expect.poll(() => page.evaluate(async () => (await window.sinew!.drive()).enabled), { timeout: 60_000 }).toBe(true);
  let state = await step(page, 30);
  expect(state.activeState).toBe('Locomotion');
  expect(state.parameters.speed).toBe(0);
  await expect(page.locator('#sinew-drive [data-control="drive-state"] input')).toHaveValue('Locomotion');
  // The keys go to the page, not to the panel's checkbox.
  await page.locator('#sinew-canvas').focus();

  // Hold ↑ for 1.5 s: the speed rises past the walk point; the root moves forward along +Z, the heading stays 0.
  await page.keyboard.down('ArrowUp');
  state = await step(page, 90);
  await page.keyboard.up('ArrowUp');
  expect(state.parameters.speed).toBeGreaterThan(1.4);
  expect(state.parameters.speed).toBeLessThan(3.5);
  expect(state.heading).toBeCloseTo(0, 3);
  const start = state.position[1];
  expect(start).toBeGreaterThan(0.3);
  // Cruising (no key held): the speed holds, the root travels at about that speed; the lower foot stays on the ground.
  const lowest: number[] = [];
  for (let i = 0; i < 12; i++) {
    await step(page, 5);
    const f = await feet(page);
    lowest.push(Math.min(f.left, f.right));
  }
  state = await step(page, 0);
  const travelled = state.position[1] - start;
  expect(travelled / (60 * DT)).toBeGreaterThan(0.8 * state.parameters.speed);
  expect(travelled / (60 * DT)).toBeLessThan(1.2 * state.parameters.speed);
  expect(Math.abs(state.position[0])).toBeLessThan(0.01);
  for (const y of lowest) expect(Math.abs(y - 0.08), `lowest ankle ${y}`).toBeLessThan(0.01);
  const hips = (await feet(page)).hips;
  expect(hips[1]).toBeGreaterThan(state.position[1] - 0.5);

  // Hold ← for 1 s: the heading turns left (toward +X) by about the turn rate, and the root follows it.
  await page.keyboard.down('ArrowLeft');
  const turning = await step(page, 60);
  await page.keyboard.up('ArrowLeft');
  expect(turning.heading).toBeGreaterThan(1.2);
  expect(turning.heading).toBeLessThan(1.8);
  state = await step(page, 60);
  expect(state.position[0] - turning.position[0]).toBeGreaterThan(0.5);

  // J: Jump once, then back to Locomotion; grounded false in the air, true after.
  expect((await step(page, 0)).entered).toEqual(['Locomotion']);
  await page.keyboard.press('KeyJ');
  let sawAir = false;
  for (let i = 0; i < 20 && !sawAir; i++) sawAir = (await step(page, 3)).parameters.grounded === 0;
  expect(sawAir).toBe(true);
  state = await step(page, 90);
  expect(state.entered).toEqual(['Locomotion', 'Jump', 'Locomotion']);
  expect(state.activeState).toBe('Locomotion');
  expect(state.parameters.grounded).toBe(1);

  // A gamepad (the Gamepad API, polled each frame): the left stick pushed forward sets the speed toward the run.
  await page.evaluate(() => {
    const stick = { axes: [0, -1], buttons: [{ pressed: false }] };
    Object.defineProperty(navigator, 'getGamepads', { configurable: true, value: () => [stick] });
  });
  const before = state.parameters.speed;
  state = await step(page, 30);
  expect(state.parameters.speed).toBeGreaterThan(before + 0.3);
  expect(errors).toEqual([]);
});
