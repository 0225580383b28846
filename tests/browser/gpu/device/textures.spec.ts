/**
 * Texture sampling as glTF states it (docs/compatibility.md, README "The viewer"): each texture's sampler
 * (wraps, filters, mipmaps only when the minification filter uses them) and the TEXCOORD_n set a material's
 * texture names. The model is made here: three quads with texture coordinates running to 2, one checker
 * image, three samplers.
 */
import { test, expect } from '@playwright/test';
import { resolve } from 'node:path';
import { startFileServer } from '../../../../src/node/file-server.ts';
import { GltfBuilder } from '../../../unit/helpers/gltf-builder.ts';
import { encodeKtx2 } from '../../helpers/encode-ktx2.ts';
import { encodePng } from '../../helpers/encode-png.ts';
import { collectErrors, isolateFromLiveReload, openViewer } from '../../helpers/viewer-page.ts';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

const REPEAT = 10497, CLAMP_TO_EDGE = 33071, MIRRORED_REPEAT = 33648, NEAREST = 9728;

/** n × n RGBA pixels: quadrants red (top left), green (top right), blue (bottom left), white (bottom right). */
function checkerPixels(n: number): Uint8Array {
  const colours = [[230, 40, 40], [40, 200, 60], [40, 80, 230], [240, 240, 240]];
  const rgba = new Uint8Array(4 * n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const [r, g, b] = colours[(2 * y < n ? 0 : 2) + (2 * x < n ? 0 : 1)];
      rgba.set([r, g, b, 255], 4 * (n * y + x));
    }
  }
  return rgba;
}

/** The 4 × 4 checker as a PNG. */
function checker(): Uint8Array {
  return encodePng(4, 4, checkerPixels(4));
}

/**
 * Quads side by side at x = −1.1, 0, 1.1 (1 × 1, facing +z), UVs (0, 0)…(2, 2): left REPEAT, middle
 * CLAMP_TO_EDGE (both NEAREST), right MIRRORED_REPEAT on TEXCOORD_1 (its TEXCOORD_0 is a constant that would
 * paint it one flat colour).
 */
function samplerQuads(): Uint8Array {
  const b = new GltfBuilder();
  const position = b.accessor(new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, -0.5, 0.5, 0, 0.5, 0.5, 0]), 'VEC3', { min: [-0.5, -0.5, 0], max: [0.5, 0.5, 0] });
  const uv = b.accessor(new Float32Array([0, 2, 2, 2, 0, 0, 2, 0]), 'VEC2');
  const flat = b.accessor(new Float32Array([0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25]), 'VEC2');
  const indices = b.accessor(new Uint16Array([0, 1, 2, 2, 1, 3]), 'SCALAR');
  const image = b.bufferView(checker());
  const quad = (material: number, attributes: Record<string, number>) => ({ primitives: [{ attributes: { POSITION: position, ...attributes }, indices, material }] });
  Object.assign(b.json, {
    scene: 0,
    scenes: [{ nodes: [0, 1, 2] }],
    nodes: [{ mesh: 0, translation: [-1.1, 0, 0] }, { mesh: 1 }, { mesh: 2, translation: [1.1, 0, 0] }],
    meshes: [quad(0, { TEXCOORD_0: uv }), quad(1, { TEXCOORD_0: uv }), quad(2, { TEXCOORD_0: flat, TEXCOORD_1: uv })],
    images: [{ bufferView: image, mimeType: 'image/png' }],
    samplers: [
      { wrapS: REPEAT, wrapT: REPEAT, magFilter: NEAREST, minFilter: NEAREST },
      { wrapS: CLAMP_TO_EDGE, wrapT: CLAMP_TO_EDGE, magFilter: NEAREST, minFilter: NEAREST },
      { wrapS: MIRRORED_REPEAT, wrapT: MIRRORED_REPEAT, magFilter: NEAREST },
    ],
    textures: [{ source: 0, sampler: 0 }, { source: 0, sampler: 1 }, { source: 0, sampler: 2 }],
    materials: [0, 1, 2].map((t) => ({ pbrMetallicRoughness: { baseColorTexture: { index: t, texCoord: t === 2 ? 1 : 0 }, metallicFactor: 0 }, doubleSided: true })),
  });
  return b.glb();
}

test('golden: REPEAT, CLAMP_TO_EDGE and MIRRORED_REPEAT (on TEXCOORD_1) samplers on quads with UVs to 2', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&yaw=0&pitch=0');
  const url = `data:model/gltf-binary;base64,${Buffer.from(samplerQuads()).toString('base64')}`;
  expect(await page.evaluate((u) => window.sinew!.loadUrl(u, 'samplers.glb'), url)).toBe(true);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('samplers.glb');
  expect(state.error).toBeNull();
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('samplers.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

/**
 * Two quads textured through KHR_texture_basisu (required), one KTX2 image each, encoded here with Basis
 * Universal: left UASTC (Zstandard), right ETC1S (BasisLZ). 8 × 8 checker, REPEAT with NEAREST filters, UVs to 2.
 */
async function ktx2Quads(): Promise<Uint8Array> {
  const b = new GltfBuilder();
  const position = b.accessor(new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, -0.5, 0.5, 0, 0.5, 0.5, 0]), 'VEC3', { min: [-0.5, -0.5, 0], max: [0.5, 0.5, 0] });
  const uv = b.accessor(new Float32Array([0, 2, 2, 2, 0, 0, 2, 0]), 'VEC2');
  const indices = b.accessor(new Uint16Array([0, 1, 2, 2, 1, 3]), 'SCALAR');
  const uastc = b.bufferView(await encodeKtx2(8, 8, checkerPixels(8), 'uastc'));
  const etc1s = b.bufferView(await encodeKtx2(8, 8, checkerPixels(8), 'etc1s'));
  const quad = (material: number) => ({ primitives: [{ attributes: { POSITION: position, TEXCOORD_0: uv }, indices, material }] });
  Object.assign(b.json, {
    extensionsUsed: ['KHR_texture_basisu'],
    extensionsRequired: ['KHR_texture_basisu'],
    scene: 0,
    scenes: [{ nodes: [0, 1] }],
    nodes: [{ mesh: 0, translation: [-0.6, 0, 0] }, { mesh: 1, translation: [0.6, 0, 0] }],
    meshes: [quad(0), quad(1)],
    images: [{ bufferView: uastc, mimeType: 'image/ktx2' }, { bufferView: etc1s, mimeType: 'image/ktx2' }],
    samplers: [{ wrapS: REPEAT, wrapT: REPEAT, magFilter: NEAREST, minFilter: NEAREST }],
    textures: [0, 1].map((source) => ({ sampler: 0, extensions: { KHR_texture_basisu: { source } } })),
    materials: [0, 1].map((t) => ({ pbrMetallicRoughness: { baseColorTexture: { index: t }, metallicFactor: 0 }, doubleSided: true })),
  });
  return b.glb();
}

test('golden: KHR_texture_basisu — KTX2 images (UASTC, ETC1S) transcoded and drawn, not white', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?ui=0&yaw=0&pitch=0');
  const url = `data:model/gltf-binary;base64,${Buffer.from(await ktx2Quads()).toString('base64')}`;
  const opened = await page.evaluate((u) => window.sinew!.loadUrl(u, 'basisu.glb'), url);
  expect(opened, (await page.evaluate(() => window.sinew!.state())).error ?? '').toBe(true);
  const state = await page.evaluate(() => window.sinew!.state());
  expect(state.model).toBe('basisu.glb');
  expect(state.error).toBeNull();
  await page.evaluate(() => window.sinew!.renderOnce());
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('ktx2-basisu.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test("under a Content-Security-Policy without 'unsafe-eval', dist/standalone/sinew-viewer.js transcodes and draws KTX2 images", async ({ page }) => {
  const root = resolve(import.meta.dirname, '../../../..');
  // 'wasm-unsafe-eval' only, for the transcoder's WebAssembly; no 'unsafe-eval', no inline script.
  const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; connect-src 'self' blob: data:";
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<script type="module" src="/standalone/sinew-viewer.js"></script></head>
<body><sinew-viewer id="v" src="/models/basisu.glb" yaw="0" pitch="0" style="width: 320px; height: 240px"></sinew-viewer></body></html>`;
  const server = await startFileServer([{ prefix: '/standalone/', folder: resolve(root, 'dist/standalone') }], { '/csp.html': html });
  try {
    const body = Buffer.from(await ktx2Quads());
    await page.route('**/models/basisu.glb', (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }));
    const problems: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => ((window as { __violations?: string[] }).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`)));
    await page.goto(`${server.url}/csp.html`);
    await expect.poll(() => page.evaluate(() => (document.getElementById('v') as HTMLElement & { model: string }).model), { timeout: 60_000 }).toBe('basisu.glb');
    // The checker's red, green and blue quadrants are drawn (a texture that failed would be white).
    const counts = await page.evaluate(() => {
      const viewer = document.getElementById('v') as HTMLElement & { renderOnce(): void };
      viewer.renderOnce();
      const canvas = viewer.shadowRoot!.querySelector('canvas')!;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      const found = { red: 0, green: 0, blue: 0 };
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i], g = data[i + 1], b = data[i + 2];
        if (r > 2 * g && r > 2 * b && r > 60) found.red++;
        if (g > 2 * r && g > 2 * b && g > 60) found.green++;
        if (b > 2 * r && b > g && b > 60) found.blue++;
      }
      return found;
    });
    expect(counts.red).toBeGreaterThan(200);
    expect(counts.green).toBeGreaterThan(200);
    expect(counts.blue).toBeGreaterThan(200);
    expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations ?? [])).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await server.close();
  }
});

test('a KTX2 image the transcoder refuses is drawn white and listed with the warnings', async ({ page }) => {
  const b = new GltfBuilder();
  const position = b.accessor(new Float32Array([-0.5, -0.5, 0, 0.5, -0.5, 0, -0.5, 0.5, 0]), 'VEC3', { min: [-0.5, -0.5, 0], max: [0.5, 0.5, 0] });
  const uv = b.accessor(new Float32Array([0, 1, 1, 1, 0, 0]), 'VEC2');
  // A KTX2 identifier followed by nothing a transcoder can read.
  const broken = b.bufferView(Uint8Array.of(0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4));
  Object.assign(b.json, {
    extensionsUsed: ['KHR_texture_basisu'],
    scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: position, TEXCOORD_0: uv }, material: 0 }] }],
    images: [{ bufferView: broken, mimeType: 'image/ktx2', name: 'broken' }],
    textures: [{ extensions: { KHR_texture_basisu: { source: 0 } } }],
    materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } }, doubleSided: true }],
  });
  await openViewer(page);
  const url = `data:model/gltf-binary;base64,${Buffer.from(b.glb()).toString('base64')}`;
  expect(await page.evaluate((u) => window.sinew!.loadUrl(u, 'broken.glb'), url)).toBe(true);
  await expect(page.locator('#sinew-warnings li')).toHaveText([/^broken\.glb: image "broken" \(image\/ktx2\) could not be transcoded: /]);
});
