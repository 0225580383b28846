import { expect, test } from '@playwright/test';
import { openHarness } from '../../helpers/harness.ts';
import type { ModelParity } from '../../pages/parity.ts';
import type { SkinningMethod } from '../../../../src/skinning/skinning-method.ts';
import { expectParity, printParityTable } from '../../helpers/parity-report.ts';

// GPU = CPU with spring bones active: the generated VRM avatar (hair, tail and ear chains, colliders of every shape,
// node constraints) walking, its springs simulated at 60 Hz for the second before each sample with a wind
// (tests/browser/pages/parity.ts springAvatar). The palette both sides skin from carries the springs' rotations;
// tolerances as parity.spec.ts (max |Δp| ≤ 1e-5 × the bounding-box diagonal). The springs must visibly move the
// hair and tail from the springs-off pose, or the comparison would prove nothing about them.

type Api = { springAvatar: (methods?: SkinningMethod[]) => Promise<ModelParity & { springDisplacement: number }> };
const METHODS: SkinningMethod[] = [{ skinning: 'lbs', weights: 'normalize' }, { skinning: 'dqs', weights: 'normalize' }];

test('generated avatar walking with springs at 60 Hz and wind: GPU = CPU on every palette path', async ({ page }) => {
  test.setTimeout(600_000);
  await openHarness(page, '/tests/browser/pages/parity.html', 'sinewParityReady');
  const result = await page.evaluate((m) => (window as unknown as { sinewParity: Api }).sinewParity.springAvatar(m), METHODS);
  printParityTable([{ label: `generated avatar, springs + wind (springs move vertices up to ${result.springDisplacement.toFixed(3)} m)`, result }]);
  expectParity(result);
  expect(result.times.length).toBe(6);
  expect(result.paths.some((p) => p.skipped === null)).toBe(true);
  // The hair and tail swing centimetres to decimetres off the clip's pose (the avatar is about 1.7 m tall).
  expect(result.springDisplacement).toBeGreaterThan(0.05);
  expect(result.springDisplacement).toBeLessThan(result.diagonal);
});
