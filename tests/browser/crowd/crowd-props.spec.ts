import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../helpers/viewer-page.ts';
import { openHarness } from '../helpers/harness.ts';
import type { CrowdPropsReport } from '../pages/crowd-props.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';

// Crowds carry props (CrowdOptions.props, README "Crowds"): three instances (one mirrored, one turned) drawn
// without and with the built-in sword on the default prop joint. Every pixel the sword changes lies inside the
// screen box of the sword where the single-model attachment puts it (propMatrix on the character alone, projected),
// and each instance's sword changes pixels: a sword on the wrong joint, in the wrong frame or missing fails. The
// frame with swords is saved in test-results/ to look at.

type Api = { render: (model: string, mode: 'live' | 'baked', method: SkinningMethod) => Promise<CrowdPropsReport> };

const CASES: { model: string; mode: 'live' | 'baked'; method: SkinningMethod }[] = [
  { model: 'octopus', mode: 'live', method: { skinning: 'lbs', weights: 'normalize' } },
  { model: 'CesiumMan.glb', mode: 'baked', method: { skinning: 'dqs', weights: 'normalize' } },
  { model: 'Fox.glb', mode: 'live', method: { skinning: 'dqs', weights: 'normalize' } },
];

for (const { model, mode, method } of CASES) {
  test(`${model} crowd carries the sword (${mode}, ${method.skinning}): drawn where the attachment puts it on every instance`, async ({ page }, info) => {
    if (model.endsWith('.glb')) requireSharedAssets();
    await openHarness(page, '/tests/browser/pages/crowd-props.html', 'sinewCrowdPropsReady');
    const url = model.endsWith('.glb') ? `/shared/assets/gltf/${model}` : model;
    const report = await page.evaluate(([u, m, s]) => (window as unknown as { sinewCrowdProps: Api }).sinewCrowdProps.render(u, m, s), [url, mode, method] as const);
    console.log(JSON.stringify(report));
    await page.locator('#gl').screenshot({ path: info.outputPath(`crowd-sword-${model}-${mode}.png`) });
    expect(report.drawn).toBe(3);
    expect(report.mirrored).toBe(1);
    expect(report.changedOutside).toBe(0);
    for (const n of report.changedPerInstance) expect(n).toBeGreaterThan(20);
  });
}
