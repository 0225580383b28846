import { expect, test } from '@playwright/test';
import { openHarness, sharedAssetsAvailable, SHARED_ASSETS } from './helpers/harness.ts';
import type { CrowdParity } from './pages/crowd-parity.ts';

// Instanced skinning (src/crowd/crowd.ts, shaders/skinned.vert INSTANCED): every instance of one instanced draw,
// read back by transform feedback, equals the CPU reference (skinVertices) posed at that instance's clip and
// time and placed by its world matrix (f64), within 1e-5 × that instance's diagonal; live, and baked at the
// baked frame times. Between baked frames the baked error is reported (README "Crowds").

type Api = { run: (model: string, mode: 'live' | 'baked') => Promise<CrowdParity> };

const MODELS = ['octopus', 'worm-5000', 'Fox.glb', 'CesiumMan.glb'];

for (const model of MODELS) {
  for (const mode of ['live', 'baked'] as const) {
    test(`instanced ${mode} skinning of ${model}: every instance equals the CPU pose at its time`, async ({ page }) => {
      if (model.endsWith('.glb')) test.skip(!sharedAssetsAvailable(), `${SHARED_ASSETS} is absent`);
      await openHarness(page, '/tests/browser/pages/crowd-parity.html', 'sinewCrowdParityReady');
      const url = !model.endsWith('.glb') ? model : `/shared/assets/gltf/${model}`;
      const result = await page.evaluate(([u, m]) => (window as unknown as { sinewCrowdParity: Api }).sinewCrowdParity.run(u, m), [url, mode] as const);
      console.log(JSON.stringify(result));
      expect(result.instances).toBe(6);
      expect(result.verticesCompared).toBeGreaterThan(0);
      expect(result.maxRelativePositionError).toBeLessThanOrEqual(1e-5);
      expect(result.maxNormalError).toBeLessThanOrEqual(1e-4);
      if (mode === 'baked') expect(result.maxBakedInterpolationError).toBeGreaterThan(0);
    });
  }
}
