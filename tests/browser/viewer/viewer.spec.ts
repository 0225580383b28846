import { test, expect, type Page } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets, collectErrors, openViewer, grid, gridDistance, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { readFileSync } from 'node:fs';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

test('opens on the built-in octopus, playing, with no console errors and something drawn', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model.toLowerCase()).toContain('octopus');
  expect(state.clipIndex).toBe(0);
  expect(state.clips.length).toBeGreaterThan(0);
  expect(state.playing).toBe(true);
  expect(state.error).toBeNull();
  expect(['uniform', 'texture']).toContain(state.palettePath);

  await expect(page.locator('#sinew-model')).toHaveText(state.model);
  await expect(page.locator('#sinew-palette')).toHaveAttribute('data-path', state.palettePath!);
  await expect(page.locator('#sinew-palette')).toContainText('joint matrices');
  await expect(page.locator('#sinew-clip')).toHaveValue(state.clips[0]);
  await expect(page.locator('#sinew-play')).toHaveText('Pause');

  const coverage = await page.evaluate(() => window.sinew!.coverage());
  expect(coverage).toBeGreaterThan(0.02);
  expect(coverage).toBeLessThan(0.9);
  expect(errors).toEqual([]);
});

test('golden: built-in octopus at a fixed time and camera', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&time=0.75&yaw=25&pitch=20');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.playing).toBe(false);
  expect(state.time).toBeCloseTo(0.75, 6);
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('octopus.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('golden: CesiumMan (textured, glTF) at a fixed time and camera', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&model=/shared/assets/gltf/CesiumMan.glb&time=0.5&yaw=30&pitch=10');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('CesiumMan.glb');
  expect(state.error).toBeNull();
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('cesium-man.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('golden: Fox, Run clip, at a fixed time and camera', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&model=/shared/assets/gltf/Fox.glb&clip=Run&time=0.3&yaw=-60&pitch=15');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('Fox.glb');
  expect(state.clip).toBe('Run');
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('fox-run.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('golden: MD5 Bob (Z-up, shown Y-up) with its anim and images found next to the mesh', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&model=/shared/assets/md5/Bob.md5mesh&time=1&yaw=-30&pitch=5');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('Bob.md5mesh');
  expect(state.clips).toEqual(['Bob']);
  expect(state.error).toBeNull();
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('bob.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('a malformed .md5mesh shows the loader message with file and line; the octopus keeps playing', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page);
  const name = 'InvalidBoneIndex.md5mesh';
  await page.locator('#sinew-file').setInputFiles({
    name,
    mimeType: 'text/plain',
    buffer: readFileSync(`${SHARED_ASSETS}/md5/invalid/${name}`),
  });
  await page.waitForFunction(() => window.sinew!.state().error !== null);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.error).toMatch(/^InvalidBoneIndex\.md5mesh:\d+: /);
  expect(state.model.toLowerCase()).toContain('octopus');
  expect(state.playing).toBe(true);
  await expect(page.locator('#sinew-banner')).toContainText(name);
});

test('scrubbing the time slider and choosing a clip change the picture', async ({ page }) => {
  await openViewer(page);
  await page.locator('#sinew-play').click();
  await expect(page.locator('#sinew-play')).toHaveText('Play');
  expect(await page.evaluate(() => window.sinew!.state().playing)).toBe(false);

  await page.locator('#sinew-time').fill('0');
  const atZero = await grid(page);
  expect(await page.evaluate(() => window.sinew!.state().time)).toBeCloseTo(0, 6);
  // Drawing the same state again gives the same picture: the fingerprint is stable.
  expect(gridDistance(atZero, await grid(page))).toBe(0);

  const duration = await page.evaluate(() => window.sinew!.state().duration);
  expect(duration).toBeGreaterThan(0);
  await page.locator('#sinew-time').fill(String(duration / 2));
  const atHalf = await grid(page);
  expect(await page.evaluate(() => window.sinew!.state().time)).toBeCloseTo(duration / 2, 2);
  await expect(page.locator('#sinew-time-readout')).toContainText((duration / 2).toFixed(2));
  expect(gridDistance(atZero, atHalf)).toBeGreaterThan(0.2);

  // The rest pose is a different picture from the clip.
  await page.locator('#sinew-clip').selectOption('(rest pose)');
  expect(await page.evaluate(() => window.sinew!.state().clipIndex)).toBe(-1);
  const rest = await grid(page);
  expect(gridDistance(atHalf, rest)).toBeGreaterThan(0.2);
});

test('choosing another glTF clip changes the picture (Fox: Survey vs Run)', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page, '?model=/shared/assets/gltf/Fox.glb&clip=Survey&time=0.5');
  await expect(page.locator('#sinew-clip option')).toHaveText(['(rest pose)', 'Survey', 'Walk', 'Run']);
  const survey = await grid(page);
  await page.locator('#sinew-clip').selectOption({ label: 'Run' });
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.clip).toBe('Run');
  expect(state.time).toBeCloseTo(0.5, 6); // paused: the time stays
  expect(gridDistance(survey, await grid(page))).toBeGreaterThan(0.2);
});

test('a bad file shows the loader error and the previous model keeps playing', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page);
  const before = await page.evaluate(() => window.sinew!.state());

  // A text file renamed .glb, through the Open… file input (the same path as a drop).
  await page.locator('#sinew-file').setInputFiles({
    name: 'not-a-model.glb',
    mimeType: 'model/gltf-binary',
    buffer: Buffer.from('this is a text file, not a binary glTF\n'),
  });
  await page.waitForFunction(() => window.sinew!.state().error !== null);
  const banner = page.locator('#sinew-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('data-kind', 'error');
  await expect(banner).toContainText('not-a-model.glb');

  const after = await page.evaluate(() => window.sinew!.state());
  expect(after.model).toBe(before.model);
  expect(after.playing).toBe(true);
  expect(after.error).toContain('not-a-model.glb');
  await expect(page.locator('#sinew-model')).toHaveText(before.model);

  // Still animating: frames advance time and draw the model.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  const t0 = await page.evaluate(() => window.sinew!.state().time);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction((t) => window.sinew!.state().time !== t, t0);
  expect(await page.evaluate(() => window.sinew!.coverage())).toBeGreaterThan(0.02);

  // The same through loadUrl with a data: URL, and a file type nobody reads.
  const ok = await page.evaluate(() => window.sinew!.loadUrl('data:application/octet-stream;base64,AAECAwQFBgc=', 'broken.glb'));
  expect(ok).toBe(false);
  expect(await page.evaluate(() => window.sinew!.state().error)).toContain('broken.glb');
  await page.evaluate(() => window.sinew!.loadUrl('data:text/plain,hello', 'notes.txt'));
  expect(await page.evaluate(() => window.sinew!.state().error)).toMatch(/notes\.txt: unsupported file type/);
  expect((await page.evaluate(() => window.sinew!.state())).model).toBe(before.model);

  // Dismissing the banner hides it.
  await page.locator('.sinew-banner-close').click();
  await expect(banner).toBeHidden();
  expect(errors).toEqual([]);
});

/** Dispatches a drop of the given files (name, base64 bytes) on the page, as a user dragging them in would. */
async function dropFiles(page: Page, files: { name: string; base64: string }[]): Promise<void> {
  await page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], f.name));
    }
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
}

test('dropping a .gltf with its .bin loads it; the .gltf alone names the missing file', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page);
  const dir = `${SHARED_ASSETS}/conformance/glTF-Asset-Generator/Animation_Skin`;
  const gltf = { name: 'Animation_Skin_01.gltf', base64: readFileSync(`${dir}/Animation_Skin_01.gltf`).toString('base64') };
  const bin = { name: 'Animation_Skin_01.bin', base64: readFileSync(`${dir}/Animation_Skin_01.bin`).toString('base64') };

  await dropFiles(page, [gltf]);
  await page.waitForFunction(() => window.sinew!.state().error !== null);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.error).toContain('Animation_Skin_01.bin');
  expect(state.model.toLowerCase()).toContain('octopus');

  await dropFiles(page, [bin, gltf]);
  await page.waitForFunction(() => window.sinew!.state().model === 'Animation_Skin_01.gltf');
  expect(await page.evaluate(() => window.sinew!.state().error)).toBeNull();
  await expect(page.locator('#sinew-banner')).toBeHidden();
  expect(await page.evaluate(() => window.sinew!.coverage())).toBeGreaterThan(0.01);
  expect(errors).toEqual([]);
});

test('a good model replaces the current one; ?palette=texture is honoured', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page, '?palette=texture');
  expect(await page.evaluate(() => window.sinew!.state().palettePath)).toBe('texture');
  await expect(page.locator('#sinew-palette')).toHaveAttribute('data-path', 'texture');
  await expect(page.locator('#sinew-palette')).toHaveText('joint matrices in a float texture');
  const ok = await page.evaluate(() => window.sinew!.loadUrl('/shared/assets/gltf/CesiumMan.glb'));
  expect(ok).toBe(true);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('CesiumMan.glb');
  expect(state.palettePath).toBe('texture');
  expect(state.error).toBeNull();
  await expect(page.locator('#sinew-model')).toHaveText('CesiumMan.glb');
  expect(await page.evaluate(() => window.sinew!.coverage())).toBeGreaterThan(0.02);
});

test('a .gltf with external buffers loads with its files fetched relative to it', async ({ page }) => {
  requireSharedAssets();
  const errors = collectErrors(page);
  await openViewer(page, '?model=/shared/assets/conformance/glTF-Asset-Generator/Animation_Skin/Animation_Skin_01.gltf&time=0.5');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('Animation_Skin_01.gltf');
  expect(state.error).toBeNull();
  expect(await page.evaluate(() => window.sinew!.coverage())).toBeGreaterThan(0.01);
  expect(errors).toEqual([]);
});

test('camera URL parameters and setCamera give a fixed view', async ({ page }) => {
  await openViewer(page, '?time=0.5&yaw=90&pitch=30&distance=2');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.camera.yaw).toBeCloseTo(90, 4);
  expect(state.camera.pitch).toBeCloseTo(30, 4);
  expect(state.camera.distance).toBeCloseTo(2, 4);
  const far = await page.evaluate(() => window.sinew!.coverage());
  await page.evaluate(() => window.sinew!.setCamera({ distance: 1 }));
  const near = await page.evaluate(() => window.sinew!.coverage());
  // Twice as far covers roughly a quarter of the pixels.
  expect(near).toBeGreaterThan(2.5 * far);
  // Dragging orbits the camera.
  const box = (await page.locator('#sinew-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  expect(await page.evaluate(() => window.sinew!.state().camera.yaw)).toBeLessThan(80);
});

test('survives WebGL context loss and restores the model', async ({ page }) => {
  await openViewer(page, '?time=0.5');
  const before = await grid(page);
  const lost = await page.evaluate(() => {
    const gl = (document.getElementById('sinew-canvas') as HTMLCanvasElement).getContext('webgl2')!;
    const ext = gl.getExtension('WEBGL_lose_context');
    ext?.loseContext();
    (window as unknown as { __loseExt: unknown }).__loseExt = ext;
    return ext !== null;
  });
  expect(lost).toBe(true);
  await page.waitForFunction(() => window.sinew!.state().contextLost);
  await expect(page.locator('#sinew-banner')).toContainText('context was lost');
  await page.evaluate(() => (window as unknown as { __loseExt: WEBGL_lose_context }).__loseExt.restoreContext());
  await page.waitForFunction(() => !window.sinew!.state().contextLost && window.sinew!.state().palettePath !== null);
  await page.waitForFunction(() => window.sinew!.coverage() > 0.02);
  expect(gridDistance(before, await grid(page))).toBeLessThan(0.5);
});

test('the panel links to the docs site and the gallery (at /site/ under the dev server); the sample list says where its models come from and lists only those there', async ({ page }) => {
  requireSharedAssets();
  // Fox.glb made absent: the probe must hide it; every other shared model is there.
  await page.route('**/shared/assets/gltf/Fox.glb', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await openViewer(page);
  await expect(page.locator('#sinew-links a')).toHaveText(['Docs', 'Examples']);
  expect(await page.locator('#sinew-links a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['/site/', '/site/examples/']);
  await expect(page.locator('#sinew-sample-source')).toContainText('../shared/assets');

  const select = page.locator('select#sinew-sample[data-probed]');
  await expect(select).toBeAttached();
  const options = await select.locator('option').allTextContents();
  expect(options).toEqual(['Octopus (built-in)', 'VRM avatar (generated)', 'VRM avatar, toon (generated)', 'CesiumMan.glb', 'RiggedFigure.glb', 'RiggedSimple.glb', 'SimpleSkin.gltf',
    'RecursiveSkeletons.glb', 'InterpolationTest.glb', 'quad_skin.glb', 'Bob.md5mesh', 'SimpleCube.md5mesh']);

  // The help dialog links to the same places.
  await page.locator('#sinew-canvas').focus();
  await page.keyboard.press('?');
  expect(await page.locator('#sinew-help a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['/site/', '/site/examples/']);

  // /site/ is the built site, or, while there is none, a page saying how to build it.
  const site = await page.request.get('/site/');
  if (site.status() === 404) expect(await site.text()).toContain('npm run docs');
  else expect(site.headers()['content-type']).toContain('text/html');
});

test('a model URL that is not there is named whole in the banner, however long', async ({ page }) => {
  const path = `/no/such/${'a-rather-long-folder-name/'.repeat(12)}Fox.glb?signature=${'0123456789abcdef'.repeat(6)}`;
  await page.goto(`/?model=${encodeURIComponent(path)}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 120_000 });
  const banner = page.locator('#sinew-banner');
  await expect(banner).toHaveAttribute('data-kind', 'error');
  const text = await banner.locator('.sinew-banner-text').textContent();
  expect(text).toContain(`${new URL(page.url()).origin}${path}`);
});
