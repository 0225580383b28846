import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, isolateFromLiveReload, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { editGlbJson } from '../helpers/edit-glb.ts';

// <sinew-viewer>'s animation events: `loop`, `finished` (model-viewer's names) and `marker` (a glTF animation's
// `extras.markers`), fired as frames advance the clip. Frames are driven by Playwright's clock (rAF is
// throttled headless), installed once the model has loaded.

const PAGE = '/tests/browser/pages/empty-page.html';

/** Fox.glb with a marker `step` at 0.1 s on its Walk animation (index 1, 0.708 s long). */
function foxWithMarker(): Buffer {
  return editGlbJson(join(SHARED_ASSETS, 'gltf', 'Fox.glb'), (json) => {
    json.animations[1].extras = { markers: [{ time: 0.1, name: 'step' }] };
  });
}

interface Heard {
  type: string;
  detail: { clip: string; count?: number; name?: string; time?: number };
}

/** The animation events heard on the document so far (they bubble and are composed). */
async function heard(page: Page): Promise<Heard[]> {
  return page.evaluate(() => (window as unknown as { __heard: Heard[] }).__heard);
}

test('loop, finished and marker events: each crossing once, in order, with clip, count, marker name and time', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await isolateFromLiveReload(page);
  const body = foxWithMarker();
  await page.route('**/marked/Fox.glb', (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }));
  await page.addInitScript(() => {
    const list: unknown[] = [];
    (window as unknown as { __heard: unknown[] }).__heard = list;
    for (const type of ['loop', 'finished', 'marker']) {
      document.addEventListener(type, (e) => list.push({ type, detail: (e as CustomEvent).detail }));
    }
  });
  await page.goto(PAGE);
  await page.evaluate(() => {
    const el = document.createElement('sinew-viewer');
    el.id = 'fox';
    el.setAttribute('src', '/marked/Fox.glb');
    el.setAttribute('animation-name', 'Walk');
    el.setAttribute('time', '0'); // paused until the clock is ours
    document.body.append(el);
  });
  await page.waitForFunction(() => document.querySelector('sinew-viewer')?.model === 'Fox.glb', undefined, { timeout: 120_000 });
  await page.clock.install();
  await page.evaluate(() => document.querySelector('sinew-viewer')!.play());
  await page.clock.runFor(2000); // ≈ 2.8 Walk loops at 60 frames per second
  await page.evaluate(() => document.querySelector('sinew-viewer')!.pause());

  const looping = await heard(page);
  const loops = looping.filter((e) => e.type === 'loop');
  expect(loops.length).toBeGreaterThanOrEqual(2);
  expect(loops.map((e) => e.detail)).toEqual(loops.map((_, i) => ({ name: 'Walk', clip: 'Walk', count: i + 1 })));
  // One `step` per pass over 0.1 s, before each wrap: step, loop, step, loop, …
  const order = looping.map((e) => e.type);
  for (let i = 0; i < order.length; i++) expect(order[i]).toBe(i % 2 === 0 ? 'marker' : 'loop');
  expect(looping[0].detail).toEqual({ clip: 'Walk', name: 'step', time: expect.closeTo(0.1, 6) });
  expect(looping.some((e) => e.type === 'finished')).toBe(false);

  // `once`: one `finished` at the end, and playback stops there.
  await page.evaluate(() => {
    (window as unknown as { __heard: unknown[] }).__heard.length = 0;
    const el = document.querySelector('sinew-viewer')!;
    el.setAttribute('loop', 'once');
    el.seek(0.5);
    el.play();
  });
  await page.clock.runFor(1000);
  const once = await heard(page);
  expect(once).toEqual([{ type: 'finished', detail: { name: 'Walk', clip: 'Walk', count: 1 } }]);
  expect(await page.evaluate(() => document.querySelector('sinew-viewer')!.paused)).toBe(true);

  // root-motion: reflected as rootMotion; a malformed value fires sinew-error and changes nothing.
  const rootMotion = await page.evaluate(() => {
    const el = document.querySelector('sinew-viewer')!;
    const messages: string[] = [];
    el.addEventListener('sinew-error', (e) => messages.push(e.detail.message));
    el.rootMotion = 'applied';
    const reflected = el.getAttribute('root-motion');
    el.setAttribute('root-motion', 'sideways');
    return { reflected, messages };
  });
  expect(rootMotion).toEqual({ reflected: 'applied', messages: ['<sinew-viewer root-motion="sideways">: expected off, in-place or applied'] });
  await page.evaluate(() => document.querySelector('sinew-viewer')!.play());
  await page.clock.runFor(500);
  expect(errors).toEqual([]);
});
