import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { openHarness } from '../../helpers/harness.ts';
import type { ModelParity, Sampling } from '../../pages/parity.ts';
import { expectParity, printParityTable } from '../../helpers/parity-report.ts';

// GPU-vs-CPU parity for MD5 models (Doom 3 .md5mesh + .md5anim), loaded by the viewer's own browser-side MD5
// path and converted to a ModelAsset (bind pose + inverse bind, docs/skinning-formulas.md S3): shaders/skinned.vert run through
// transform feedback against skinVertices (docs/skinning-formulas.md S0), per vertex, on the same palettes, for every palette path
// (uniform, ubo, texture, texture with wrapped rows). Tolerance as parity.spec.ts: max |Δp| ≤ 1e-5 × bounding-box
// diagonal; normals (unit vectors) max |Δn| ≤ 1e-4.
const MD5 = '/shared/assets/md5';

type Api = {
  md5: (meshUrl: string, animUrl: string | null, sampling: Sampling) => Promise<ModelParity>;
};

const table: { label: string; result: ModelParity }[] = [];

function check(result: ModelParity): void {
  expectParity(result);
  expect(result.paths.map((p) => p.path)).toEqual(['uniform', 'ubo', 'texture', 'texture-wrapped']);
  for (const path of result.paths) {
    // MD5 models here have few joints (Bob 33, SimpleCube 3): every path runs, the uniform one included.
    expect(path.skipped, `${result.model} ${path.path}: skipped`).toBeNull();
    expect(path.samples, `${result.model} ${path.path}: samples`).toBe(result.times.length);
  }
}

test.describe('GPU-vs-CPU transform-feedback parity, MD5', () => {
  test.beforeEach(async ({ page }) => {
    requireSharedAssets();
    await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
  });

  test('Bob.md5mesh + Bob.md5anim: bind pose and all 140 frames', async ({ page }) => {
    const started = Date.now();
    const result = await page.evaluate(
      ([mesh, anim]) => (window as unknown as { sinewParity: Api }).sinewParity.md5(mesh, anim, 'keys'),
      [`${MD5}/Bob.md5mesh`, `${MD5}/Bob.md5anim`] as const,
    );
    console.log(`Bob: ${result.times.length} samples in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    table.push({ label: 'Bob (bind + 140 frames)', result });
    check(result);
    expect(result.model).toBe('Bob.md5mesh');
    expect(result.jointCount).toBe(33);
    expect(result.skinnedPrimitives).toBe(6);
    // The rest (bind) pose, then every frame f at f / 24 s: first and last included.
    expect(result.times.length).toBe(1 + 140);
    expect(result.times[0]).toBe('rest');
    expect(result.times[1]).toBe('Bob key 0@0.000');
    expect(result.times[140]).toBe(`Bob key 139@${(139 / 24).toFixed(3)}`);
    // 875 vertices over 6 meshes, per sample.
    for (const path of result.paths) expect(path.verticesCompared).toBe(875 * 141);
  });

  test('SimpleCube.md5mesh: bind pose', async ({ page }) => {
    const result = await page.evaluate(
      (mesh) => (window as unknown as { sinewParity: Api }).sinewParity.md5(mesh, null, 'keys'),
      `${MD5}/SimpleCube.md5mesh`,
    );
    table.push({ label: 'SimpleCube (bind)', result });
    check(result);
    expect(result.model).toBe('SimpleCube.md5mesh');
    expect(result.jointCount).toBe(3);
    // No SimpleCube.md5anim next to it: the bind pose only, and the loader says so.
    expect(result.times).toEqual(['rest']);
    expect(result.warnings.join('\n')).toMatch(/no SimpleCube\.md5anim/);
    for (const path of result.paths) expect(path.verticesCompared).toBe(24);
  });

  test.afterAll(() => printParityTable(table));
});
