import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { openHarness } from '../../helpers/harness.ts';
import type { SkinOnceReport } from '../../pages/skin-once.ts';
import type { SkinningMethod } from '../../../../src/skinning/skinning-method.ts';

// Skin once per frame (SkinnedRenderer.skinInto into SkinnedVertexBuffers, what a view does when a contact shadow
// draws the model again): the buffers every pass then draws hold the CPU reference's vertices (skinVertices,
// morph targets first; tolerance as the parity specs: |Δp| ≤ 1e-5 × diagonal, |Δn| ≤ 1e-4), and the frame drawn
// from them is the frame the skinning vertex shader draws.

type Api = { model: (url: string, method: SkinningMethod, request: 'uniform' | 'ubo' | 'texture') => Promise<SkinOnceReport> };

const CASES = [
  { url: '/shared/assets/gltf/Fox.glb', method: { skinning: 'lbs', weights: 'normalize' }, request: 'texture' },
  { url: '/shared/assets/gltf/Fox.glb', method: { skinning: 'dqs', weights: 'normalize' }, request: 'uniform' },
  { url: '/shared/assets/gltf/CesiumMan.glb', method: { skinning: 'lbs', weights: 'as-stored' }, request: 'ubo' },
  { url: '/shared/assets/gltf/RiggedFigure.glb', method: { skinning: 'lbs', weights: 'normalize' }, request: 'uniform' },
  { url: 'octopus', method: { skinning: 'dqs', weights: 'normalize' }, request: 'texture' },
] as const;

for (const c of CASES) {
  test(`skin once: ${c.url.split('/').pop()} ${c.method.skinning}/${c.method.weights} on the ${c.request} palette equals the CPU reference and draws the same frame`, async ({ page }) => {
    if (c.url !== 'octopus') requireSharedAssets();
    await openHarness(page, '/tests/browser/pages/skin-once.html', 'sinewSkinOnceReady');
    const report = await page.evaluate(([u, m, r]) => (window as unknown as { sinewSkinOnce: Api }).sinewSkinOnce.model(u, m, r), [c.url, c.method, c.request] as const);
    console.log(JSON.stringify(report));
    expect(report.primitives).toBeGreaterThan(0);
    expect(report.maxPositionError).toBeLessThanOrEqual(1e-5 * report.diagonal);
    expect(report.maxNormalError).toBeLessThanOrEqual(1e-4);
    expect(report.covered).toBeGreaterThan(1000);
    expect(report.differing).toBeLessThanOrEqual(Math.ceil(0.002 * report.covered));
  });
}
