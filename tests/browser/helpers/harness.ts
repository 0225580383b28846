import type { Page } from '@playwright/test';

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
