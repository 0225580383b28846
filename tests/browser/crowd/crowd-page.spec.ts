import { expect, test } from '@playwright/test';

// The crowd demo page (crowd.html): URL parameters n / mode / model / skinning / weights / rootMotion / blend, the readout, and a drawn crowd.

test('crowd.html names a model that fails to load', async ({ page }) => {
  await page.goto('/crowd.html?model=/no/such/model.glb');
  await expect(page.locator('#crowd-readout.error')).toContainText('model.glb', { timeout: 30_000 });
  console.log(await page.locator('#crowd-readout').textContent());
});

test('crowd.html draws the worm crowd, live then baked, 10 000 of them, and reports fps and draw calls', async ({ page }) => {
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  await page.goto('/crowd.html?n=64&mode=live');
  const readout = page.locator('#crowd-readout');
  await expect(readout).toContainText('64 instances, live', { timeout: 60_000 });
  await expect(readout).toContainText(/\d+(\.\d)? fps, frame \d+\.\d\d ms/);
  await expect(readout).toContainText('1 draw call,');
  const text = await readout.textContent();
  console.log(text);
  // The URL keeps the settings (shareable).
  expect(new URL(page.url()).searchParams.get('n')).toBe('64');
  await page.goto('/crowd.html?n=10000&mode=baked');
  await expect(readout).toContainText('10000 instances, baked', { timeout: 120_000 });
  console.log(await readout.textContent());
});

test('crowd.html skins the crowd with the skinning method of its URL, and keeps it in the URL', async ({ page }) => {
  page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
  await page.goto('/crowd.html?n=16&mode=baked&skinning=dqs&weights=as-stored');
  const readout = page.locator('#crowd-readout');
  await expect(readout).toContainText('16 instances, baked, dqs/as-stored', { timeout: 60_000 });
  await expect(readout).toContainText(/\d+(\.\d)? fps/);
  const url = new URL(page.url());
  expect([url.searchParams.get('skinning'), url.searchParams.get('weights')]).toEqual(['dqs', 'as-stored']);
  // An unknown value falls back to the default.
  await page.goto('/crowd.html?n=16&skinning=bogus');
  await expect(readout).toContainText('16 instances, live, lbs/normalize', { timeout: 60_000 });
});

test('crowd.html plays the crowd with the root motion of its URL, and keeps it in the URL', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/crowd.html?n=16&mode=baked&model=fox&rootMotion=applied');
  const readout = page.locator('#crowd-readout');
  await expect(readout).toContainText('16 instances, baked, lbs/normalize, root motion applied', { timeout: 90_000 });
  await expect(readout).toContainText(/\d+(\.\d)? fps/);
  expect(new URL(page.url()).searchParams.get('rootMotion')).toBe('applied');
  // An unknown value falls back to off (nothing said).
  await page.goto('/crowd.html?n=16&rootMotion=bogus');
  await expect(readout).toContainText('16 instances, live, lbs/normalize', { timeout: 60_000 });
  await expect(readout).not.toContainText('root motion');
  expect(new URL(page.url()).searchParams.get('rootMotion')).toBe('off');
  expect(errors).toEqual([]);
});

test('crowd.html blends the next clip into every instance at the weight of its URL, live and baked, and keeps it in the URL', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const readout = page.locator('#crowd-readout');
  for (const mode of ['live', 'baked']) {
    await page.goto(`/crowd.html?n=16&mode=${mode}&blend=0.5`);
    await expect(readout).toContainText(`16 instances, ${mode}, lbs/normalize, next clip blended at 0.5`, { timeout: 60_000 });
    await expect(readout).toContainText(/\d+(\.\d)? fps[^]*16 drawn after culling/);
    expect(new URL(page.url()).searchParams.get('blend')).toBe('0.5');
  }
  // Clamped to [0, 1]; not a number: none.
  await page.goto('/crowd.html?n=16&blend=7');
  await expect(readout).toContainText('16 instances, live, lbs/normalize, next clip blended at 1', { timeout: 60_000 });
  await page.goto('/crowd.html?n=16&blend=bogus');
  await expect(readout).toContainText(/16 instances, live, lbs\/normalize\n/, { timeout: 60_000 });
  expect(new URL(page.url()).searchParams.get('blend')).toBe('0');
  expect(errors).toEqual([]);
});

test('crowd.html survives a lost WebGL context: it says so, then draws the same crowd again once restored', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/crowd.html?n=25&mode=baked&model=octopus');
  const readout = page.locator('#crowd-readout');
  await expect(readout).toContainText(/25 instances, baked[^]*fps/, { timeout: 60_000 });
  await page.evaluate(() => {
    const gl = (document.querySelector('canvas') as HTMLCanvasElement).getContext('webgl2')!;
    (window as unknown as { loseContext: WEBGL_lose_context }).loseContext = gl.getExtension('WEBGL_lose_context')!;
    (window as unknown as { loseContext: WEBGL_lose_context }).loseContext.loseContext();
  });
  await expect(readout).toHaveText('WebGL context lost; waiting for the browser to restore it…');
  await page.evaluate(() => (window as unknown as { loseContext: WEBGL_lose_context }).loseContext.restoreContext());
  await expect(readout).toContainText(/25 instances, baked[^]*fps[^]*25 drawn after culling/, { timeout: 60_000 });
  // Pixels again: the crowd is on the canvas (the octopus's red skin), not a cleared frame.
  const shot = (await page.locator('canvas').screenshot()).toString('base64');
  const covered = await page.evaluate(async (png) => {
    const image = new Image();
    image.src = `data:image/png;base64,${png}`;
    await image.decode();
    const ctx = Object.assign(document.createElement('canvas'), { width: image.width, height: image.height }).getContext('2d')!;
    ctx.drawImage(image, 0, 0);
    const data = ctx.getImageData(0, 0, image.width, image.height).data;
    let lit = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 120 && data[i] > data[i + 2] + 40) lit++;
    return lit;
  }, shot);
  expect(covered).toBeGreaterThan(200);
  expect(errors).toEqual([]);
});

test('crowd.html arms every instance with the built-in sword (sword=1), and keeps it in the URL', async ({ page }, info) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/crowd.html?n=9&mode=live&model=octopus&sword=1');
  const readout = page.locator('#crowd-readout');
  await expect(readout).toContainText('octopus (built-in) with sword: 9 instances, live', { timeout: 60_000 });
  await expect(readout).toContainText(/\d+(\.\d)? fps/);
  // One draw per primitive whatever the count: the octopus's 3 and the sword's 3.
  await expect(readout).toContainText('6 draw calls,');
  expect(new URL(page.url()).searchParams.get('sword')).toBe('1');
  await page.locator('#crowd-canvas').screenshot({ path: info.outputPath('crowd-page-swords.png') });
  await page.goto('/crowd.html?n=9&mode=baked&model=octopus');
  await expect(readout).toContainText('octopus (built-in): 9 instances, baked', { timeout: 60_000 });
  await expect(readout).toContainText('3 draw calls,');
  expect(new URL(page.url()).searchParams.get('sword')).toBe('0');
  expect(errors).toEqual([]);
});
