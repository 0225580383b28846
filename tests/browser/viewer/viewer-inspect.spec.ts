import { test, expect, type Page } from '@playwright/test';
import { isolateFromLiveReload, requireSharedAssets, collectErrors, openViewer, grid, gridDistance } from '../helpers/viewer-page.ts';

// The viewer as an inspection tool (issue 14): the lil-gui panel's folders and every control, the debug views
// (skeleton with hover and selection, weight heat map, influence count, wireframe, bounds, normals, bind pose,
// CPU vertices), the GPU-vs-CPU readout on every shared model and against a deliberately wrong palette, the
// frame statistics, framing clear of the panel, screenshot, help, keyboard shortcuts, layers and touch.

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const CESIUM = '/shared/assets/gltf/CesiumMan.glb';
/** CesiumMan's right upper arm (the joint its right shoulder rotates). */
const UPPER_ARM = 'Skeleton_arm_joint_R';

/** A lil-gui controller row of the panel by its `data-control` name. */
const control = (page: Page, name: string) => page.locator(`#sinew-panel [data-control="${name}"]`);

async function openCesium(page: Page, query = ''): Promise<void> {
  requireSharedAssets();
  await openViewer(page, `?model=${CESIUM}&time=0.5&yaw=30&pitch=10${query}`);
}

test('the panel groups its controls in Model, Animation, Skinning, View and Stats; ui=0 hides it', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page);
  const titles = await page.locator('#sinew-panel .lil-title').allTextContents();
  for (const folder of ['Model', 'Animation', 'Skinning', 'View', 'Stats']) expect(titles).toContain(folder);
  // Plain words, not jargon: the palette path says what it is.
  await expect(page.locator('#sinew-palette')).toContainText('joint matrices');
  await expect(page.locator('#sinew-panel')).not.toContainText('palette uniform');
  await openViewer(page, '?ui=0');
  await expect(page.locator('#sinew-panel')).toBeHidden();
  expect(errors).toEqual([]);
});

test('the default view is three-quarter, framed on the whole animation and clear of the panel', async ({ page }) => {
  await openViewer(page, '?time=0.5');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.camera.yaw).toBeCloseTo(35, 6);
  expect(state.camera.pitch).toBeCloseTo(15, 6);
  // Nothing of the model is drawn under the panel: every grid cell in its columns is background.
  const panel = (await page.locator('#sinew-panel').boundingBox())!;
  const canvas = (await page.locator('#sinew-canvas').boundingBox())!;
  const cols = 32, rows = 24;
  const stats = (await page.evaluate(({ cols, rows }) => window.sinew!.inspectFrame(cols, rows), { cols, rows }))!;
  const background = stats.grid[0];
  const firstCol = Math.floor(((panel.x - canvas.x) / canvas.width) * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = firstCol; c < cols; c++) expect(Math.abs(stats.grid[r * cols + c] - background)).toBeLessThan(1);
  }
  expect(stats.coverage).toBeGreaterThan(0.02);
  // Hiding the panel (G) centres the model in the whole canvas again: the picture moves.
  const before = stats.grid;
  await page.locator('#sinew-canvas').focus();
  await page.keyboard.press('g');
  await expect(page.locator('#sinew-panel')).toBeHidden();
  await expect.poll(async () => gridDistance(before, await grid(page))).toBeGreaterThan(0.5);
});

test('golden: skeleton overlay on CesiumMan, joints and bones over the mesh, the selected joint marked', async ({ page }) => {
  const errors = collectErrors(page);
  await openCesium(page, '&ui=0');
  const plain = await grid(page);
  await page.evaluate(() => window.sinew!.setView({ skeleton: true }));
  expect(await page.evaluate((name) => window.sinew!.selectJoint(name), UPPER_ARM)).toBeGreaterThanOrEqual(0);
  expect(gridDistance(plain, await grid(page))).toBeGreaterThan(0.1);
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('skeleton-cesium-man.png', { maxDiffPixelRatio: 0.001 });
  expect(errors).toEqual([]);
});

test('golden: weight heat map of CesiumMan\'s upper arm; the influence count view', async ({ page }) => {
  const errors = collectErrors(page);
  await openCesium(page, '&ui=0');
  await page.evaluate((name) => window.sinew!.selectJoint(name), UPPER_ARM);
  await page.evaluate(() => window.sinew!.setView({ surface: 'weights' }));
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('weights-cesium-man-upper-arm.png', { maxDiffPixelRatio: 0.001 });
  const arm = await grid(page);
  // Another joint lights up elsewhere.
  await page.evaluate(() => window.sinew!.selectJoint('Skeleton_neck_joint_1'));
  expect(gridDistance(arm, await grid(page))).toBeGreaterThan(0.2);
  await page.evaluate(() => window.sinew!.setView({ surface: 'influences' }));
  expect(gridDistance(arm, await grid(page))).toBeGreaterThan(0.5);
  expect(errors).toEqual([]);
});

test('golden: wireframe of CesiumMan, edges skinned with the surface', async ({ page }) => {
  const errors = collectErrors(page);
  await openCesium(page, '&ui=0');
  const plain = await grid(page);
  await page.evaluate(() => window.sinew!.setView({ wireframe: true }));
  expect(gridDistance(plain, await grid(page))).toBeGreaterThan(0.2);
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('wireframe-cesium-man.png', { maxDiffPixelRatio: 0.001 });
  // Wireframe alone: no surface.
  await page.evaluate(() => window.sinew!.setView({ surface: 'none' }));
  const alone = await page.evaluate(() => window.sinew!.inspectFrame(8, 6));
  expect(alone!.coverage).toBeGreaterThan(0.005);
  expect(errors).toEqual([]);
});

test('every View control of the panel changes the picture; keyboard shortcuts toggle the same settings', async ({ page }) => {
  const errors = collectErrors(page);
  await openCesium(page);
  await page.evaluate((name) => window.sinew!.selectJoint(name), UPPER_ARM);
  const plain = await grid(page);
  for (const name of ['skeleton', 'wireframe', 'bounds', 'normals']) {
    const box = control(page, name).locator('input');
    await box.check();
    expect(gridDistance(plain, await grid(page)), name).toBeGreaterThan(0.05);
    await box.uncheck();
    expect(gridDistance(plain, await grid(page)), name).toBeLessThan(0.01);
  }
  for (const label of ['weights of the selected joint', 'influences per vertex', 'none (wireframe only)']) {
    await control(page, 'surface').locator('select').selectOption({ label });
    expect(gridDistance(plain, await grid(page)), label).toBeGreaterThan(0.2);
  }
  await control(page, 'surface').locator('select').selectOption({ label: 'lit' });
  expect(gridDistance(plain, await grid(page))).toBeLessThan(0.01);
  // The joint list selects too.
  await control(page, 'joint').locator('select').selectOption({ label: 'Skeleton_neck_joint_1' });
  expect(await page.evaluate(() => window.sinew!.state().model)).toBe('CesiumMan.glb');
  const neck = await page.evaluate(() => window.sinew!.selectedJoint());
  expect(await page.evaluate(() => window.sinew!.selectJoint('Skeleton_neck_joint_1'))).toBe(neck);

  // Shortcuts: K skeleton, W wireframe, H heat map, I influences, B bounds, N normals, C compare, V CPU vertices.
  await page.locator('#sinew-canvas').focus();
  const keys: [string, string, unknown][] = [
    ['k', 'skeleton', true], ['w', 'wireframe', true], ['b', 'bounds', true], ['n', 'normals', true],
    ['c', 'compare', true], ['v', 'cpuVertices', true], ['h', 'surface', 'weights'], ['i', 'surface', 'influences'],
  ];
  for (const [key, setting, value] of keys) {
    await page.keyboard.press(key);
    const settings = await page.evaluate(() => window.sinew!.setView({}));
    expect(settings[setting as keyof typeof settings], key).toBe(value);
  }
  await expect(control(page, 'skeleton').locator('input')).toBeChecked();
  expect(errors).toEqual([]);
});

test('hovering a joint names it; clicking it selects it for the heat map', async ({ page }) => {
  await openCesium(page);
  await page.evaluate(() => window.sinew!.setView({ skeleton: true }));
  const names = await page.evaluate(() => window.sinew!.state().model);
  expect(names).toBe('CesiumMan.glb');
  const joint = await page.evaluate((name) => window.sinew!.selectJoint(name), UPPER_ARM);
  await page.evaluate(() => window.sinew!.selectJoint(-1));
  const at = (await page.evaluate((j) => window.sinew!.jointOnScreen(j), joint))!;
  expect(at).not.toBeNull();
  await page.mouse.move(at.x, at.y);
  await expect(page.locator('#sinew-joint-tip')).toBeVisible();
  await expect(page.locator('#sinew-joint-tip')).toHaveText(UPPER_ARM);
  await page.mouse.down();
  await page.mouse.up();
  expect(await page.evaluate(() => window.sinew!.selectedJoint())).toBe(joint);
  await expect(control(page, 'joint').locator('select')).toHaveValue(UPPER_ARM);
  // Away from every joint the tip goes.
  await page.mouse.move(5, 5);
  await expect(page.locator('#sinew-joint-tip')).toBeHidden();
});

const PARITY_MODELS = [
  'gltf/CesiumMan.glb', 'gltf/Fox.glb', 'gltf/RiggedFigure.glb', 'gltf/RiggedSimple.glb', 'gltf/SimpleSkin.gltf',
  'gltf/RecursiveSkeletons.glb', 'gltf/quad_skin.glb', 'md5/Bob.md5mesh',
];

test('GPU vs CPU: the readout is ≤ 1e-5 × the diagonal on every shared model, LBS and DQS', async ({ page }) => {
  requireSharedAssets();
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  await openViewer(page, '?time=0.3');
  await page.locator('#sinew-panel .lil-title', { hasText: 'Skinning' }).click();
  const readings: Record<string, number> = {};
  for (const model of PARITY_MODELS) {
    expect(await page.evaluate((url) => window.sinew!.loadUrl(url), `/shared/assets/${model}`), model).toBe(true);
    await page.evaluate(() => window.sinew!.setTime(0.3));
    for (const skinning of ['lbs', 'dqs'] as const) {
      await control(page, 'skinning').locator('select').selectOption(skinning === 'lbs' ? 'linear blend (LBS)' : 'dual quaternion (DQS)');
      await page.waitForFunction((s) => window.sinew!.state().method.skinning === s, skinning);
      const reading = await page.evaluate(() => window.sinew!.compareNow());
      expect(reading, model).not.toBeNull();
      readings[`${model} ${skinning}`] = reading!.relative;
      expect(reading!.relative, `${model} ${skinning}`).toBeLessThanOrEqual(1e-5);
    }
    await control(page, 'skinning').locator('select').selectOption('linear blend (LBS)');
  }
  console.log(`max |GPU − CPU| / diagonal: ${JSON.stringify(readings)}`);
  expect(errors).toEqual([]);
});

test('GPU vs CPU: the readout reacts to a deliberately wrong palette; the panel shows it', async ({ page }) => {
  const errors = collectErrors(page);
  await openCesium(page);
  await control(page, 'compare').locator('input').check();
  // The live readout: the frame loop measures (at most twice a second) and the panel shows it.
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-parity')).toHaveAttribute('data-relative', /^\d/);
  const live = Number(await page.locator('#sinew-parity').getAttribute('data-relative'));
  expect(live).toBeLessThanOrEqual(1e-5);
  const good = (await page.evaluate(() => window.sinew!.compareNow()))!;
  expect(good.relative).toBeLessThanOrEqual(1e-5);
  await expect(page.locator('#sinew-parity')).not.toHaveClass(/sinew-bad/);
  await page.evaluate(() => window.sinew!.injectPaletteError(0.01));
  const bad = (await page.evaluate(() => window.sinew!.compareNow()))!;
  expect(bad.maxError).toBeGreaterThan(0.009);
  expect(bad.relative).toBeGreaterThan(1e-3);
  await expect(page.locator('#sinew-parity')).toHaveClass(/sinew-bad/);
  await expect(page.locator('#sinew-parity')).toContainText('e-2');
  await page.evaluate(() => window.sinew!.injectPaletteError(0));
  expect((await page.evaluate(() => window.sinew!.compareNow()))!.relative).toBeLessThanOrEqual(1e-5);
  expect(errors).toEqual([]);
});

test('GPU vs CPU: the readout waits on a fence before reading back, so Chromium reports no pipeline stall', async ({ page }) => {
  const errors = collectErrors(page);
  const stalls: string[] = [];
  page.on('console', (msg) => {
    if (/fence|pipeline stall|too many errors/i.test(msg.text())) stalls.push(msg.text());
  });
  await openCesium(page);
  await control(page, 'compare').locator('input').check();
  // Live readouts over several frames (one at most every half second: frames are stepped until each lands, counted
  // by the readout's writes), then on demand, a wrong palette among them.
  await page.evaluate(() => {
    const counter = window as unknown as { __readouts: number };
    counter.__readouts = 0;
    new MutationObserver((records) => (counter.__readouts += records.length))
      .observe(document.getElementById('sinew-parity')!, { attributes: true, attributeFilter: ['data-relative'] });
  });
  for (let k = 1; k <= 4; k++) {
    await expect.poll(() => page.evaluate(() => {
      window.sinew!.step(1 / 60);
      return (window as unknown as { __readouts: number }).__readouts;
    }), { timeout: 30_000 }).toBeGreaterThanOrEqual(k);
  }
  await page.evaluate(() => window.sinew!.step(1 / 60));
  await expect(page.locator('#sinew-parity')).toHaveAttribute('data-relative', /^\d/);
  for (const offset of [0, 0.01, 0]) {
    await page.evaluate((o) => window.sinew!.injectPaletteError(o), offset);
    const reading = (await page.evaluate(() => window.sinew!.compareNow()))!;
    if (offset === 0) expect(reading.relative).toBeLessThanOrEqual(1e-5);
    else expect(reading.relative).toBeGreaterThan(1e-3);
  }
  expect(stalls).toEqual([]);
  expect(errors).toEqual([]);
});

test('drawing the CPU reference vertices gives the same picture as the shader\'s, in bind pose too', async ({ page }) => {
  const errors = collectErrors(page);
  await openCesium(page, '&ui=0');
  const gpu = await grid(page);
  await page.evaluate(() => window.sinew!.setView({ cpuVertices: true }));
  expect(gridDistance(gpu, await grid(page))).toBeLessThan(0.05);
  await page.evaluate(() => window.sinew!.setView({ cpuVertices: false, bindPose: true }));
  const bind = await grid(page);
  expect(gridDistance(gpu, bind)).toBeGreaterThan(0.2);
  expect((await page.evaluate(() => window.sinew!.compareNow()))!.relative).toBeLessThanOrEqual(1e-5);
  await page.evaluate(() => window.sinew!.setView({ cpuVertices: true }));
  expect(gridDistance(bind, await grid(page))).toBeLessThan(0.05);
  expect(errors).toEqual([]);
});

test('Stats: frame rate and times, draw calls, joints, vertices and palette bytes per frame', async ({ page }) => {
  await openCesium(page);
  const stats = await page.evaluate(() => window.sinew!.measureFrames(20));
  expect(stats).toMatchObject({ drawCalls: 1, joints: 19, vertices: 3273, paletteBytes: 19 * 3 * 16 });
  expect(stats.fps).toBeGreaterThan(0);
  expect(stats.poseMs).toBeGreaterThan(0);
  // Palette upload and draw calls are two figures. The page's clock is too coarse to time a 19-joint upload,
  // so a clock that ticks 1 ms per reading shows what is timed: one palette upload per frame (CesiumMan has one
  // skinned primitive), inside the draw but not counted in the draw calls' figure.
  const ticking = (frames: number) => page.evaluate((frames) => {
    const now = performance.now;
    let t = 0;
    performance.now = () => ++t;
    try {
      return window.sinew!.measureFrames(frames);
    } finally {
      performance.now = now;
    }
  }, frames);
  const ticked = await ticking(10);
  expect(ticked.uploadMs).toBe(1);
  expect(ticked.drawMs).toBeGreaterThanOrEqual(1);
  // A model without skins uploads no palette.
  expect(await page.evaluate(() => window.sinew!.loadUrl('/shared/assets/gltf/SimpleMorph.gltf'))).toBe(true);
  const rigid = await ticking(5);
  expect(rigid.uploadMs).toBe(0);
  expect(rigid.drawMs).toBeGreaterThanOrEqual(1);
  await openCesium(page);
  await page.evaluate(() => window.sinew!.play());
  await expect(page.locator('#sinew-stats')).toContainText('fps', { timeout: 10_000 });
  await expect(page.locator('#sinew-stats')).toContainText(/pose \(CPU, matrices: WebAssembly SIMD\) \d+\.\d\d ms/);
  await expect(page.locator('#sinew-stats')).toContainText(/palette upload \d+\.\d\d ms\ndraw calls \d+\.\d\d ms/);
  await expect(page.locator('#sinew-stats')).toContainText('1 draw calls · 19 joints');
  await expect(page.locator('#sinew-stats')).toContainText('3273 vertices · palette 912 B / frame');
});

test('screenshot: a PNG of the canvas at 2× its size, and the panel button downloads one', async ({ page }) => {
  await openCesium(page);
  const size = await page.evaluate(async () => {
    const url = window.sinew!.screenshot(2)!;
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.getElementById('sinew-canvas') as HTMLCanvasElement;
    return { width: image.width, height: image.height, canvasWidth: canvas.width, canvasHeight: canvas.height, png: url.startsWith('data:image/png') };
  });
  expect(size.png).toBe(true);
  expect(size.width).toBe(2 * size.canvasWidth);
  expect(size.height).toBe(2 * size.canvasHeight);
  const download = page.waitForEvent('download');
  await control(page, 'screenshot').locator('button').click();
  expect((await download).suggestedFilename()).toBe('CesiumMan.png');
});

test('help lists the keyboard shortcuts (? opens, Esc closes); the fullscreen button asks for fullscreen', async ({ page }) => {
  await openViewer(page);
  await page.locator('#sinew-canvas').focus();
  await page.keyboard.press('?');
  const help = page.locator('#sinew-help');
  await expect(help).toBeVisible();
  await expect(help).toContainText('skeleton');
  await expect(help).toContainText('save a screenshot');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await control(page, 'help').locator('button').click();
  await expect(help).toBeVisible();
  await help.click();
  await expect(help).toBeHidden();
  await control(page, 'fullscreen').locator('button').click();
  await page.waitForFunction(() => document.fullscreenElement !== null);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.fullscreenElement === null);
});

test('Animation: layering a second clip with a weight blends it in; key markers sit under the time slider', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page, '?model=/shared/assets/gltf/Fox.glb&clip=Survey&time=0.5');
  await expect(page.locator('#sinew-key-markers span').first()).toBeAttached();
  expect(await page.locator('#sinew-key-markers span').count()).toBeGreaterThan(5);
  const survey = await grid(page);
  await page.locator('#sinew-panel .lil-title', { hasText: 'Layers' }).click();
  const run = control(page, 'layer-2');
  await run.locator('input').fill('1');
  await page.evaluate(() => window.sinew!.renderOnce());
  const layered = await grid(page);
  expect(gridDistance(survey, layered)).toBeGreaterThan(0.2);
  // Limited to one leg's subtree, the Run layer moves that leg only: a third picture, between the two.
  const leg = await page.evaluate(() => window.sinew!.selectJoint('b_RightLeg01_019'));
  expect(leg).toBeGreaterThanOrEqual(0);
  await control(page, 'layer-mask').locator('input').check();
  await page.evaluate(() => window.sinew!.renderOnce());
  const masked = await grid(page);
  expect(gridDistance(masked, layered)).toBeGreaterThan(0.1);
  expect(gridDistance(masked, survey)).toBeGreaterThan(0.02);
  await control(page, 'layer-mask').locator('input').uncheck();
  await page.evaluate(() => window.sinew!.renderOnce());
  expect(gridDistance(layered, await grid(page))).toBeLessThan(0.01);
  await run.locator('input').fill('0');
  await page.evaluate(() => window.sinew!.renderOnce());
  expect(gridDistance(survey, await grid(page))).toBeLessThan(0.01);
});

test('Model: the sample list and the URL field open models', async ({ page }) => {
  requireSharedAssets();
  await openViewer(page);
  await control(page, 'sample').locator('select').selectOption({ label: 'CesiumMan.glb' });
  await page.waitForFunction(() => window.sinew!.state().model === 'CesiumMan.glb');
  await control(page, 'url').locator('input').fill('/shared/assets/gltf/Fox.glb');
  await control(page, 'url').locator('input').press('Enter');
  await page.waitForFunction(() => window.sinew!.state().model === 'Fox.glb');
  // The list names the model shown (a sample opened by URL too), and nothing for a model it does not offer.
  await expect(control(page, 'sample').locator('select')).toHaveValue('Fox.glb');
  await control(page, 'url').locator('input').fill('/shared/assets/gltf/SimpleMorph.gltf');
  await control(page, 'url').locator('input').press('Enter');
  await page.waitForFunction(() => window.sinew!.state().model === 'SimpleMorph.gltf');
  await expect(control(page, 'sample').locator('select')).toHaveValue('');
  await control(page, 'sample').locator('select').selectOption({ label: 'Octopus (built-in)' });
  await page.waitForFunction(() => window.sinew!.state().model.includes('octopus'));
  // The generated VRM avatar is built in the page and opened as a file; the list keeps naming it.
  await control(page, 'sample').locator('select').selectOption({ label: 'VRM avatar (generated)' });
  await page.waitForFunction(() => /^generated-avatar\.(vrm|glb)$/.test(window.sinew!.state().model), undefined, { timeout: 60_000 });
  await expect(control(page, 'sample').locator('select')).toHaveValue('VRM avatar (generated)');
});

test('each loader warning is reported once: listed in the panel, counted (not repeated) in the banner', async ({ page }) => {
  const errors = collectErrors(page);
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await openViewer(page, '?clip=nosuchclip');
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.clip).toBe('swim');
  await expect(page.locator('#sinew-warnings li')).toHaveCount(1);
  await expect(page.locator('#sinew-warnings li')).toContainText('no clip "nosuchclip"');
  await expect(page.locator('#sinew-banner')).toContainText('1 loader warning (listed in the panel)');
  await expect(page.locator('#sinew-banner')).not.toContainText('nosuchclip');
  expect(warnings.filter((w) => w.includes('nosuchclip')).length).toBeLessThanOrEqual(1);
  expect(errors).toEqual([]);
});

test.describe('touch', () => {
  test.use({ hasTouch: true });

  test('two fingers pinch to zoom and move together to pan', async ({ page }) => {
    await openViewer(page, '?time=0.5');
    const box = (await page.locator('#sinew-canvas').boundingBox())!;
    const cx = box.x + box.width / 3, cy = box.y + box.height / 2;
    const client = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: { x: number; y: number }[]) =>
      client.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ ...p, id })) });
    const before = await page.evaluate(() => window.sinew!.state().camera.distance);
    await touch('touchStart', [{ x: cx - 20, y: cy }, { x: cx + 20, y: cy }]);
    for (let k = 1; k <= 5; k++) await touch('touchMove', [{ x: cx - 20 - 12 * k, y: cy }, { x: cx + 20 + 12 * k, y: cy }]);
    await touch('touchEnd', []);
    const zoomed = await page.evaluate(() => window.sinew!.state().camera.distance);
    // Fingers spread from 40 to 160 px: the distance shrinks by about 4.
    expect(zoomed).toBeLessThan(before / 3);
    const g0 = await grid(page);
    await touch('touchStart', [{ x: cx - 20, y: cy }, { x: cx + 20, y: cy }]);
    for (let k = 1; k <= 5; k++) await touch('touchMove', [{ x: cx - 20 + 10 * k, y: cy }, { x: cx + 20 + 10 * k, y: cy }]);
    await touch('touchEnd', []);
    expect(await page.evaluate(() => window.sinew!.state().camera.distance)).toBeCloseTo(zoomed, 6);
    expect(gridDistance(g0, await grid(page))).toBeGreaterThan(0.2);
  });
});
