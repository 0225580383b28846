import { expect, test } from '@playwright/test';
import { openHarness } from '../../helpers/harness.ts';

// The LBS / DQS side-by-side page on the twisting cylinder: at 170° of twist LBS pinches the waist (candy
// wrapper) and DQS keeps it as wide as at rest. The screenshot goes to test-results/ for a human look.

test.use({ viewport: { width: 800, height: 490 } });

type Api = { render: (time: number) => { lbsWidth: number; dqsWidth: number; restWidth: number } };

test('LBS collapses the twisting joint, DQS keeps its width (side by side, one renderer)', async ({ page }, info) => {
  await openHarness(page, '/tests/browser/pages/skinning-compare.html?time=1', 'sinewCompareReady');
  const widths = await page.evaluate(() => (window as unknown as { sinewCompare: Api }).sinewCompare.render(1));
  console.log(`width at the joint: LBS ${widths.lbsWidth} px, DQS ${widths.dqsWidth} px, rest ${widths.restWidth} px`);
  await page.screenshot({ path: info.outputPath('lbs-vs-dqs-twist.png') });
  expect(widths.restWidth).toBeGreaterThan(40);
  expect(widths.lbsWidth).toBeLessThan(0.3 * widths.restWidth);
  expect(Math.abs(widths.dqsWidth - widths.restWidth)).toBeLessThanOrEqual(2);
});
