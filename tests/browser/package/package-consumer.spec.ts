import { expect, test, type Page } from '@playwright/test';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireSharedAssets, SHARED_ASSETS } from '../helpers/viewer-page.ts';
import { startFileServer, type FileServer } from '../../../src/node/file-server.ts';
import { compressModel } from '../../unit/helpers/compress-model.ts';

// The packed tarball as a user gets it: installed into a fresh project made like `npm create vite` (vanilla-ts),
// type-checked, built with vite, and opened; plus a plain page that loads only dist/standalone/sinew-viewer.js.
const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURE = resolve(import.meta.dirname, 'consumer');

test.describe.configure({ mode: 'serial' });

let consumer = '';
let server: FileServer;
let packedFiles: string[] = [];

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

function versionOf(name: string): string {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

test.beforeAll(async () => {
  requireSharedAssets();
  test.setTimeout(600_000);
  consumer = mkdtempSync(join(tmpdir(), 'sinew-consumer-'));
  // dist/ as the run's global setup left it (tests/helpers/fresh-build.ts): `prepare` would build it again.
  const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', consumer], ROOT)) as { filename: string; files: { path: string }[] }[];
  packedFiles = packed[0].files.map((file) => file.path);
  cpSync(FIXTURE, consumer, { recursive: true });
  mkdirSync(join(consumer, 'public'));
  copyFileSync(join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), join(consumer, 'public/CesiumMan.glb'));
  for (const codec of ['draco', 'meshopt'] as const) {
    writeFileSync(join(consumer, `public/CesiumMan-${codec}.glb`), await compressModel(join(SHARED_ASSETS, 'gltf/CesiumMan.glb'), codec));
  }
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({
    name: 'sinew-consumer', private: true, version: '0.0.0', type: 'module',
    scripts: { build: 'tsc && vite build' },
  }, null, 2));
  // Offline-first: `npm ci` of this repository has just put these versions in npm's cache.
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(consumer, packed[0].filename),
    `vite@${versionOf('vite')}`, `typescript@${versionOf('typescript')}`], consumer);
  run('npm', ['run', 'build'], consumer);
  server = await startFileServer([{ prefix: '/', folder: join(consumer, 'dist') }, { prefix: '/', folder: consumer }]);
});

test.afterAll(async () => {
  await server?.close();
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

test('the tarball holds the built package only: no sources, tests, goldens or benchmarks', () => {
  expect(packedFiles).toEqual(expect.arrayContaining([
    'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/sinew.mjs', 'dist/index.js', 'dist/element.js', 'dist/node.js',
    'dist/cli.js', 'dist/standalone/sinew-viewer.js', 'dist/types/index.d.ts', 'dist/types/element/index.d.ts', 'dist/types/node/index.d.ts',
    'dist/testing.js', 'dist/types/testing.d.ts',
  ]));
  const unexpected = packedFiles.filter((path) => !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|bin\/sinew\.mjs|dist\/.+)$/.test(path));
  expect(unexpected).toEqual([]);
  expect(packedFiles.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
});

test('in node, sinew-gl and sinew-gl/element import without a DOM, and sinew-gl/node reads a model', () => {
  const script = `
    const core = await import('sinew-gl');
    const element = await import('sinew-gl/element');
    const testing = await import('sinew-gl/testing');
    const { loadModelFromPath } = await import('sinew-gl/node');
    const asset = await loadModelFromPath('public/CesiumMan.glb');
    const draco = await loadModelFromPath('public/CesiumMan-draco.glb');
    const meshopt = await loadModelFromPath('public/CesiumMan-meshopt.glb');
    console.log(JSON.stringify({
      core: typeof core.skinVertices, element: typeof element.SinewViewerElement, registered: element.defineSinewViewer(),
      clips: asset.clips.length,
      compressed: [draco, meshopt].map((model) => [model.clips.length, model.skins[0].joints.length, model.warnings.length]),
      loadError: typeof core.LoadError, capture: [typeof core.captureSkinnedVertices, typeof testing.captureSkinnedVertices, typeof testing.captureSkinnedVerticesAsync],
      standalone: import.meta.resolve('sinew-gl/sinew-viewer.js').split('/node_modules/')[1],
    }));`;
  const output = run(process.execPath, ['--input-type=module', '-e', script], consumer);
  expect(JSON.parse(output)).toEqual({
    core: 'function', element: 'function', registered: null, clips: 1, compressed: [[1, 19, 0], [1, 19, 0]],
    // Verification helpers live in sinew-gl/testing, not in the root an application imports.
    loadError: 'function', capture: ['undefined', 'function', 'function'],
    // The no-bundler script is exported from its own folder, which holds the chunks it loads.
    standalone: 'sinew-gl/dist/standalone/sinew-viewer.js',
  });
});

test('the installed `sinew` command (package sinew-gl) runs from node_modules: --version, inspect, and render names the optional peers it needs', () => {
  const sinew = join(consumer, 'node_modules/.bin/sinew');
  expect(run(sinew, ['--version'], consumer).trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  const inspection = JSON.parse(run(sinew, ['inspect', 'public/CesiumMan.glb', '--json'], consumer));
  expect(inspection.skins.map((skin: { jointCount: number }) => skin.jointCount)).toEqual([19]);
  expect(inspection.clips).toHaveLength(1);
  // The consumer installed no browser packages: render says which to add, exit 1.
  let failure: { status: number; stderr: string } | null = null;
  try {
    run(sinew, ['render', 'public/CesiumMan.glb', '--out', join(consumer, 'x.png')], consumer);
  } catch (error) {
    failure = error as { status: number; stderr: string };
  }
  expect(failure?.status).toBe(1);
  expect(String(failure?.stderr)).toContain('npm install --save-dev playwright-core @sparticuz/chromium');
});

/** Fraction of the element's pixels that differ from its most common colour, and a fingerprint of the picture. */
async function picture(page: Page): Promise<{ covered: number; png: Buffer }> {
  const png = await page.locator('#viewer').screenshot();
  const covered = await page.evaluate(async (base64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4) {
      const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return 1 - Math.max(...counts.values()) / (data.length / 4);
  }, png.toString('base64'));
  return { covered, png };
}

/** Poses the element at two times of its clip and checks the model (file `name`) is drawn and moves between them. */
async function expectAnimatedCesiumMan(page: Page, name = 'CesiumMan.glb'): Promise<void> {
  const viewer = page.locator('#viewer');
  await expect.poll(() => viewer.evaluate((element: any) => element.model), { timeout: 120_000 }).toBe(name);
  const poseAt = async (seconds: number) => {
    await viewer.evaluate((element: any, time) => { element.pause(); element.seek(time); element.renderOnce(); }, seconds);
    return picture(page);
  };
  const early = await poseAt(0.25);
  const late = await poseAt(1.0);
  expect(early.covered).toBeGreaterThan(0.03);
  expect(late.covered).toBeGreaterThan(0.03);
  expect(early.png.equals(late.png)).toBe(false);
  // And it plays by itself: time advances once play() is called.
  const before = await viewer.evaluate((element: any) => { element.play(); return element.currentTime; });
  await expect.poll(() => viewer.evaluate((element: any) => element.currentTime), { timeout: 30_000 }).not.toBe(before);
}

test('a Vite + TypeScript consumer of the packed tarball shows CesiumMan animating', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/`);
  await expectAnimatedCesiumMan(page);
  await expect(page.locator('#summary')).toHaveText(/^1 clip\(s\), 19 joints, computeSkinMatrices: function$/);
  expect(await page.evaluate(() => document.body.dataset.clips)).toBeTruthy();
  expect(errors).toEqual([]);
});

test('a plain HTML page that loads only dist/standalone/sinew-viewer.js shows CesiumMan animating', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/plain.html`);
  await expectAnimatedCesiumMan(page);
  expect(errors).toEqual([]);
});

test('Draco and meshopt models: the decoder chunks load in the Vite consumer and beside dist/standalone/sinew-viewer.js', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  for (const path of ['/', '/plain.html']) {
    await page.goto(`${server.url}${path}`);
    await expectAnimatedCesiumMan(page);
    for (const codec of ['draco', 'meshopt']) {
      await page.locator('#viewer').evaluate((element, src) => element.setAttribute('src', src), `/public/CesiumMan-${codec}.glb`);
      await expectAnimatedCesiumMan(page, `CesiumMan-${codec}.glb`);
    }
  }
  expect(errors).toEqual([]);
});

/** A free loopback port (closed again before returning). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

test("the consumer's vite dev server (dependency pre-bundling included) serves it too", async ({ page }) => {
  const port = await freePort();
  const dev = spawn(process.execPath, [join(consumer, 'node_modules/vite/bin/vite.js'), '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  try {
    await expect.poll(() => output, { timeout: 60_000 }).toContain(`${port}`);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await expectAnimatedCesiumMan(page);
    for (const codec of ['draco', 'meshopt']) {
      await page.locator('#viewer').evaluate((element, src) => element.setAttribute('src', src), `/CesiumMan-${codec}.glb`);
      await expectAnimatedCesiumMan(page, `CesiumMan-${codec}.glb`);
    }
    expect(errors).toEqual([]);
    expect(output).not.toMatch(/error/i);
  } finally {
    dev.kill();
  }
});
