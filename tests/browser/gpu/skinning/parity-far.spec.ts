import { expect } from '@playwright/test';
import { test } from '../../helpers/parity-page.ts';
import type { ModelParity } from '../../pages/parity.ts';
import { expectParity, printParityTable } from '../../helpers/parity-report.ts';
import { SKINNING_MODES, WEIGHT_POLICIES, type SkinningMethod } from '../../../../src/skinning/skinning-method.ts';

// GPU-vs-CPU parity 10 km from the origin (tests/browser/helpers/far-offset.ts: roots at (10 000, 0, 10 000) m):
// palettes relative to the model origin O (src/scene/model-origin.ts), so both paths skin numbers the size of
// the model; every skinning mode × weight policy (the rest share of a vertex goes to T(−O) on both) × every
// palette path. Tolerance as parity.spec.ts: max |Δp| ≤ 1e-5 × bounding-box diagonal, |Δn| ≤ 1e-4.

const METHODS: SkinningMethod[] = SKINNING_MODES.flatMap((skinning) => WEIGHT_POLICIES.map((weights) => ({ skinning, weights })));

type Api = { far: (model: 'box' | 'uneven' | 'chain', methods: SkinningMethod[], far?: boolean) => Promise<ModelParity> };

const table: { label: string; result: ModelParity }[] = [];

test.describe('GPU-vs-CPU parity 10 km from the origin', () => {
  for (const model of ['box', 'uneven', 'chain'] as const) {
    test(`${model === 'chain' ? '32-joint chain, 12 influences' : model === 'uneven' ? 'bending box, uneven weights' : 'bending box'} at (10 000, 0, 10 000) m, every method × palette path`, async ({ parityPage: page }) => {
      const result = await page.evaluate(([m, methods]) => (window as unknown as { sinewParity: Api }).sinewParity.far(m, methods), [model, METHODS] as const);
      table.push({ label: `${model} @ 10 km`, result });
      expectParity(result);
      expect(result.paths.length).toBe(4 * METHODS.length);
      for (const path of result.paths) expect(path.skipped, `${path.method} ${path.path}`).toBeNull();
      // The diagonal above includes vertices the file leaves near the world origin (no weight; as-stored pulls
      // toward it), i.e. ≈ 1.4e4 m away. Where every vertex follows the model (normalize, implicit-last), hold
      // the error to 1e-5 × the diagonal of the same model at the origin instead.
      const near = await page.evaluate(([m]) => (window as unknown as { sinewParity: Api }).sinewParity.far(m, [{ skinning: 'lbs', weights: 'implicit-last' }], false), [model] as const);
      for (const path of result.paths) {
        if (!/normalize|implicit-last/.test(path.method)) continue;
        expect(path.maxPositionError, `${path.method} ${path.path} at 10 km vs 1e-5 × ${near.diagonal.toFixed(3)} m`).toBeLessThanOrEqual(1e-5 * near.diagonal);
      }
    });
  }

  test.afterAll(() => printParityTable(table));
});
