import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../../helpers/viewer-page.ts';
import { openHarness } from '../../helpers/harness.ts';
import type { ModelParity } from '../../pages/parity.ts';
import type { MorphTubeOptions } from '../../../unit/helpers/morph-tube.ts';
import type { SkinningMethod } from '../../../../src/skinning/skinning-method.ts';
import { expectParity, printParityTable } from '../../helpers/parity-report.ts';
import { compressModel } from '../../../unit/helpers/compress-model.ts';
import { skinnedMorphTube } from '../../../unit/helpers/morph-tube.ts';

// GPU-vs-CPU parity with morph targets: the MORPH_TARGETS variant of shaders/skinned.vert (deltas and the
// active-target list from float textures, src/gpu/skinning/morph-texture.ts) through transform feedback against
// MorphedPrimitive then skinVertices (docs/skinning-formulas.md M0, S0), per vertex, on every palette path.
// Tolerances as parity.spec.ts: max |Δp| ≤ 1e-5 × bounding-box diagonal, unit normals / tangents ≤ 1e-4.

type Api = {
  morphUrl: (url: string, methods?: SkinningMethod[]) => Promise<ModelParity>;
  morphTube: (options: MorphTubeOptions, methods?: SkinningMethod[]) => Promise<ModelParity>;
  morphTubeAvatar: (methods?: SkinningMethod[]) => Promise<ModelParity>;
};

const METHODS: SkinningMethod[] = [{ skinning: 'lbs', weights: 'normalize' }, { skinning: 'dqs', weights: 'normalize' }];
const table: { label: string; result: ModelParity }[] = [];

function check(label: string, result: ModelParity, morphTargets: number): void {
  table.push({ label, result });
  expectParity(result);
  expect(result.morphTargets).toBe(morphTargets);
  for (const path of result.paths) expect(path.skipped, `${label} ${path.path}`).toBeNull();
}

test.describe('GPU-vs-CPU transform-feedback parity with morph targets', () => {
  test.beforeEach(async ({ page }) => {
    await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
  });

  test('SimpleMorph.gltf: morph targets alone (rigid), rest pose and 5 times of its weights clip', async ({ page }) => {
    requireSharedAssets();
    const result = await page.evaluate((url) => (window as unknown as { sinewParity: Api }).sinewParity.morphUrl(url), '/shared/assets/gltf/SimpleMorph.gltf');
    check('SimpleMorph.gltf', result, 2);
    expect(result.times.length).toBe(6);
  });

  for (const [label, options, targets] of [
    ['tube skinned + 3 targets, LINEAR weights', { interpolation: 'LINEAR' }, 3],
    ['tube skinned + 3 targets, CUBICSPLINE weights', { interpolation: 'CUBICSPLINE' }, 3],
    ['tube rigid + 3 targets', { skinned: false }, 3],
    // More targets than one 2 048-texel row of the active list and of the deltas: rows wrap on both.
    ['tube skinned + 2 100 targets', { targets: 2100 }, 2100],
  ] as const) {
    test(label, async ({ page }) => {
      const result = await page.evaluate(
        ([o, m]) => (window as unknown as { sinewParity: Api }).sinewParity.morphTube(o, m),
        [options, METHODS] as const,
      );
      check(label, result, targets);
      expect(result.paths.filter((p) => p.tangentsCompared > 0).length).toBe(result.paths.length);
    });
  }

  test('tube skinned + 3 targets, Draco-compressed (targets uncompressed, vertices re-ordered by the encoder)', async ({ page }) => {
    const body = Buffer.from(await compressModel(skinnedMorphTube().glb(), 'draco'));
    await page.route('**/compressed/morph-tube-draco.glb', (route) => route.fulfill({ body, contentType: 'model/gltf-binary' }));
    const result = await page.evaluate(
      ([url, m]) => (window as unknown as { sinewParity: Api }).sinewParity.morphUrl(url, m),
      ['/compressed/morph-tube-draco.glb', METHODS] as const,
    );
    check('tube skinned + 3 targets, Draco', result, 3);
  });

  test('tube skinned + 3 targets as an avatar, expressions active and bone look-at turning a joint', async ({ page }) => {
    const result = await page.evaluate((m) => (window as unknown as { sinewParity: Api }).sinewParity.morphTubeAvatar(m), METHODS);
    check('tube avatar, expressions + look-at', result, 3);
  });

  test.afterAll(() => printParityTable(table));
});
