import { expect, test } from '@playwright/test';
import { openHarness } from '../helpers/harness.ts';
import type { PropFrame } from '../pages/attachments.ts';

// A prop attached to a joint (view.attachments) is drawn where jointMatrix · offset puts it in the very frame
// that drew the character: a small unlit green cube on an octopus tentacle tip, its pixels' centroid held
// against the CPU's projection of its centre for the pose of that frame, across frames where the tip moves
// several times the tolerance from one frame to the next.

type Api = {
  setup: () => Promise<void>;
  frames: (times: number[]) => PropFrame[];
  loseAndRestore: () => Promise<PropFrame>;
  attachSword: (joint: string) => Promise<number>;
  showRenamed: (keep: string) => Promise<{ attached: string[]; warnings: string[] }>;
};

const api = (page: import('@playwright/test').Page) => ({
  call: <K extends keyof Api>(name: K, ...args: Parameters<Api[K]>) =>
    page.evaluate(([n, a]) => ((window as unknown as { sinewAttach: Record<string, (...x: unknown[]) => unknown> }).sinewAttach[n as string](...(a as unknown[]))), [name, args] as const) as Promise<Awaited<ReturnType<Api[K]>>>,
});

/** Pixels between two points. */
const distance = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

test.describe('attachments', () => {
  test.beforeEach(async ({ page }) => {
    await openHarness(page, '/tests/browser/pages/attachments.html', 'sinewAttachReady');
    await api(page).call('setup');
  });

  test('the prop is drawn at jointMatrix · offset of the frame drawn, with no frame of lag', async ({ page }, info) => {
    const times = Array.from({ length: 9 }, (_, k) => 0.4 + k / 10);
    const frames = await api(page).call('frames', times);
    await page.locator('canvas').screenshot({ path: info.outputPath('prop-on-tentacle.png') });
    let worst = 0, smallestStep = Infinity;
    frames.forEach((frame, k) => {
      expect(frame.drawn, `prop drawn at ${frame.time}s`).not.toBeNull();
      expect(frame.pixels).toBeGreaterThan(20);
      expect(frame.character).toBeGreaterThan(1000);
      worst = Math.max(worst, distance(frame.drawn!, frame.expected));
      if (k > 0) smallestStep = Math.min(smallestStep, distance(frames[k - 1].expected, frame.expected));
    });
    console.log(`attached prop: largest |drawn − expected| ${worst.toFixed(2)} px; smallest move per frame ${smallestStep.toFixed(2)} px`);
    expect(worst).toBeLessThan(0.5);
    // A frame of lag would put the prop at the previous frame's place: further off than the tolerance.
    expect(smallestStep).toBeGreaterThan(5);
  });

  test.describe('after a context loss', () => {
    test('survives a context loss and restore: the prop restores itself (src/gpu/device/) and is drawn in place', async ({ page }) => {
      const frame = await api(page).call('loseAndRestore');
      expect(frame.drawn).not.toBeNull();
      expect(distance(frame.drawn!, frame.expected)).toBeLessThan(0.5);
    });
  });

  test('on another model, attachments find their joints by name or are dropped with a warning', async ({ page }) => {
    await api(page).call('attachSword', 'head');
    const result = await api(page).call('showRenamed', 'head');
    expect(result.attached).toEqual(['sword@head']);
    expect(result.warnings).toEqual(['green-cube: dropped, renamed octopus has no joint "tentacle2_5" to hold it']);
  });
});
