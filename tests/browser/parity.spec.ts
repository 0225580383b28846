import { expect, test } from '@playwright/test';
import { openHarness, SHARED_ASSETS, sharedAssetsAvailable } from './helpers/harness.ts';
import type { ModelParity } from './pages/parity.ts';

// GPU-vs-CPU parity: shaders/skinned.vert run through transform feedback against skinVertices (SEEDS S0),
// per vertex, on the same palettes, for both palette paths. Tolerance: max |Δp| ≤ 1e-5 × bounding-box
// diagonal; normals (unit vectors) max |Δn| ≤ 1e-4.
const POSITION_TOLERANCE = 1e-5;
const NORMAL_TOLERANCE = 1e-4;

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
  generated: () => ModelParity;
  jointChain: (jointCount: number) => ModelParity;
  maxVertexUniformVectors: () => number;
  url: (url: string) => Promise<ModelParity>;
};

const table: ModelParity[] = [];

function check(result: ModelParity): void {
  expect(result.skinnedPrimitives, `${result.model}: skinned primitives`).toBeGreaterThan(0);
  expect(result.diagonal, `${result.model}: diagonal`).toBeGreaterThan(0);
  for (const path of result.paths) {
    if (path.skipped) continue;
    expect(path.verticesCompared, `${result.model} ${path.path}: vertices compared`).toBeGreaterThan(0);
    expect(path.maxPositionError, `${result.model} ${path.path}: max |Δp| (worst at ${path.worst})`)
      .toBeLessThanOrEqual(POSITION_TOLERANCE * result.diagonal);
    expect(path.maxNormalError, `${result.model} ${path.path}: max |Δn|`).toBeLessThanOrEqual(NORMAL_TOLERANCE);
  }
  // Every model here fits the uniform budget of any WebGL2 implementation (≥ 256 vectors → 60 joints)
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
    const result = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.generated());
    table.push(result);
    check(result);
    expect(result.paths.every((p) => p.skipped === null)).toBe(true);
    expect(result.times.length).toBe(6);
  });

  test('generated joint chain beyond the uniform budget: uniform skipped, texture rows wrap', async ({ page }) => {
    const vectors = await page.evaluate(() => (window as unknown as { sinewParity: Api }).sinewParity.maxVertexUniformVectors());
    // More joints than fit (4 vectors each + 16), and more than one 256-joint texture row.
    const jointCount = Math.max(300, Math.floor((vectors - 16) / 4) + 40);
    console.log(`MAX_VERTEX_UNIFORM_VECTORS ${vectors}: chain of ${jointCount} joints`);
    const result = await page.evaluate((n) => (window as unknown as { sinewParity: Api }).sinewParity.jointChain(n), jointCount);
    table.push(result);
    check(result);
    expect(result.paths.find((p) => p.path === 'uniform')!.skipped).toMatch(/exceed the uniform budget/);
  });

  for (const file of SKINNED_MODELS) {
    test(`${file}`, async ({ page }) => {
      test.skip(!sharedAssetsAvailable(), `${SHARED_ASSETS} is absent`);
      const result = await page.evaluate(
        (url) => (window as unknown as { sinewParity: Api }).sinewParity.url(url),
        `/shared/assets/gltf/${file}`,
      );
      table.push(result);
      check(result);
      // quad_skin.glb has up to 10 influences per vertex: the loader keeps 4 and says so.
      if (file === 'quad_skin.glb') expect(result.warnings.join('\n')).toMatch(/influence/i);
    });
  }

  test.afterAll(() => {
    if (table.length === 0) return;
    const rows = table.flatMap((r) => r.paths.map((p) => [
      r.model, String(r.jointCount), p.path,
      p.skipped ? 'skipped' : String(p.samples), p.skipped ? '' : String(p.verticesCompared),
      r.diagonal.toPrecision(4),
      p.skipped ? '' : p.maxPositionError.toExponential(2),
      p.skipped ? '' : (p.maxPositionError / r.diagonal).toExponential(2),
      p.skipped ? p.skipped : p.maxNormalError.toExponential(2),
    ]));
    const header = ['model', 'joints', 'path', 'samples', 'vertices', 'diagonal', 'max|Δp|', 'max|Δp|/diag', 'max|Δn|'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
    console.log(['', line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
  });
});
