import type { Page } from '@playwright/test';

// Waits on the page's own turns instead of wall-clock sleeps: a sleep guesses how long the page needs, too short on
// a loaded machine and too long on an idle one; these resolve when the page has done the work.

/**
 * Resolves once the page has run the tasks already queued: a zero-delay timer queued now runs after them (timers of
 * equal delay run in order, HTML "timer initialisation steps"). `<sinew-viewer>` queues its connect-time reports
 * of malformed attributes, and the load it schedules, as such tasks.
 */
export async function nextTask(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/**
 * Resolves after `count` of the page's animation frames: a frame loop driven by requestAnimationFrame had that many
 * turns to draw meanwhile (headless Chromium throttles the frames, so a fixed time says nothing about how many ran).
 */
export async function animationFrames(page: Page, count: number): Promise<void> {
  await page.evaluate((count) => new Promise<void>((resolve) => {
    let left = count;
    const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), count);
}

/**
 * Waits `ms` of wall time in which something that must not happen (a fetch that should wait, a second event) would
 * have shown itself. Only for asserting an absence: nothing signals that something did not happen. Everything else
 * waits on its event.
 */
export async function quietPeriod(page: Page, ms: number): Promise<void> {
  await page.waitForTimeout(ms);
}
