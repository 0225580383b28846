import { expect, test } from '@playwright/test';

// The crowd demo page (crowd.html): URL parameters n / mode / model / skinning / weights, the readout, and a drawn crowd.

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
