import { expect, test } from '@playwright/test';
import { requireSharedAssets } from '../helpers/viewer-page.ts';
import { openHarness } from '../helpers/harness.ts';
import type { PickReport, PickRequest } from '../pages/pick.ts';

// pickModel must agree with the GPU (tests/browser/pages/pick.ts): on every shared skinned model at several
// clip times, a frame is drawn by SkinnedRenderer and read back, and a grid of pixels is picked through their
// centres (PixelRays). Where pick hits, the hit point projects within 1 px of that pixel and the GPU drew the
// model there (or on a neighbour: silhouette pixels are a rasterisation call); where the GPU drew a pixel and all
// its neighbours, pick hits. Hit triangles' vertices equal the GPU's (transform feedback) within the parity
// tolerance, 1e-5 × the posed model's diagonal (tests/browser/gpu/skinning/parity.spec.ts).

type Api = { run(request: PickRequest): Promise<PickReport> };

const MODELS: { file: string; yaw: number; pitch: number }[] = [
  { file: 'gltf/SimpleSkin.gltf', yaw: 0.3, pitch: 0.1 },
  { file: 'gltf/RiggedSimple.glb', yaw: 0.8, pitch: 0.2 },
  { file: 'gltf/RiggedFigure.glb', yaw: 0.6, pitch: 0.25 },
  { file: 'gltf/CesiumMan.glb', yaw: 0.9, pitch: 0.15 },
  { file: 'gltf/Fox.glb', yaw: 0.7, pitch: 0.3 },
  { file: 'md5/Bob.md5mesh', yaw: 2.2, pitch: 0.2 },
];

const rows: string[] = [];

test.describe('pickModel agrees with the GPU', () => {
  test.beforeEach(async ({ page }) => {
    await openHarness(page, '/tests/browser/pages/pick.html', 'sinewPickReady');
  });

  for (const { file, yaw, pitch } of MODELS) {
    test(file, async ({ page }) => {
      requireSharedAssets();
      const methods = file.includes('Fox') ? [{ skinning: 'lbs', weights: 'normalize' }, { skinning: 'dqs', weights: 'normalize' }] as const
        : [{ skinning: 'lbs', weights: 'normalize' }] as const;
      for (const method of methods) {
        for (const at of [0.15, 0.5, 0.85]) {
          const request: PickRequest = { model: `/shared/assets/${file}`, clip: 0, at, method, yaw, pitch, stride: 2, turn: 0.4 };
          const r = await page.evaluate((q) => (window as unknown as { sinewPick: Api }).sinewPick.run(q), request);
          const label = `${file} ${method.skinning} at ${at}`;
          rows.push(`${label.padEnd(36)} picked ${r.picked}, hits ${r.hits} (within 1 px ${r.projectedWithin1px}, on GPU pixels ${r.hitsOnGpu}), ` +
            `interior ${r.interior} (hit ${r.interiorHit}), triangles vs GPU ${r.trianglesChecked} max |Δ| ${r.maxVertexError.toExponential(1)} ` +
            `(diag ${r.diagonal.toPrecision(3)}), ${(1000 * r.pickMsMean).toFixed(0)} µs/pick`);
          expect(r.hits, `${label}: the model is in the picture`).toBeGreaterThan(50);
          expect(r.projectedWithin1px, `${label}: worst ${r.worstProjection}`).toBe(r.hits);
          expect(r.hitsOffGpu, `${label}: hits where the GPU drew nothing`).toEqual([]);
          expect(r.hitsOnGpu).toBe(r.hits);
          expect(r.interiorMissed, `${label}: GPU pixels pick missed`).toEqual([]);
          expect(r.interiorHit).toBe(r.interior);
          expect(r.trianglesChecked, label).toBeGreaterThan(0);
          expect(r.maxVertexError, label).toBeLessThanOrEqual(1e-5 * r.diagonal);
        }
      }
    });
  }

  test.afterAll(() => console.log(`\npick vs GPU:\n${rows.join('\n')}`));
});
