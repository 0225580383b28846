import { expect, test, type Page } from '@playwright/test';
import { isolateFromLiveReload } from '../helpers/viewer-page.ts';
import { greenCubeGlb } from '../helpers/green-cube-glb.ts';

// <sinew-viewer>'s props: <sinew-attachment> children (added, changed, removed) and attach() / detach(), on the
// built-in octopus, with a green cube GLB served by the test. The cube's pixels in the element's canvas tell
// whether it is drawn.

type Viewer = HTMLElementTagNameMap['sinew-viewer'];

test.beforeEach(async ({ page }) => {
  await isolateFromLiveReload(page);
  const cube = Buffer.from(greenCubeGlb(0.08));
  await page.route('**/props/cube.glb', (route) => route.fulfill({ body: cube, contentType: 'model/gltf-binary' }));
  await page.addInitScript(() => {
    const errors: string[] = [];
    (window as unknown as { __errors: string[] }).__errors = errors;
    document.addEventListener('sinew-error', (e) => errors.push((e as CustomEvent).detail.message));
  });
  await page.goto('/tests/browser/pages/empty-page.html');
  await page.evaluate(async () => {
    const el = document.createElement('sinew-viewer');
    el.id = 'v';
    el.setAttribute('style', 'width: 480px; height: 360px');
    el.setAttribute('yaw', '30');
    el.setAttribute('pitch', '20');
    el.setAttribute('time', '0.6');
    el.innerHTML = '<sinew-attachment src="/props/cube.glb" joint="tentacle2_5" offset="0 0 15cm" offset-rotation="0 45 0"></sinew-attachment>';
    document.body.append(el);
  });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).attachments.length === 1, undefined, { timeout: 60_000 });
});

/** Green pixels in the element's canvas after a frame drawn now. */
async function greenPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const el = document.getElementById('v') as Viewer;
    el.renderOnce();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 1] > 120 && data[i + 1] > 2.5 * data[i] && data[i + 1] > 2.5 * data[i + 2]) n++;
    return n;
  });
}

const errors = (page: Page) => page.evaluate(() => (window as unknown as { __errors: string[] }).__errors);

test('a <sinew-attachment> child draws its prop on the joint with the offset its attributes give', async ({ page }, info) => {
  const state = await page.evaluate(() => {
    const a = (document.getElementById('v') as Viewer).attachments[0];
    return { name: a.asset.name, joint: a.jointName, offset: Array.from(a.offset) };
  });
  expect(state.name).toBe('cube.glb');
  expect(state.joint).toBe('tentacle2_5');
  const c = Math.SQRT1_2;
  [c, 0, -c, 0, 0, 1, 0, 0, c, 0, c, 0, 0, 0, 0.15, 1].forEach((x, k) => expect(state.offset[k]).toBeCloseTo(x, 12));
  expect(await greenPixels(page)).toBeGreaterThan(30);
  await page.locator('#v').screenshot({ path: info.outputPath('element-prop.png') });
  expect(await errors(page)).toEqual([]);
});

test('changing joint moves it; removing the child removes it; an unknown joint is a sinew-error naming the joints', async ({ page }) => {
  await page.evaluate(() => document.querySelector('sinew-attachment')!.setAttribute('joint', 'head'));
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).attachments[0]?.jointName === 'head');
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).attachments.length)).toBe(1);
  await page.evaluate(() => document.querySelector('sinew-attachment')!.setAttribute('joint', 'hand_R'));
  await page.waitForFunction(() => (window as unknown as { __errors: string[] }).__errors.length > 0);
  expect((await errors(page))[0]).toMatch(/^octopus \(built-in\): no joint "hand_R" to attach cube\.glb to \(joints: head, tentacle0_0, /);
  expect(await page.evaluate(() => (document.getElementById('v') as Viewer).attachments.length)).toBe(0);
  await page.evaluate(() => document.querySelector('sinew-attachment')!.setAttribute('joint', 'tentacle2_5'));
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).attachments.length === 1);
  expect(await greenPixels(page)).toBeGreaterThan(30);
  await page.evaluate(() => document.querySelector('sinew-attachment')!.remove());
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).attachments.length === 0);
  expect(await greenPixels(page)).toBe(0);
});

test('attach() and detach(); a missing prop file and a malformed offset are sinew-errors, the model and other props stay', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const el = document.getElementById('v') as Viewer;
    const a = await el.attach('/props/cube.glb', 'head', [0, 0.6, 0]);
    const count = el.attachments.length;
    const failures: string[] = [];
    for (const attempt of [() => el.attach('/props/missing.glb', 'head'), () => el.attach('/props/cube.glb', 'head', [1, 2])]) {
      try { await attempt(); } catch (e) { failures.push(String((e as Error).message)); }
    }
    const detached = el.detach(a);
    return { joint: a.jointName, count, failures, detached, after: el.attachments.length };
  });
  expect(result).toMatchObject({ joint: 'head', count: 2, detached: true, after: 1 });
  expect(result.failures[0]).toMatch(/^missing\.glb: /);
  expect(result.failures[1]).toBe('offset: expected 3 numbers (a translation in metres) or 16 (a column-major matrix), got 2');
  expect(await errors(page)).toEqual(result.failures);
  await page.evaluate(() => document.querySelector('sinew-attachment')!.setAttribute('offset', '1 2'));
  await page.waitForFunction(() => (window as unknown as { __errors: string[] }).__errors.length === 3);
  expect((await errors(page))[2]).toBe('<sinew-attachment src="/props/cube.glb">: offset: expected "x y z" in metres or 16 numbers, got 2 numbers');
});

test('the props come back after the element is moved in the document (a reconnect)', async ({ page }) => {
  await page.evaluate(() => {
    const el = document.getElementById('v')!;
    const holder = document.createElement('div');
    document.body.append(holder);
    holder.append(el);
  });
  await page.waitForFunction(() => (document.getElementById('v') as Viewer).attachments.length === 1, undefined, { timeout: 60_000 });
  expect(await greenPixels(page)).toBeGreaterThan(30);
});
