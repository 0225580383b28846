import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';

/** `../shared/assets` relative to the repository root (Playwright runs from it). */
export const SHARED_ASSETS = resolve(process.cwd(), '../shared/assets');

/**
 * Whether the shared third-party models are present. Absent: tests skip them locally, but when `CI` is set
 * their absence is a failure (throws).
 */
export function sharedAssetsAvailable(): boolean {
  if (existsSync(SHARED_ASSETS)) return true;
  if (process.env.CI) throw new Error(`${SHARED_ASSETS} is missing: the browser tests need the shared models on CI`);
  return false;
}

/** Opens a harness page, forwards its console and page errors to the test output, waits for `readyFlag`. */
export async function openHarness(page: Page, path: string, readyFlag: string): Promise<void> {
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) console.log(`[navigated] ${frame.url()}`); });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.log(`[page ${message.type()}] ${message.text()}`);
  });
  await page.goto(path);
  await page.waitForFunction((flag) => (window as unknown as Record<string, unknown>)[flag] === true, readyFlag);
}
