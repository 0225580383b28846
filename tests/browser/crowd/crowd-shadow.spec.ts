import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../helpers/viewer-page.ts';
import { openHarness } from '../helpers/harness.ts';
import type { CrowdShadowFrame } from '../pages/crowd-shadow.ts';

// The crowd's contact shadow (CrowdStage.shadow, the crowd page's "shadow" setting): drawn from the instanced
// skinned draw, so it darkens the ground and nothing else, and it moves as the instances animate, live and baked.

type Api = { render: (mode: 'live' | 'baked', seconds: number, intensity: number) => Promise<CrowdShadowFrame> };

const luminance = (p: number[], i: number): number => 0.2126 * p[4 * i] + 0.7152 * p[4 * i + 1] + 0.0722 * p[4 * i + 2];

/** Pixels darker by more than 3/255 with the shadow than without it (the shadow's footprint), and brighter ones. */
function compare(withShadow: CrowdShadowFrame, without: CrowdShadowFrame): { darker: Uint8Array; darkerCount: number; brighter: number; ratio: number } {
  const n = withShadow.width * withShadow.height, darker = new Uint8Array(n);
  let darkerCount = 0, brighter = 0, sumWith = 0, sumWithout = 0;
  for (let i = 0; i < n; i++) {
    const a = luminance(withShadow.pixels, i), b = luminance(without.pixels, i);
    if (a < b - 3) { darker[i] = 1; darkerCount++; sumWith += a; sumWithout += b; }
    if (a > b + 3) brighter++;
  }
  return { darker, darkerCount, brighter, ratio: sumWithout > 0 ? sumWith / sumWithout : 1 };
}

for (const mode of ['live', 'baked'] as const) {
  test(`crowd shadow (${mode}): 9 Foxes darken the ground only, and the shadow moves with the clips`, async ({ page }, info) => {
    requireSharedAssets();
    await openHarness(page, '/tests/browser/pages/crowd-shadow.html', 'sinewCrowdShadowReady');
    const render = (seconds: number, intensity: number) =>
      page.evaluate(([m, s, i]) => (window as unknown as { sinewCrowdShadow: Api }).sinewCrowdShadow.render(m, s, i), [mode, seconds, intensity] as const);
    const early = compare(await render(0.4, 1), await render(0.4, 0));
    const lateBare = await render(1.3, 0);
    await page.locator('#gl').screenshot({ path: info.outputPath(`crowd-bare-${mode}.png`) });
    const late = compare(await render(1.3, 1), lateBare);
    await page.locator('#gl').screenshot({ path: info.outputPath(`crowd-shadow-${mode}.png`) });
    let moved = 0;
    for (let i = 0; i < early.darker.length; i++) if (early.darker[i] !== late.darker[i]) moved++;
    console.log(JSON.stringify({ mode, darker: [early.darkerCount, late.darkerCount], brighter: [early.brighter, late.brighter], ratio: [early.ratio, late.ratio], moved }));
    // Each of the 9 Foxes leaves a footprint; nothing is brightened.
    expect(early.darkerCount).toBeGreaterThan(9 * 100);
    expect(late.darkerCount).toBeGreaterThan(9 * 100);
    expect(early.brighter + late.brighter).toBe(0);
    expect(early.ratio).toBeLessThan(0.9);
    // Legs and tails in other places: part of the footprint changes between the two times.
    expect(moved).toBeGreaterThan(0.05 * Math.min(early.darkerCount, late.darkerCount));
  });
}
