import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { collectErrors, grid, gridDistance, isolateFromLiveReload, openViewer, requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { editGlbJson } from '../helpers/edit-glb.ts';

// Issue 21, clips from other files: a Shift-drop on the viewer and `animations=` / `appendAnimations` on
// <sinew-viewer> add a file's clips to the model shown, retargeted by joint name (CesiumMan's own clip onto
// CesiumMan: every joint matches, and the taken name is made unique).

const CESIUM = '/shared/assets/gltf/CesiumMan.glb';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

/** Drops files (name, base64 bytes) on the viewer page, with Shift held when `shift`. */
async function dropFiles(page: Page, files: { name: string; base64: string }[], shift: boolean): Promise<void> {
  await page.evaluate(({ list, shiftKey }) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true, shiftKey }));
  }, { list: files, shiftKey: shift });
}

test('viewer: a Shift-drop adds the file\'s clips to the model shown, with the joint matching; a bad file leaves them', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `?model=${CESIUM}`);
  const before = await page.evaluate(() => window.sinew!.state());
  expect(before.model).toBe('CesiumMan.glb');
  const own = before.clips[0];

  await dropFiles(page, [{ name: 'CesiumMan.glb', base64: readFileSync(`${SHARED_ASSETS}/gltf/CesiumMan.glb`).toString('base64') }], true);
  await page.waitForFunction((n) => window.sinew!.state().clips.length > n, before.clips.length);
  const after = await page.evaluate(() => window.sinew!.state());
  expect(after.model).toBe('CesiumMan.glb'); // not replaced
  expect(after.clips).toEqual([...before.clips, `${own || 'clip'} (CesiumMan.glb)`]);
  expect(after.error).toBeNull();
  await expect(page.locator('#sinew-retarget')).toBeVisible();
  await expect(page.locator('#sinew-retarget summary')).toContainText('0 unmatched');

  // The added clip plays: two times of it draw different pictures.
  await page.evaluate((clip) => window.sinew!.selectClip(clip), after.clips[1]);
  expect(await page.evaluate(() => window.sinew!.state().clipIndex)).toBe(before.clips.length);
  await page.evaluate(() => window.sinew!.setTime(0.1));
  const early = await grid(page);
  await page.evaluate(() => window.sinew!.setTime(1.0));
  const late = await grid(page);
  expect(gridDistance(early, late)).toBeGreaterThan(0.5);

  // A file that cannot be read: the banner names it, the model and its grown clip list stay.
  await dropFiles(page, [{ name: 'broken.glb', base64: Buffer.from('not a glb').toString('base64') }], true);
  await page.waitForFunction(() => window.sinew!.state().error !== null);
  const failed = await page.evaluate(() => window.sinew!.state());
  expect(failed.error).toContain('broken.glb');
  expect(failed.clips).toEqual(after.clips);
  expect(failed.model).toBe('CesiumMan.glb');

  // A lost and restored context uploads the model again: the added clip is still listed, selected, and drawn.
  await page.evaluate(() => {
    const ext = (document.getElementById('sinew-canvas') as HTMLCanvasElement).getContext('webgl2')!.getExtension('WEBGL_lose_context')!;
    (window as unknown as { __loseExt: WEBGL_lose_context }).__loseExt = ext;
    ext.loseContext();
  });
  await page.waitForFunction(() => window.sinew!.state().contextLost);
  await page.evaluate(() => (window as unknown as { __loseExt: WEBGL_lose_context }).__loseExt.restoreContext());
  await page.waitForFunction(() => !window.sinew!.state().contextLost && window.sinew!.coverage() > 0.01);
  const restored = await page.evaluate(() => window.sinew!.state());
  expect(restored.clips).toEqual(after.clips);
  expect(restored.clipIndex).toBe(before.clips.length);
  expect(gridDistance(late, await grid(page))).toBeLessThan(0.5);
  expect(errors).toEqual([]);
});

/** CesiumMan.glb without its meshes, skins and materials: an animation-only GLB (its skeleton and clip), base64. */
function animationOnlyCesiumMan(): string {
  return editGlbJson(`${SHARED_ASSETS}/gltf/CesiumMan.glb`, (json) => {
    for (const key of ['meshes', 'skins', 'materials', 'textures', 'images', 'samplers']) delete json[key];
    for (const node of json.nodes) {
      delete node.mesh;
      delete node.skin;
    }
  }).toString('base64');
}

test('viewer: a drop of an animation-only glTF adds its clips without Shift; a full model still replaces', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, `?model=${CESIUM}`);
  const before = await page.evaluate(() => window.sinew!.state());
  await dropFiles(page, [{ name: 'walk.glb', base64: animationOnlyCesiumMan() }], false);
  await page.waitForFunction((n) => window.sinew!.state().clips.length > n, before.clips.length);
  const after = await page.evaluate(() => window.sinew!.state());
  expect(after.model).toBe('CesiumMan.glb');
  expect(after.clips).toEqual([...before.clips, `${before.clips[0] || 'clip'} (walk.glb)`]);

  const fox = readFileSync(`${SHARED_ASSETS}/gltf/Fox.glb`).toString('base64');
  await dropFiles(page, [{ name: 'Fox.glb', base64: fox }], false);
  await page.waitForFunction(() => window.sinew!.state().model === 'Fox.glb');
  expect(errors).toEqual([]);
});

test('element: animations= adds clips that animation-name= selects and that play; appendAnimations resolves with the names or rejects', async ({ page }) => {
  requireSharedAssets();
  await page.goto('/tests/browser/pages/empty-page.html');
  const added = await page.evaluate((src) => new Promise<{ detail: { added: string[]; clips: string[]; unmatched: string[] }; selected: string }>((done, fail) => {
    const viewer = document.createElement('sinew-viewer');
    viewer.id = 'v';
    viewer.style.cssText = 'width: 320px; height: 240px';
    // The clip CesiumMan's unnamed clip becomes once added again: selected when its file is added.
    viewer.setAttribute('animation-name', 'animation 0 (CesiumMan.glb)');
    viewer.setAttribute('controls', '');
    const selected = (): string => (viewer.shadowRoot!.querySelector('[part=clip]') as HTMLSelectElement).value;
    viewer.addEventListener('sinew-clipsadded', (e) => done({ detail: (e as CustomEvent).detail, selected: selected() }), { once: true });
    viewer.addEventListener('sinew-error', (e) => fail(new Error((e as CustomEvent).detail.message)));
    viewer.setAttribute('src', src);
    viewer.setAttribute('animations', src);
    document.body.append(viewer);
  }), CESIUM);
  expect(added.detail.added).toEqual(['animation 0 (CesiumMan.glb)']);
  expect(added.selected).toBe('1');
  expect(added.detail.clips).toHaveLength(2);
  expect(added.detail.unmatched).toEqual([]);

  const state = await page.evaluate(async (name) => {
    const viewer = document.getElementById('v') as HTMLElementTagNameMap['sinew-viewer'];
    viewer.animationName = name; // select the added clip by its unique name
    viewer.pause();
    const read = (): string => {
      viewer.renderOnce();
      return viewer.shadowRoot!.querySelector('canvas')!.toDataURL();
    };
    viewer.seek(0.1);
    const early = read();
    viewer.seek(1.0);
    const late = read();
    const appended = await viewer.appendAnimations('/shared/assets/gltf/CesiumMan.glb');
    const rejected = await viewer.appendAnimations('/shared/assets/gltf/missing.glb').then(() => 'resolved', (e: Error) => e.message);
    return { clips: viewer.clips, changed: early !== late, appended, rejected, paused: viewer.paused };
  }, added.detail.added[0]);
  expect(state.changed).toBe(true);
  expect(state.appended).toEqual([`${added.detail.added[0]} 2`]);
  expect(state.clips).toEqual([...added.detail.clips, `${added.detail.added[0]} 2`]);
  expect(state.rejected).toContain('missing.glb');
  expect(state.paused).toBe(true);
});
