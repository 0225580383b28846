import { expect, test, type Page } from '@playwright/test';
import { openHarness } from '../../helpers/harness.ts';
import { SPHERE_RADIUS } from '../../helpers/outlined-sphere.ts';
import type { OutlineReport, OutlineRequest } from '../../pages/outline.ts';

// MToon outlines (src/gpu/passes/outline-pass.ts, skinned.vert MTOON_OUTLINE) on a sphere of radius r skinned to one
// joint, seen from distance D on its axis by a 45° camera in a 640 × 480 canvas. Its outline hull is the sphere of
// radius r + w, so the silhouette's radius in pixels is tan(asin(ρ / D)) / tan(22.5°) × 240 for ρ = r and r + w:
// the band a world-mode outline adds follows from metres and the distance alone; a screen-mode outline adds
// width × 240 pixels (half the screen height per unit, as three-vrm computes it) at any distance.

const HALF_HEIGHT = 240;
const TAN_HALF_FOV = Math.tan(Math.PI / 8);

function silhouettePixels(radius: number, distance: number): number {
  return (Math.tan(Math.asin(radius / distance)) / TAN_HALF_FOV) * HALF_HEIGHT;
}

async function render(page: Page, request: OutlineRequest): Promise<OutlineReport> {
  const report = await page.evaluate((r) => (window as unknown as { sinewOutline: { render(r: OutlineRequest): Promise<OutlineReport> } }).sinewOutline.render(r), request);
  console.log(JSON.stringify({ request, report }));
  expect(report.glError).toBe(0);
  return report;
}

/** Half the growth of the silhouette's width and height: the band an outline adds on each side, pixels. */
function band(outlined: OutlineReport, plain: OutlineReport): number {
  return (outlined.extent[0] - plain.extent[0] + outlined.extent[1] - plain.extent[1]) / 4;
}

test.beforeEach(async ({ page }) => {
  await openHarness(page, '/tests/browser/pages/outline.html', 'sinewOutlineReady');
});

test('world-mode outline: the band is its width in metres seen from the camera, thinner further away', async ({ page }) => {
  const width = 0.05;
  for (const distance of [3, 6]) {
    const plain = await render(page, { mode: 'none', width, distance });
    const outlined = await render(page, { mode: 'worldCoordinates', width, distance });
    const expected = silhouettePixels(SPHERE_RADIUS + width, distance) - silhouettePixels(SPHERE_RADIUS, distance);
    expect(Math.abs(plain.extent[1] / 2 - silhouettePixels(SPHERE_RADIUS, distance))).toBeLessThanOrEqual(1.5);
    expect(Math.abs(band(outlined, plain) - expected)).toBeLessThanOrEqual(1);
  }
});

test('screen-mode outline: the band stays width × half the screen height as the camera moves back', async ({ page }) => {
  const width = 0.03;
  for (const distance of [3, 6, 12]) {
    const plain = await render(page, { mode: 'none', width, distance });
    const outlined = await render(page, { mode: 'screenCoordinates', width, distance });
    expect(Math.abs(band(outlined, plain) - width * HALF_HEIGHT)).toBeLessThanOrEqual(1);
  }
});

test('an outlined model is skinned once per frame: the surface and the outline both draw the skin-once buffers', async ({ page }) => {
  const outlined = await render(page, { mode: 'worldCoordinates', width: 0.05, distance: 3 });
  expect(outlined.skinPasses).toBe(1);
  expect(outlined.skinOnceDraws).toBe(2);
  expect(outlined.otherDraws).toBe(0);
  // Without an outline (and no stage drawing it again) the view skins in the draw: no transform feedback pass.
  const plain = await render(page, { mode: 'none', width: 0.05, distance: 3 });
  expect(plain.skinPasses).toBe(0);
  expect(plain.skinOnceDraws).toBe(0);
  expect(plain.otherDraws).toBe(1);
});

test('width multiply texture: its G channel scales the width (full on the right half, none on the left); missing, the width is constant', async ({ page }) => {
  const width = 0.05, distance = 3;
  const plain = await render(page, { mode: 'none', width, distance });
  const full = await render(page, { mode: 'worldCoordinates', width, distance });
  const masked = await render(page, { mode: 'worldCoordinates', width, distance, halfWidthTexture: true });
  const expected = silhouettePixels(SPHERE_RADIUS + width, distance) - silhouettePixels(SPHERE_RADIUS, distance);
  // Right edge (G = 1) moves out by the full band, left edge (G = 0) stays where the surface ends.
  // One edge alone lands on whole pixels: within 1.5 px.
  expect(Math.abs(masked.box[1] - plain.box[1] - expected)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(plain.box[0] - masked.box[0])).toBeLessThanOrEqual(0);
  // Without the texture both edges move.
  expect(Math.abs(plain.box[0] - full.box[0] - expected)).toBeLessThanOrEqual(1.5);
  await expect(page.locator('#gl')).toHaveScreenshot('outline-width-texture.png');
});

for (const crowdMode of ['live', 'baked'] as const) {
  test(`crowd (${crowdMode}): each instance draws its outline, instanced, as wide as the single model's`, async ({ page }) => {
    const width = 0.05, distance = 3;
    const plain = await page.evaluate((r) => (window as unknown as { sinewOutline: { crowd(r: unknown): Promise<OutlineReport> } }).sinewOutline.crowd(r), { mode: 'none', width, distance, crowdMode });
    const outlined = await page.evaluate((r) => (window as unknown as { sinewOutline: { crowd(r: unknown): Promise<OutlineReport> } }).sinewOutline.crowd(r), { mode: 'worldCoordinates', width, distance, crowdMode });
    console.log(JSON.stringify({ plain, outlined }));
    expect(outlined.glError).toBe(0);
    // One instanced draw for the surface, one for the outline.
    expect(plain.otherDraws).toBe(1);
    expect(outlined.otherDraws).toBe(2);
    const expected = silhouettePixels(SPHERE_RADIUS + width, distance) - silhouettePixels(SPHERE_RADIUS, distance);
    expect(Math.abs(band(outlined, plain) - expected)).toBeLessThanOrEqual(1);
  });
}

for (const [name, request] of [
  ['world', { mode: 'worldCoordinates', width: 0.05, distance: 3 }],
  ['screen', { mode: 'screenCoordinates', width: 0.03, distance: 3 }],
] as const) {
  test(`golden: ${name}-mode outline`, async ({ page }) => {
    await render(page, request);
    await expect(page.locator('#gl')).toHaveScreenshot(`outline-${name}.png`);
  });
}
