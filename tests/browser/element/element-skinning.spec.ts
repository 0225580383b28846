import { expect, test } from '@playwright/test';
import { collectErrors, isolateFromLiveReload } from '../helpers/viewer-page.ts';

// <sinew-viewer skinning weights>: reflected as properties, applied at run time (no new upload: a shader
// variant each), malformed values reported as sinew-error naming the attribute.

type Viewer = HTMLElement & { skinning: string | null; weights: string | null; model: string; renderOnce(): void };

test('skinning and weights attributes: reflected, applied, malformed ones reported', async ({ page }) => {
  await isolateFromLiveReload(page);
  const errors = collectErrors(page);
  await page.addInitScript(() => {
    const messages: string[] = [];
    (window as unknown as { __errors: string[] }).__errors = messages;
    document.addEventListener('sinew-error', (e) => messages.push((e as CustomEvent<{ message: string }>).detail.message));
  });
  // The embedding page's built-in octopus, switched to DQS and another weight policy once shown.
  await page.goto('/tests/browser/pages/embed-example.html');
  await page.waitForFunction(() => (document.getElementById('octopus') as Viewer | null)?.model);
  await page.evaluate(() => {
    const v = document.getElementById('octopus') as Viewer;
    v.setAttribute('skinning', 'dqs');
    v.weights = 'rest-remainder';
  });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  const drawn = await page.evaluate(() => {
    const v = document.getElementById('octopus') as Viewer;
    v.renderOnce();
    const canvas = v.shadowRoot!.querySelector('canvas')!;
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let covered = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) covered++;
    return { skinning: v.skinning, weights: v.weights, coverage: covered / (canvas.width * canvas.height) };
  });
  expect(drawn.skinning).toBe('dqs');
  expect(drawn.weights).toBe('rest-remainder');
  expect(drawn.coverage).toBeGreaterThan(0.02);
  await page.evaluate(() => {
    const v = document.getElementById('octopus') as Viewer;
    v.skinning = 'lbs';
    v.weights = 'as-stored';
    v.setAttribute('skinning', 'cor');
    v.setAttribute('weights', 'sum');
  });
  await page.waitForFunction(() => (window as unknown as { __errors: string[] }).__errors.length >= 2);
  // (The embedding page's Fox may report its own errors when the shared models are absent: only ours count.)
  const ours = (await page.evaluate(() => (window as unknown as { __errors: string[] }).__errors)).filter((m) => /skinning|weights/.test(m));
  expect(ours).toEqual([
    '<sinew-viewer skinning="cor">: expected lbs or dqs',
    '<sinew-viewer weights="sum">: expected normalize, as-stored, rest-remainder, implicit-last',
  ]);
  expect(errors).toEqual([]);
});
