import { test as base, type Page } from '@playwright/test';
import { openHarness } from './harness.ts';

/**
 * Playwright's `test` with `parityPage`: one parity harness page (tests/browser/pages/parity.html) per worker, shared
 * by the tests of every spec that takes it. The page keeps its transform-feedback captures, so each program variant
 * compiles once per worker instead of once per test. A run holds nothing over to the next (its model is uploaded and
 * freed within the run, every capture read back whole); a failed test ends its worker, and the page with it.
 */
export const test = base.extend<object, { parityPage: Page }>({
  parityPage: [async ({ browser }, use, workerInfo) => {
    const { baseURL, viewport, deviceScaleFactor } = workerInfo.project.use;
    const page = await browser.newPage({ baseURL, viewport, deviceScaleFactor });
    await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
    await use(page);
    await page.close();
  }, { scope: 'worker' }],
});
