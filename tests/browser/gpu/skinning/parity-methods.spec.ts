import { expect } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { test } from '../../helpers/parity-page.ts';
import type { ModelParity, Sampling } from '../../pages/parity.ts';
import { expectParity, printParityTable } from '../../helpers/parity-report.ts';
import { SKINNING_MODES, WEIGHT_POLICIES, type SkinningMethod } from '../../../../src/skinning/skinning-method.ts';

// GPU-vs-CPU parity of every skinning method — LBS and DQS (Kavan et al. 2008, two-phase for scale) × every
// weight policy (docs/skinning-formulas.md S0, S2) — on every palette path (uniform, ubo, texture, texture
// with wrapped rows): shaders/skinned.vert's variant through transform feedback against skinVertices with the
// same method; tangents too where the model has them. Tolerance as parity.spec.ts: max |Δp| ≤ 1e-5 ×
// bounding-box diagonal, max |Δn| and max |Δt| ≤ 1e-4.

const METHODS: SkinningMethod[] = SKINNING_MODES.flatMap((skinning) => WEIGHT_POLICIES.map((weights) => ({ skinning, weights })));

type Api = {
  generated: (methods: SkinningMethod[]) => Promise<ModelParity>;
  unevenWeights: (methods: SkinningMethod[]) => Promise<ModelParity>;
  twist: (uneven: boolean, methods: SkinningMethod[]) => Promise<ModelParity>;
  jointChain: (jointCount: number, methods: SkinningMethod[]) => Promise<ModelParity>;
  wideChain: (influenceCount: number, methods: SkinningMethod[]) => Promise<ModelParity>;
  url: (url: string, methods: SkinningMethod[]) => Promise<ModelParity>;
  urlBent: (url: string, methods: SkinningMethod[]) => Promise<ModelParity>;
  md5: (meshUrl: string, animUrl: string | null, sampling: Sampling, methods: SkinningMethod[]) => Promise<ModelParity>;
};

const table: { label: string; result: ModelParity }[] = [];

function check(result: ModelParity, label = result.model): void {
  table.push({ label, result });
  expectParity(result);
  expect(result.paths.length).toBe(4 * METHODS.length);
  // Every method ran on the texture paths.
  for (const path of result.paths) if (path.path.startsWith('texture')) expect(path.skipped, `${path.method} ${path.path}`).toBeNull();
}

test.describe('GPU-vs-CPU parity for every skinning mode × weight policy × palette path', () => {
  test('generated bending box (weights summing to 0.6 and 0 on some vertices)', async ({ parityPage: page }) => {
    check(await page.evaluate((m) => (window as unknown as { sinewParity: Api }).sinewParity.generated(m), METHODS));
  });

  test('generated bending box with uneven weights (sums 0.6 … 1.3)', async ({ parityPage: page }) => {
    check(await page.evaluate((m) => (window as unknown as { sinewParity: Api }).sinewParity.unevenWeights(m), METHODS));
  });

  test('generated twisting cylinder (170°, with tangents of both handednesses), plain and with uneven weights', async ({ parityPage: page }) => {
    for (const uneven of [false, true]) {
      const result = await page.evaluate(([u, m]) => (window as unknown as { sinewParity: Api }).sinewParity.twist(u, m), [uneven, METHODS] as const);
      check(result);
      for (const path of result.paths) if (!path.skipped) expect(path.tangentsCompared, `${path.method} ${path.path}: tangents`).toBeGreaterThan(0);
    }
  });

  test('generated 1 024-joint chain', async ({ parityPage: page }) => {
    check(await page.evaluate((m) => (window as unknown as { sinewParity: Api }).sinewParity.jointChain(1024, m), METHODS));
  });

  for (const influences of [8, 12]) {
    test(`generated 32-joint chain with ${influences} influences per vertex (uneven weight sums, an empty slot)`, async ({ parityPage: page }) => {
      const result = await page.evaluate(([c, m]) => (window as unknown as { sinewParity: Api }).sinewParity.wideChain(c, m), [influences, METHODS] as const);
      check(result);
      expect(result.influences).toBe(influences);
      expect(result.paths.every((p) => p.skipped === null)).toBe(true);
    });
  }

  test('quad_skin.glb with a bend clip (12 influence slots, up to 10 weighted)', async ({ parityPage: page }) => {
    requireSharedAssets();
    const result = await page.evaluate(([url, m]) => (window as unknown as { sinewParity: Api }).sinewParity.urlBent(url, m),
      ['/shared/assets/gltf/quad_skin.glb', METHODS] as const);
    check(result);
    expect(result.influences).toBe(12);
  });

  for (const file of ['CesiumMan.glb', 'Fox.glb', 'RiggedFigure.glb', 'RecursiveSkeletons.glb']) {
    test(file, async ({ parityPage: page }) => {
      requireSharedAssets();
      check(await page.evaluate(([url, m]) => (window as unknown as { sinewParity: Api }).sinewParity.url(url, m),
        [`/shared/assets/gltf/${file}`, METHODS] as const));
    });
  }

  test('Bob.md5mesh + Bob.md5anim (rest and 5 spread times)', async ({ parityPage: page }) => {
    requireSharedAssets();
    check(await page.evaluate(([mesh, anim, m]) => (window as unknown as { sinewParity: Api }).sinewParity.md5(mesh, anim, 'spread', m),
      ['/shared/assets/md5/Bob.md5mesh', '/shared/assets/md5/Bob.md5anim', METHODS] as const));
  });

  test.afterAll(() => printParityTable(table));
});
