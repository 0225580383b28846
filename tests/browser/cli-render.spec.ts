import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { requireSharedAssets, SHARED_ASSETS } from './helpers/viewer-page.ts';

// `sinew render`: the real command (bin/sinew.mjs → dist/cli.js, built by vitest's setup or `npm run build`),
// which starts its own headless Chromium; this spec's browser only decodes the PNGs it writes.
const SINEW = resolve(import.meta.dirname, '../../bin/sinew.mjs');
const run = promisify(execFile);

let out = '';
test.beforeAll(() => { out = mkdtempSync(join(tmpdir(), 'sinew-render-')); });
test.afterAll(() => rmSync(out, { recursive: true, force: true }));

async function sinew(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [SINEW, ...args]);
    return { code: 0, stderr };
  } catch (error: any) {
    return { code: error.code, stderr: error.stderr };
  }
}

/** Width, height and the alpha of the top-left pixel of a PNG, decoded by the browser. */
async function decode(page: import('@playwright/test').Page, png: Buffer): Promise<{ width: number; height: number; cornerAlpha: number }> {
  return page.evaluate(async (base64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob(), { premultiplyAlpha: 'none' });
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, height: bitmap.height, cornerAlpha: context.getImageData(0, 0, 1, 1).data[3] };
  }, png.toString('base64'));
}

test('sinew render: CesiumMan at a fixed time and camera matches the golden', async ({ page }) => {
  requireSharedAssets();
  const file = join(out, 'cesium-man.png');
  const result = await sinew('render', join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), '--time', '1.0', '--yaw', '-30', '--pitch', '10',
    '--width', '320', '--height', '240', '--out', file);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const png = readFileSync(file);
  expect(await decode(page, png)).toMatchObject({ width: 320, height: 240, cornerAlpha: 255 });
  expect(png).toMatchSnapshot('cesium-man-render.png');
});

test('sinew render --background transparent writes alpha; a bad model exits 1 with the loader message', async ({ page }) => {
  requireSharedAssets();
  const file = join(out, 'fox.png');
  expect((await sinew('render', join(SHARED_ASSETS, 'gltf/Fox.glb'), '--clip', 'Run', '--background', 'transparent',
    '--width', '200', '--height', '150', '--out', file)).code).toBe(0);
  expect(await decode(page, readFileSync(file))).toEqual({ width: 200, height: 150, cornerAlpha: 0 });

  const bad = await sinew('render', join(SHARED_ASSETS, 'md5/invalid/InvalidBoneIndex.md5mesh'), '--out', join(out, 'bad.png'));
  expect(bad).toEqual({ code: 1, stderr: 'sinew: InvalidBoneIndex.md5mesh:23: weight 0 names joint 999 of 1\n' });
  const clip = await sinew('render', join(SHARED_ASSETS, 'gltf/Fox.glb'), '--clip', 'Fly', '--out', join(out, 'x.png'));
  expect(clip).toEqual({ code: 1, stderr: 'sinew: Fox.glb: no clip "Fly" (clips: "Survey", "Walk", "Run")\n' });
});
