import { expect, test, type Page } from '@playwright/test';
import { collectErrors, grid, gridDistance, isolateFromLiveReload, openViewer } from '../helpers/viewer-page.ts';
import { greenCubeGlb } from '../helpers/green-cube-glb.ts';

// The viewer's props: the panel's Attachments folder (the built-in sword on the selected joint, or the
// deepest joint) and the drop rule (Alt: a prop; Shift: a prop when the model file has no clips).

async function dropFiles(page: Page, files: { name: string; base64: string }[], keys: { shiftKey?: boolean; altKey?: boolean }): Promise<void> {
  await page.evaluate(({ files, keys }) => {
    const transfer = new DataTransfer();
    for (const f of files) transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true, ...keys }));
  }, { files, keys });
}

const attachments = (page: Page) => page.evaluate(() => window.sinew!.attachments());
const banner = (page: Page) => page.locator('#sinew-banner').textContent();

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  await openViewer(page, '?time=0.5');
});

test('the panel attaches the built-in sword to the deepest joint when none is selected, then to the selected one', async ({ page }, info) => {
  const errors = collectErrors(page);
  const before = await grid(page);
  await page.evaluate(() => (document.querySelector('[data-control="attach-sword"] button') as HTMLElement).click());
  await expect.poll(() => attachments(page)).toEqual([{ prop: 'sword', joint: 'tentacle0_5' }]);
  expect(await banner(page)).toContain('sword attached to tentacle0_5');
  await page.locator('#sinew-canvas').screenshot({ path: info.outputPath('viewer-sword.png') });
  expect(gridDistance(before, await grid(page))).toBeGreaterThan(0.1);
  await page.evaluate(() => window.sinew!.selectJoint(0));
  await page.evaluate(() => (document.querySelector('[data-control="attach-sword"] button') as HTMLElement).click());
  await expect.poll(() => attachments(page)).toEqual([{ prop: 'sword', joint: 'tentacle0_5' }, { prop: 'sword', joint: 'head' }]);
  await page.evaluate(() => (document.querySelector('[data-control="attach-clear"] button') as HTMLElement).click());
  await expect.poll(() => attachments(page)).toEqual([]);
  expect(gridDistance(before, await grid(page))).toBeLessThan(0.05);
  expect(errors).toEqual([]);
});

test('a model file dropped with Alt, or with Shift when it has no clips, goes on the selected joint; another model drops it with a warning', async ({ page }) => {
  const cube = { name: 'cube.glb', base64: Buffer.from(greenCubeGlb(0.1)).toString('base64') };
  await page.evaluate(() => window.sinew!.selectJoint(0));
  await dropFiles(page, [cube], { altKey: true });
  await expect.poll(() => attachments(page)).toEqual([{ prop: 'cube.glb', joint: 'head' }]);
  await dropFiles(page, [cube], { shiftKey: true });
  await expect.poll(() => attachments(page)).toHaveLength(2);
  expect(await page.evaluate(() => window.sinew!.state().model)).toContain('octopus');
  // The octopus again, its joints renamed: "head" is gone.
  await dropFiles(page, [{ name: 'other.glb', base64: Buffer.from(greenCubeGlb(0.3)).toString('base64') }], {});
  await page.waitForFunction(() => window.sinew!.state().model === 'other.glb');
  await page.evaluate(() => window.sinew!.renderOnce());
  expect(await attachments(page)).toEqual([]);
  expect(await banner(page)).toContain('cube.glb: dropped, other.glb has no joint "head" to hold it');
});
