import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { openHarness } from '../../helpers/harness.ts';
import type { ModelParity } from '../../pages/parity.ts';
import { maxPaletteJoints, type PaletteLimits } from '../../../../src/gpu/skinning/palette-path.ts';
import { expectParity, printParityTable } from '../../helpers/parity-report.ts';

// GPU-vs-CPU parity: shaders/skinned.vert run through transform feedback against skinVertices (docs/skinning-formulas.md S0),
// per vertex, on the same palettes, for every palette path (uniform mat3x4 array, uniform buffer, texture, texture
// with wrapped rows). Tolerance: max |Δp| ≤ 1e-5 × bounding-box
// diagonal; normals (unit vectors) max |Δn| ≤ 1e-4 (helpers/parity-report.ts).

const SKINNED_MODELS = [
  'SimpleSkin.gltf',
  'RiggedSimple.glb',
  'RiggedFigure.glb',
  'CesiumMan.glb',
  'Fox.glb',
  'RecursiveSkeletons.glb',
  'quad_skin.glb',
];

type Api = {
  generated: () => Promise<ModelParity>;
  jointChain: (jointCount: number) => Promise<ModelParity>;
  wideChain: (influenceCount: number) => Promise<ModelParity>;
  maxVertexUniformVectors: () => number;
  paletteLimits: () => PaletteLimits;
  url: (url: string) => Promise<ModelParity>;
  urlBent: (url: string) => Promise<ModelParity>;
};

const table: ModelParity[] = [];

function check(result: ModelParity): void {
  expectParity(result);
  // Every model here fits the uniform budget of any WebGL2 implementation (≥ 256 vectors → 80 joints)
  // except where noted by `skipped`; the texture path always runs.
  const texture = result.paths.find((p) => p.path === 'texture');
  expect(texture, `${result.model}: texture path result`).toBeDefined();
  expect(texture!.skipped).toBeNull();
}

test.describe('GPU-vs-CPU transform-feedback parity', () => {
  test.beforeEach(async ({ page }) => {
    await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
  });

  test('generated 2-joint bending box (no loader involved)', async ({ page }) => {
    // The harness reads back after a fence: Chromium reports no pipeline stall.
    const stalls: string[] = [];
    page.on('console', (message) => { if (/fence|pipeline stall|too many errors/i.test(message.text())) stalls.push(message.text()); });
    const result = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.generated());
    expect(stalls).toEqual([]);
    table.push(result);
    check(result);
    expect(result.paths.every((p) => p.skipped === null)).toBe(true);
    expect(result.times.length).toBe(6);
  });

  test('generated joint chain beyond the uniform budget: uniform skipped, texture rows wrap', async ({ page }) => {
    const vectors = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.maxVertexUniformVectors());
    // More joints than fit (3 vectors each + 16), and more than one 256-joint texture row.
    const jointCount = Math.max(300, Math.floor((vectors - 16) / 3) + 40);
    console.log(`MAX_VERTEX_UNIFORM_VECTORS ${vectors}: chain of ${jointCount} joints`);
    const result = await page.evaluate((n) => (window as unknown as { sinewParity: Api }).sinewParity.jointChain(n), jointCount);
    table.push(result);
    check(result);
    expect(result.paths.find((p) => p.path === 'uniform')!.skipped).toMatch(/exceed the uniform budget/);
  });

  test('generated 1 024-joint chain on every path that holds it', async ({ page }) => {
    const limits = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.paletteLimits());
    const held = (['uniform', 'ubo', 'texture'] as const).map((path) => `${path} ${maxPaletteJoints(path, limits)}`).join(', ');
    console.log(`MAX_VERTEX_UNIFORM_VECTORS ${limits.maxVertexUniformVectors}, MAX_UNIFORM_BLOCK_SIZE ${limits.maxUniformBlockSize}: joints per path: ${held}`);
    const result = await page.evaluate((n) => (window as unknown as { sinewParity: Api }).sinewParity.jointChain(n), 1024);
    table.push(result);
    check(result);
    expect(result.jointCount).toBe(1024);
    for (const path of result.paths) {
      const holds = path.path.startsWith('texture') || maxPaletteJoints(path.path as 'uniform' | 'ubo', limits) >= 1024;
      expect(path.skipped === null, `${path.path}: ran iff it holds 1 024 joints`).toBe(holds);
    }
  });

  for (const influences of [8, 12]) {
    test(`generated 32-joint chain with ${influences} influences per vertex (${influences > 8 ? 'attributes + overflow texture' : 'two attribute sets'})`, async ({ page }) => {
      const result = await page.evaluate((c) => (window as unknown as { sinewParity: Api }).sinewParity.wideChain(c), influences);
      table.push(result);
      check(result);
      expect(result.influences).toBe(influences);
      expect(result.paths.every((p) => p.skipped === null)).toBe(true);
    });
  }

  for (const file of SKINNED_MODELS) {
    test(`${file}`, async ({ page }) => {
      requireSharedAssets();
      const result = await page.evaluate(
        (url) => (window as unknown as { sinewParity: Api }).sinewParity.url(url),
        `/shared/assets/gltf/${file}`,
      );
      table.push(result);
      check(result);
      // quad_skin.glb has up to 10 influences per vertex (3 JOINTS/WEIGHTS sets): all are skinned, no warning.
      if (file === 'quad_skin.glb') {
        expect(result.influences).toBe(12);
        expect(result.warnings.join('\n')).not.toMatch(/influence/i);
      }
    });
  }

  test('quad_skin.glb with a bend clip turning all 10 joints (12 slots, up to 10 weighted: overflow texture)', async ({ page }) => {
    requireSharedAssets();
    const result = await page.evaluate((url) => (window as unknown as { sinewParity: Api }).sinewParity.urlBent(url), '/shared/assets/gltf/quad_skin.glb');
    table.push(result);
    check(result);
    expect(result.influences).toBe(12);
    expect(result.times.length).toBe(6);
  });

  test.afterAll(() => printParityTable(table.map((result) => ({ label: result.model, result }))));
});
