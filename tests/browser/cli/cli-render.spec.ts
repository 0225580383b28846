import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';

// `sinew render`: the real command (bin/sinew.mjs → dist/cli.js, built by the run's global setup, tests/helpers/fresh-build.ts),
// which starts its own headless Chromium; this spec's browser only decodes the PNGs it writes.
const SINEW = resolve(import.meta.dirname, '../../../bin/sinew.mjs');
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

test('sinew render --distance: the camera-orbit radius asked for, beyond model-viewer\'s automatic limit (2 × the framed distance draws the model smaller)', async ({ page }) => {
  requireSharedAssets();
  const covered = async (distance: string): Promise<number> => {
    const file = join(out, `distance-${distance}.png`);
    const result = await sinew('render', join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), '--distance', distance, '--background', 'transparent',
      '--width', '200', '--height', '200', '--out', file);
    expect(result.code).toBe(0);
    return page.evaluate(async (base64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob(), { premultiplyAlpha: 'none' });
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n;
    }, readFileSync(file).toString('base64'));
  };
  const near = await covered('1'), far = await covered('2');
  console.log(`sinew render --distance 1 / 2: ${near} / ${far} pixels`);
  expect(near).toBeGreaterThan(1000);
  // Twice the distance: about a quarter of the area.
  expect(far).toBeLessThan(0.4 * near);
  expect(far).toBeGreaterThan(0.15 * near);
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

test('sinew render: KHR_texture_basisu textures are transcoded (the KTX2 chunk is served beside sinew-viewer.js), not white', async ({ page }) => {
  const { GltfBuilder } = await import('../../unit/helpers/gltf-builder.ts');
  const { encodeKtx2 } = await import('../helpers/encode-ktx2.ts');
  // 8 × 8 KTX2 (UASTC): left half red, right half blue; on a quad facing the camera, NEAREST.
  const rgba = new Uint8Array(256);
  for (let i = 0; i < 64; i++) rgba.set(i % 8 < 4 ? [230, 40, 40, 255] : [40, 80, 230, 255], 4 * i);
  const b = new GltfBuilder();
  const position = b.accessor(new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, -0.5, 0.5, 0, 0.5, 0.5, 0]), 'VEC3', { min: [-0.5, -0.5, 0], max: [0.5, 0.5, 0] });
  const uv = b.accessor(new Float32Array([0, 1, 1, 1, 0, 0, 1, 0]), 'VEC2');
  const indices = b.accessor(new Uint16Array([0, 1, 2, 2, 1, 3]), 'SCALAR');
  const image = b.bufferView(await encodeKtx2(8, 8, rgba));
  Object.assign(b.json, {
    extensionsUsed: ['KHR_texture_basisu'], extensionsRequired: ['KHR_texture_basisu'],
    scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: position, TEXCOORD_0: uv }, indices, material: 0 }] }],
    images: [{ bufferView: image, mimeType: 'image/ktx2' }],
    samplers: [{ magFilter: 9728, minFilter: 9728 }],
    textures: [{ sampler: 0, extensions: { KHR_texture_basisu: { source: 0 } } }],
    materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0 }, doubleSided: true }],
  });
  const model = join(out, 'basisu.glb');
  (await import('node:fs')).writeFileSync(model, b.glb());
  const file = join(out, 'basisu.png');
  const result = await sinew('render', model, '--yaw', '0', '--pitch', '0', '--width', '200', '--height', '200', '--out', file);
  expect(result).toEqual({ code: 0, stderr: '' });
  // The pixels a quarter of the way in from each side, on the middle row: red on the left, blue on the right.
  const [left, right] = await page.evaluate(async (base64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    return [[70, 100], [130, 100]].map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data));
  }, readFileSync(file).toString('base64'));
  expect(left[0]).toBeGreaterThan(150);
  expect(left[2]).toBeLessThan(100);
  expect(right[2]).toBeGreaterThan(150);
  expect(right[0]).toBeLessThan(100);
});

test('sinew render: a Draco and a meshopt CesiumMan (decoder chunks served beside sinew-viewer.js) look like the original', async ({ page }) => {
  requireSharedAssets();
  const { compressModel } = await import('../../unit/helpers/compress-model.ts');
  const { writeFileSync } = await import('node:fs');
  const args = ['--time', '1.0', '--yaw', '-30', '--pitch', '10', '--width', '320', '--height', '240'];
  const render = async (model: string, name: string): Promise<Buffer> => {
    const file = join(out, name);
    expect(await sinew('render', model, ...args, '--out', file)).toEqual({ code: 0, stderr: '' });
    return readFileSync(file);
  };
  const original = await render(join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), 'original.png');
  for (const codec of ['draco', 'meshopt'] as const) {
    const model = join(out, `CesiumMan-${codec}.glb`);
    writeFileSync(model, await compressModel(join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), codec));
    const picture = await render(model, `${codec}.png`);
    // Pixels whose colour differs by more than 24 (of 255) in a channel: the codecs' quantisation moves edges by
    // a pixel at most, so only a thin fraction may differ.
    const differing = await page.evaluate(async ([a, b]) => {
      const pixels = async (base64: string) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
        const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [p, q] = [await pixels(a), await pixels(b)];
      let count = 0;
      for (let i = 0; i < p.length; i += 4) if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) > 24) count++;
      return count / (p.length / 4);
    }, [original.toString('base64'), picture.toString('base64')]);
    console.log(`sinew render: CesiumMan ${codec} vs original, ${(differing * 100).toFixed(3)} % of pixels differ by more than 24`);
    expect(differing).toBeLessThan(0.01);
  }
});

test('sinew render --anim CLIPS.glb plays glTF clips retargeted by joint name, as sinew eval --anim does', async ({ page }) => {
  requireSharedAssets();
  const cesium = join(SHARED_ASSETS, 'gltf/CesiumMan.glb');
  const args = ['--yaw', '-30', '--pitch', '10', '--width', '240', '--height', '240'];
  const render = async (name: string, ...more: string[]): Promise<Buffer> => {
    const file = join(out, name);
    expect(await sinew('render', cesium, ...args, ...more, '--out', file)).toEqual({ code: 0, stderr: expect.any(String) });
    return readFileSync(file);
  };
  // Fraction of pixels whose colour differs by more than 24 (of 255) in a channel.
  const differing = (a: Buffer, b: Buffer) => page.evaluate(async ([x, y]) => {
    const pixels = async (base64: string) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    };
    const [p, q] = [await pixels(x), await pixels(y)];
    let count = 0;
    for (let i = 0; i < p.length; i += 4) if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) > 24) count++;
    return count / (p.length / 4);
  }, [a.toString('base64'), b.toString('base64')]);

  // CesiumMan's clip retargeted onto CesiumMan follows its own clip (the bone lengths stay the model's): at 1.0 s
  // the picture is the model's own clip at 1.0 s, and not its rest pose.
  const own = await render('own-1.0.png', '--time', '1.0');
  const retargeted = await render('retargeted-1.0.png', '--anim', cesium, '--clip', 'animation 0', '--time', '1.0');
  const rest = await render('rest.png', '--clip', 'rest');
  const [sameClip, fromRest] = [await differing(own, retargeted), await differing(rest, retargeted)];
  console.log(`sinew render --anim: retargeted vs own clip ${(sameClip * 100).toFixed(2)} %, vs rest pose ${(fromRest * 100).toFixed(2)} % of pixels differ`);
  expect(sameClip).toBeLessThan(0.01);
  expect(fromRest).toBeGreaterThan(0.02);

  // The clip is named as sinew eval --anim names it, with a "did you mean"; a file that moves no joint is refused.
  expect(await sinew('render', cesium, '--anim', cesium, '--clip', 'Animation 1', '--out', join(out, 'x.png')))
    .toEqual({ code: 1, stderr: 'sinew: CesiumMan.glb: no clip "Animation 1" (did you mean "animation 0"? clips: "animation 0")\n' });
  const none = await sinew('render', join(SHARED_ASSETS, 'gltf/RiggedSimple.glb'), '--anim', cesium, '--out', join(out, 'y.png'));
  expect(none.code).toBe(1);
  expect(none.stderr).toMatch(/^sinew: CesiumMan\.glb: no joint of RiggedSimple\.glb matches a joint of CesiumMan\.glb by name/);
});
