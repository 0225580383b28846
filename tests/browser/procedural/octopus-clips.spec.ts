import { test, expect, type Page } from '@playwright/test';
import { isolateFromLiveReload, collectErrors, gridDistance } from '../helpers/viewer-page.ts';

// The built-in octopus's clips in the viewer: swim (LINEAR), curl (CATMULLROM), wave (HERMITE rotations,
// BEZIER head bob). Each must change the picture as its time moves, and come back to its first picture at
// its end (the loops are seamless).

test.beforeEach(({ page }) => isolateFromLiveReload(page));

/** Pauses at `seconds` of the current clip, draws, and returns the luminance grid (32 × 24 cells, 0–255). */
async function gridAt(page: Page, seconds: number): Promise<number[]> {
  const stats = await page.evaluate((t) => {
    window.sinew!.setTime(t);
    return window.sinew!.inspectFrame(32, 24);
  }, seconds);
  expect(stats).not.toBeNull();
  expect(stats!.coverage).toBeGreaterThan(0.02);
  return stats!.grid;
}

test('every octopus clip changes the picture over time and loops back to its first frame', async ({ page }) => {
  const errors = collectErrors(page);
  // One camera for every clip, framed on the whole animation (moved in: the frame holds every clip's reach),
  // from the front as before the three-quarter default; then clips are switched while paused.
  await page.goto('/?ui=0&time=0&yaw=0&pitch=10&distance=0.7');
  await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 120_000 });
  const clips = await page.evaluate(() => window.sinew!.state().clips);
  expect(clips).toEqual(['swim', 'curl', 'wave']);

  for (const clip of clips) {
    expect(await page.evaluate((name) => window.sinew!.selectClip(name), clip)).toBe(true);
    const state = await page.evaluate(() => window.sinew!.state());
    expect(state.clip).toBe(clip);
    expect(state.playing).toBe(false);
    const duration = state.duration;
    expect(duration).toBeGreaterThan(1);

    const fractions = [0, 0.2, 0.4, 0.6, 0.8];
    const grids: number[][] = [];
    for (const f of fractions) grids.push(await gridAt(page, f * duration));
    // Same state, same picture: the fingerprint is stable.
    expect(gridDistance(grids[grids.length - 1], await gridAt(page, fractions[fractions.length - 1] * duration)), clip).toBe(0);
    // Consecutive fifths of the clip differ: the clip moves throughout, not only in one stretch.
    for (let i = 1; i < grids.length; i++) {
      expect(gridDistance(grids[i - 1], grids[i]), `${clip}: ${fractions[i - 1]} → ${fractions[i]} of ${duration} s`).toBeGreaterThan(0.1);
    }
    // Some mid-clip frame is well away from the start.
    expect(Math.max(...grids.slice(1).map((g) => gridDistance(grids[0], g))), clip).toBeGreaterThan(0.5);
    // Seamless loop: the end of the clip shows the picture of its start.
    expect(gridDistance(grids[0], await gridAt(page, duration)), clip).toBeLessThan(0.05);
  }
  expect(errors).toEqual([]);
});
