import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../helpers/viewer-page.ts';
import { openHarness } from '../helpers/harness.ts';
import type { CrowdShadowFrame } from '../pages/crowd-shadow.ts';

// The crowd's contact shadow (CrowdStage.shadow, the crowd page's "shadow" setting): drawn from the instanced
// skinned draw, so it darkens the ground and nothing else, and it moves as the instances animate, live and baked.

type Api = { render: (mode: 'live' | 'baked', seconds: number, intensity: number) => Promise<CrowdShadowFrame> };

/** A frame as the test reads it: {@link CrowdShadowFrame} with its pixels as bytes. */
interface Frame { pixels: Uint8Array; width: number; height: number }

const luminance = (p: Uint8Array, i: number): number => 0.2126 * p[4 * i] + 0.7152 * p[4 * i + 1] + 0.0722 * p[4 * i + 2];

/** Pixels darker by more than 3/255 with the shadow than without it (the shadow's footprint), and brighter ones. */
function compare(withShadow: Frame, without: Frame): { darker: Uint8Array; darkerCount: number; brighter: number; ratio: number } {
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
    // The pixels cross to node as one base64 string: Playwright serializes a returned array element by element, slowly.
    const render = (seconds: number, intensity: number): Promise<Frame> =>
      page.evaluate(async ([m, s, i]) => {
        const frame = await (window as unknown as { sinewCrowdShadow: Api }).sinewCrowdShadow.render(m, s, i);
        const data = Uint8Array.from(frame.pixels);
        let binary = '';
        for (let k = 0; k < data.length; k += 0x8000) binary += String.fromCharCode(...data.subarray(k, k + 0x8000));
        return { base64: btoa(binary), width: frame.width, height: frame.height };
      }, [mode, seconds, intensity] as const).then(({ base64, width, height }) => ({ pixels: new Uint8Array(Buffer.from(base64, 'base64')), width, height }));
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
