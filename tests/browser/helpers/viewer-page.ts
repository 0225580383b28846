import { expect, test, type Page } from '@playwright/test';
import { SHARED_ASSETS, sharedAssets } from '../../helpers/shared-assets.ts';

/** The read-only third-party models (tests/helpers/shared-assets.ts), served by vite at /shared/assets. */
export { SHARED_ASSETS };

/**
 * Skips the test (or, called in a hook, the tests) that need ../shared/assets when it is absent.
 * @throws Error when it is absent and `process.env.CI` is set ({@link sharedAssets}): under CI that is a failure
 */
export function requireSharedAssets(): void {
  test.skip(sharedAssets() === null, `shared assets absent at ${SHARED_ASSETS}`);
}

/**
 * Answers the page's WebSockets in the page instead of connecting them to vite: other work editing files
 * under the same dev server would otherwise make vite's live reload reload the page mid-test.
 */
export async function isolateFromLiveReload(page: Page): Promise<void> {
  await page.routeWebSocket(/./, () => {});
}

/** Console errors and uncaught exceptions of a page, collected from the moment it is attached. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** Opens the viewer with a query string and waits until its first model is drawn. */
export async function openViewer(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 120_000 });
}

/** Draws a frame and returns its luminance grid (32 × 24 cells, 0–255). */
export async function grid(page: Page): Promise<number[]> {
  const stats = await page.evaluate(() => window.sinew!.inspectFrame(32, 24));
  expect(stats).not.toBeNull();
  return stats!.grid;
}

/** Mean absolute difference of two luminance grids, 0–255. */
export function gridDistance(a: number[], b: number[]): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}
