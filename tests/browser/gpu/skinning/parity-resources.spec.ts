import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { openHarness } from '../../helpers/harness.ts';
import type { GlObjectCounts } from '../../helpers/gl-counter.ts';

// GL resource discipline: every object created by upload, drawing (every palette path: uniform, ubo, texture) and transform-feedback
// capture is deleted by dispose() (called twice: idempotent), counted by wrapping gl.create*/delete*.
// And shader build failures surface as thrown Errors carrying the line-numbered log.

type Api = {
  resourcesGenerated: () => Promise<GlObjectCounts>;
  resourcesUrl: (url: string) => Promise<GlObjectCounts>;
  resourcesWideChain: () => Promise<GlObjectCounts>;
  resourcesMorphTube: (skinned: boolean) => Promise<GlObjectCounts>;
  compileErrorMessage: () => string;
};

function expectAllFreed(counts: GlObjectCounts, what: string): void {
  console.log(`${what}: created ${JSON.stringify(counts.created)}\n${what}: deleted ${JSON.stringify(counts.deleted)}`);
  expect(counts.created.Buffer, `${what}: buffers created`).toBeGreaterThan(0);
  expect(counts.created.VertexArray, `${what}: VAOs created`).toBeGreaterThan(0);
  expect(counts.created.Texture, `${what}: textures created`).toBeGreaterThan(0);
  expect(counts.created.Program, `${what}: programs created`).toBeGreaterThan(0);
  expect(counts.created.TransformFeedback, `${what}: transform feedbacks created`).toBeGreaterThan(0);
  expect(counts.live, `${what}: objects never deleted`).toEqual(Object.fromEntries(Object.keys(counts.live).map((k) => [k, 0])));
  expect(counts.deleted).toEqual(counts.created);
}

test.describe('GL resources and errors', () => {
  test.beforeEach(async ({ page }) => {
    await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
  });

  test('upload, draw, capture, dispose frees every GL object (generated model)', async ({ page }) => {
    const counts = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.resourcesGenerated());
    expectAllFreed(counts, 'bending-box');
  });

  test('upload, draw, capture, dispose frees every GL object (12 influences: the overflow texture too)', async ({ page }) => {
    const counts = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.resourcesWideChain());
    expectAllFreed(counts, 'wide-chain-12');
    // Per upload (three): 1 white + 1 palette + 1 overflow texture.
    expect(counts.created.Texture).toBeGreaterThanOrEqual(3 * 3);
  });

  for (const skinned of [true, false]) {
    test(`upload, draw, capture, dispose frees every GL object (${skinned ? 'skinned' : 'rigid'} tube with morph targets)`, async ({ page }) => {
      const counts = await page.evaluate((s) => (window as unknown as { sinewParity: Api }).sinewParity.resourcesMorphTube(s), skinned);
      expectAllFreed(counts, `morph-tube ${skinned ? 'skinned' : 'rigid'}`);
      // Per upload (three): 1 white + palettes + 1 morph deltas + 1 active-target list.
      expect(counts.created.Texture).toBeGreaterThanOrEqual(3 * 3);
    });
  }

  test('upload, draw, capture, dispose frees every GL object (CesiumMan.glb, textured)', async ({ page }) => {
    requireSharedAssets();
    const counts = await page.evaluate(
      (url) => (window as unknown as { sinewParity: Api }).sinewParity.resourcesUrl(url),
      '/shared/assets/gltf/CesiumMan.glb',
    );
    expectAllFreed(counts, 'CesiumMan');
    // 1 white + palette + the decoded base colour image, per upload (three uploads).
    expect(counts.created.Texture).toBeGreaterThanOrEqual(2 * 3);
  });

  test('a shader compile error is thrown with the line-numbered log', async ({ page }) => {
    const message = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.compileErrorMessage());
    console.log(message);
    expect(message).toContain('broken.vert: shader program failed to build');
    expect(message).toMatch(/ERROR/);
    expect(message).toContain('4:   gl_Position = vec4(a_position, 1.0)'); // twgl's numbered listing
  });
});
