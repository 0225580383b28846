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

/** The numeric scene: no textures, a soft ramp (so a pixel's tessellation error moves it little), a rim; linear tone mapping. */
const NUMERIC: MToonScene = {
  lit: [0.8, 0.5, 0.3],
  mtoon: {
    shadeColorFactor: [0.2, 0.25, 0.5], shadingToonyFactor: 0.6, shadingShiftFactor: -0.1, giEqualizationFactor: 0.7,
    parametricRimColorFactor: [0.3, 0.6, 0.2], parametricRimFresnelPowerFactor: 3, parametricRimLiftFactor: 0.05, rimLightingMixFactor: 0.6,
  },
  materialTime: 0, toneMapping: 'linear',
};

/**
 * Irradiance of radiance SH (three.js SphericalHarmonics3 order) at unit n, Ramamoorthi & Hanrahan 2001 with
 * three's constants (written out here, independently of src/math/spherical-harmonics.ts).
 */
function irradiance(sh: number[], [x, y, z]: number[]): number[] {
  const w = [0.886227, 1.023328 * y, 1.023328 * z, 1.023328 * x, 0.858086 * x * y, 0.858086 * y * z, 0.743125 * z * z - 0.247708, 0.858086 * x * z, 0.429043 * (x * x - y * y)];
  return [0, 1, 2].map((c) => w.reduce((sum, wi, i) => sum + wi * sh[3 * i + c], 0));
}

/**
 * The sRGB 8-bit colour MToon gives pixel (column, row from the bottom) of the sphere in `frame`, by the formulas of
 * VRMC_materials_mtoon-1.0 README (lighting, GI equalization, rim) with three-vrm's light terms; null off the sphere.
 */
function expected(frame: MToonFrame, scene: MToonScene, column: number, row: number): number[] | null {
  const t = Math.tan(Math.PI / 8);
  const x = ((column + 0.5) / frame.width) * 2 - 1, y = ((row + 0.5) / frame.height) * 2 - 1;
  const len = Math.hypot(x * t, y * t, 1);
  const d = [(x * t) / len, (y * t) / len, -1 / len];
  const eye = [0, 0, 3];
  const b = eye[0] * d[0] + eye[1] * d[1] + eye[2] * d[2];
  const disc = b * b - (9 - 1);
  if (disc < 0) return null;
  const s = -b - Math.sqrt(disc);
  const n = [eye[0] + s * d[0], eye[1] + s * d[1], eye[2] + s * d[2]];
  const v = [-d[0], -d[1], -d[2]];
  const m = scene.mtoon;
  const { direction: l, color: key, ambient } = frame.light;
  const dotNL = n[0] * l[0] + n[1] * l[1] + n[2] * l[2];
  const toony = m.shadingToonyFactor!;
  const shading = Math.min(1, Math.max(0, (dotNL + m.shadingShiftFactor! - (-1 + toony)) / (2 - 2 * toony)));
  const up = irradiance(ambient, [0, 1, 0]), down = irradiance(ambient, [0, -1, 0]), raw = irradiance(ambient, n);
  const nDotV = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  const rimShape = Math.pow(Math.min(1, Math.max(0, 1 - nDotV + m.parametricRimLiftFactor!)), m.parametricRimFresnelPowerFactor!);
  return [0, 1, 2].map((c) => {
    const lit = scene.lit[c], shade = m.shadeColorFactor![c];
    const gi = raw[c] + ((up[c] + down[c]) / 2 - raw[c]) * m.giEqualizationFactor!;
    let color = (key[c] * (shade + (lit - shade) * shading)) / Math.PI + (gi * lit) / Math.PI;
    const lighting = (key[c] + gi) / Math.PI;
    color += m.parametricRimColorFactor![c] * rimShape * (1 + (lighting - 1) * m.rimLightingMixFactor!);
    const linear = Math.min(1, Math.max(0, color));
    const encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
    return 255 * encoded;
  });
}

test('numbers: drawn MToon colours equal the formulas evaluated in TypeScript with the environment light read back', async ({ page }) => {
  await openHarness(page, '/tests/browser/pages/mtoon.html', 'sinewMToonReady');
  const frame = await render(page, NUMERIC);
  const { direction, color, ambient } = frame.light;
  // A key light that is there: unit, coming from above the horizon in the studio, with some colour.
  expect(Math.hypot(...direction)).toBeCloseTo(1, 5);
  expect(Math.max(...color)).toBeGreaterThan(0.05);
  expect(ambient.length).toBe(27);
  let checked = 0, worst = 0;
  const report: string[] = [];
  // A 9 × 9 grid over the sphere's disc (radius ≈ 136 px): lit top, shaded bottom, the rim towards the edge.
  for (let gy = -4; gy <= 4; gy++) {
    for (let gx = -4; gx <= 4; gx++) {
      const column = Math.round(frame.width / 2 + gx * 28), row = Math.round(frame.height / 2 + gy * 28);
      const want = expected(frame, NUMERIC, column, row);
      if (!want) continue;
      const p = 4 * (row * frame.width + column);
      const got = [frame.pixels[p], frame.pixels[p + 1], frame.pixels[p + 2]];
      const error = Math.max(...got.map((g, c) => Math.abs(g - want[c])));
      worst = Math.max(worst, error);
      report.push(`(${column}, ${row}) got ${got.join(' ')} want ${want.map((w) => w.toFixed(1)).join(' ')}`);
      checked++;
    }
  }
  console.log(report.join('\n'));
  // Some pixels in the shade, some lit: the ramp itself is checked, not one side of it.

  console.log(JSON.stringify({ checked, worst, light: frame.light.direction, color: frame.light.color }));
  expect(checked).toBeGreaterThan(30);
  expect(worst).toBeLessThanOrEqual(3);
});
