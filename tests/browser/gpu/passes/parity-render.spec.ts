import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { openHarness } from '../../helpers/harness.ts';
import type { RenderReport, RenderRequest } from '../../pages/render.ts';

// Renderer smoke tests: a frame of each model is drawn without GL errors and covers a plausible share of
// the canvas, on every palette path; context loss and restore. Screenshots go to test-results/ for a human
// look (no goldens here: the viewer's screenshot tests own those).

type Api = {
  render: (request: RenderRequest) => Promise<RenderReport>;
  loseAndRestore: () => Promise<{ lostSeen: boolean; drawWhileLostThrew: boolean; staleDrawThrew: boolean; report: RenderReport }>;
};

test.describe('SkinnedRenderer frames', () => {
  test.beforeEach(async ({ page }) => {
    await openHarness(page, '/tests/browser/pages/render.html', 'sinewRenderReady');
  });

  test('a single-sided mesh mirrored by its skinning palette still shows its front faces', async ({ page }) => {
    const report = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
      { model: 'mirrored-quad', clip: -1, time: 0, palette: 'auto', yaw: 0, pitch: 0 } satisfies RenderRequest);
    expect(report.glError).toBe(0);
    expect(report.coverage).toBeGreaterThan(0.05);
  });

  test('an avatar expression\'s material colour bind reaches the draw as the base colour factor (no recompilation)', async ({ page }) => {
    const render = (expressionColor?: [number, number, number, number]) => page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
      { model: 'generated', clip: -1, time: 0, palette: 'auto', yaw: 0, pitch: 0, ...(expressionColor ? { expressionColor } : {}) } satisfies RenderRequest);
    const plain = await render();
    const driven = await render([0.05, 0.2, 0.9, 1]);
    expect(driven.glError).toBe(0);
    expect(driven.coverage).toBeCloseTo(plain.coverage, 3);
    // The box is orange (0.9, 0.45, 0.1) as loaded; the expression at weight 1 turns it blue.
    const [pr, , pb] = plain.coveredMean, [dr, , db] = driven.coveredMean;
    expect(pr, `plain ${plain.coveredMean}`).toBeGreaterThan(pb + 60);
    expect(db, `driven ${driven.coveredMean}`).toBeGreaterThan(dr + 60);
  });

  test('a TGA base colour texture (MD5 models ship them) is decoded and sampled the right way up', async ({ page }) => {
    const report = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
      { model: 'tga-quad', clip: -1, time: 0, palette: 'auto', yaw: 0, pitch: 0 } satisfies RenderRequest);
    expect(report.glError).toBe(0);
    expect(report.textureErrors).toEqual([]);
    const [top, bottom] = report.probes;
    expect(top[0], `top ${top}`).toBeGreaterThan(top[2] + 60); // red
    expect(bottom[2], `bottom ${bottom}`).toBeGreaterThan(bottom[0] + 60); // blue
  });

  for (const palette of ['uniform', 'ubo', 'texture'] as const) {
    test(`generated bending box, ${palette} palette`, async ({ page }, info) => {
      const report = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
        { model: 'generated', clip: 0, time: 0.6, palette } satisfies RenderRequest);
      await page.locator('canvas').screenshot({ path: info.outputPath(`bending-box-${palette}.png`) });
      expect(report.glError).toBe(0);
      expect(report.palette).toBe(palette);
      expect(report.coverage).toBeGreaterThan(0.05);
      expect(report.coverage).toBeLessThan(0.9);
    });
  }

  test('a model 10 km from the origin draws as the same model at the origin (origin folded into the view-projection)', async ({ page }, info) => {
    const reports = [];
    for (const model of ['chain', 'chain-far']) {
      reports.push(await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
        { model, clip: 0, time: 0.5, palette: 'texture' } satisfies RenderRequest));
      await page.locator('canvas').screenshot({ path: info.outputPath(`${model}.png`) });
    }
    const [near, far] = reports;
    expect(far.glError).toBe(0);
    expect(near.coverage).toBeGreaterThan(0.02);
    expect(Math.abs(far.coverage - near.coverage)).toBeLessThanOrEqual(0.002);
    expect(Math.abs(far.extent[0] - near.extent[0])).toBeLessThanOrEqual(1);
    expect(Math.abs(far.extent[1] - near.extent[1])).toBeLessThanOrEqual(1);
  });

  for (const [file, clip, time] of [['Fox.glb', 2, 0.3], ['CesiumMan.glb', 0, 0.5], ['RiggedFigure.glb', 0, 0.4]] as const) {
    for (const palette of ['uniform', 'texture'] as const) {
      test(`${file} clip ${clip} @ ${time}s, ${palette} palette`, async ({ page }, info) => {
        requireSharedAssets();
        const report = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
          { model: `/shared/assets/gltf/${file}`, clip, time, palette } satisfies RenderRequest);
        await page.locator('canvas').screenshot({ path: info.outputPath(`${file}-${palette}.png`) });
        expect(report.glError).toBe(0);
        expect(report.textureErrors).toEqual([]);
        expect(report.coverage).toBeGreaterThan(0.03);
      });
    }
  }

  test('a Z-up display matrix applies to skinned meshes', async ({ page }, info) => {
    // Rotate -90° about x: the box (standing along +y) then lies along -z; seen from +x it is wide, not tall.
    const display = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1];
    const upright = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
      { model: 'generated', clip: -1, time: 0, palette: 'auto', yaw: Math.PI / 2, pitch: 0 } satisfies RenderRequest);
    const lying = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
      { model: 'generated', clip: -1, time: 0, palette: 'auto', yaw: Math.PI / 2, pitch: 0, display } satisfies RenderRequest);
    await page.locator('canvas').screenshot({ path: info.outputPath('bending-box-display.png') });
    expect(lying.glError).toBe(0);
    console.log(`upright extent ${upright.extent}, lying extent ${lying.extent}`);
    expect(upright.extent[1]).toBeGreaterThan(2 * upright.extent[0]);
    expect(lying.extent[0]).toBeGreaterThan(2 * lying.extent[1]);
  });

  test('context loss: drawing stops, the model made before the loss restores itself and draws again', async ({ page }) => {
    const before = await page.evaluate((r) => (window as unknown as { sinewRender: Api }).sinewRender.render(r),
      { model: 'generated', clip: 0, time: 0.5, palette: 'texture' } satisfies RenderRequest);
    const result = await page.evaluate(() => (window as unknown as { sinewRender: Api }).sinewRender.loseAndRestore());
    expect(result.lostSeen).toBe(true);
    expect(result.drawWhileLostThrew).toBe(false);
    expect(result.staleDrawThrew).toBe(false);
    expect(result.report.glError).toBe(0);
    expect(result.report.coverage).toBeCloseTo(before.coverage, 3);
  });
});
