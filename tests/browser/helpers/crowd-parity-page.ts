import { test as base, type Page } from '@playwright/test';
import { openHarness } from './harness.ts';

/**
 * Playwright's `test` with `crowdParityPage`: one crowd parity harness page (tests/browser/pages/crowd-parity.html)
 * per worker, shared by the tests that take it, so the page and its modules load once per worker instead of once per
 * case. A run holds nothing over to the next (its crowd, model, instances and capture are made and disposed within the
 * run); a failed test ends its worker, and the page with it.
 */
export const test = base.extend<object, { crowdParityPage: Page }>({
  crowdParityPage: [async ({ browser }, use, workerInfo) => {
    const { baseURL, viewport, deviceScaleFactor } = workerInfo.project.use;
    const page = await browser.newPage({ baseURL, viewport, deviceScaleFactor });
    await openHarness(page, '/tests/browser/pages/crowd-parity.html', 'sinewCrowdParityReady');
    await use(page);
    await page.close();
  }, { scope: 'worker' }],
});
