import { expect, test } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets } from '../helpers/viewer-page.ts';
import { nextTask } from '../helpers/page-turns.ts';

// <sinew-viewer memory-budget="MiB"> (Sinew-only; README "Memory ceiling"): each load checks its file against the
// element's budget before decoding; too big a model is refused with one error naming MEMORY_BUDGET_EXCEEDED and
// the model shown before stays; a malformed value is one sinew-error and the default.

type Viewer = HTMLElementTagNameMap['sinew-viewer'];
const FOX = '/shared/assets/gltf/Fox.glb';

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  await page.addInitScript(() => {
    const events: { type: string; message: string }[] = [];
    (window as unknown as { __events: typeof events }).__events = events;
    document.addEventListener('sinew-error', (e) => events.push({ type: 'sinew-error', message: (e as CustomEvent<{ message: string }>).detail.message }));
    document.addEventListener('error', (e) => {
      const detail = (e as unknown as CustomEvent<{ type: string; sourceError?: Error }>).detail;
      if (detail) events.push({ type: `error ${detail.type}`, message: detail.sourceError?.message ?? '' });
    }, true);
  });
  await page.goto('/tests/browser/pages/empty-page.html');
});

const events = (page: import('@playwright/test').Page) => page.evaluate(() => (window as unknown as { __events: { type: string; message: string }[] }).__events.splice(0));

test('a model over the element\'s memory budget is refused before decoding; the one shown before stays; the default takes Fox', async ({ page }) => {
  requireSharedAssets();
  // The built-in octopus first (made in code, not loaded: the budget does not apply to it).
  await page.evaluate(() => {
    const el = document.createElement('sinew-viewer');
    el.id = 'v';
    el.setAttribute('memory-budget', '0.01');
    document.body.append(el);
  });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).model !== '', undefined, { timeout: 60_000 });
  const octopus = await page.evaluate(() => (document.getElementById('v') as Viewer).model);
  await page.evaluate((src) => document.getElementById('v')!.setAttribute('src', src), FOX);
  // The refusal: its sinew-error, then model-viewer's error event.
  await page.waitForFunction(() => {
    const heard = (window as unknown as { __events: { type: string }[] }).__events;
    return heard.some((e) => e.type === 'sinew-error') && heard.some((e) => e.type === 'error loadfailure');
  }, undefined, { timeout: 60_000 });
  await nextTask(page);
  const refused = await events(page);
  console.log(JSON.stringify(refused));
  expect(refused.filter((e) => e.type === 'sinew-error')).toHaveLength(1);
  expect(refused.find((e) => e.type === 'sinew-error')!.message).toBe("Fox.glb: /accessors/0/count is 1728: the accessors decode to more than the memory budget of 0.01 MiB");
  expect(refused.some((e) => e.type === 'error loadfailure')).toBe(true);
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).model)).toBe(octopus);

  // A malformed value: one sinew-error; the default budget (512 MiB) then takes Fox.
  await page.evaluate(() => document.getElementById('v')!.setAttribute('memory-budget', 'lots'));
  expect((await events(page)).map((e) => e.message)).toEqual(['<sinew-viewer memory-budget="lots">: expected MiB > 0; using 512']);
  await page.evaluate(() => {
    const el = document.getElementById('v')!;
    el.removeAttribute('src');
    el.setAttribute('src', '/shared/assets/gltf/Fox.glb?again');
  });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).model.startsWith('Fox'), undefined, { timeout: 60_000 });
  expect((await events(page)).filter((e) => e.type === 'sinew-error')).toEqual([]);
});
