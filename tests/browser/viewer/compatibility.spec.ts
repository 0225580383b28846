/**
 * docs/compatibility.md in the viewer: a file with deviations real exporters make opens, draws, and lists its
 * warnings (one per deviation) in the panel, whose summary counts joints per skin.
 */
import { test, expect } from '@playwright/test';
import { skinnedQuad } from '../../unit/helpers/gltf-builder.ts';
import { collectErrors, isolateFromLiveReload, openViewer } from '../helpers/viewer-page.ts';

test.beforeEach(({ page }) => isolateFromLiveReload(page));

/**
 * The test quad (2 joints over 3 nodes) whose skinned node's mesh also holds an unskinned triangle, with its
 * node moved 1.5 along x (the skinned quad ignores that, the triangle moves with it), and a clip repeating a
 * key time.
 */
function mixedModel(): Uint8Array {
  const b = skinnedQuad();
  const position = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, 0.5, 1, 0]), 'VEC3', { min: [0, 0, 0], max: [1, 1, 0] });
  b.json.meshes[0].primitives.push({ attributes: { POSITION: position } });
  b.json.nodes[1].translation = [1.5, 0, 0];
  const times = b.accessor(new Float32Array([0, 0.5, 0.5, 1]), 'SCALAR', { min: [0], max: [1] });
  const moves = b.accessor(new Float32Array([0, 0, 0, 0, 0.2, 0, 0, -0.2, 0, 0, 0, 0]), 'VEC3');
  const animation = b.json.animations[0];
  animation.samplers.push({ input: times, output: moves });
  animation.channels.push({ sampler: 1, target: { node: 2, path: 'translation' } });
  b.json.materials = [{ doubleSided: true, pbrMetallicRoughness: { baseColorFactor: [0.9, 0.6, 0.2, 1] } }];
  for (const p of b.json.meshes[0].primitives) p.material = 0;
  return b.glb();
}

test('a mixed skinned / unskinned mesh with a repeated key time opens; the panel lists its warnings and counts joints per skin', async ({ page }) => {
  const errors = collectErrors(page);
  await openViewer(page, '?yaw=0&pitch=0');
  const url = `data:model/gltf-binary;base64,${Buffer.from(mixedModel()).toString('base64')}`;
  expect(await page.evaluate((u) => window.sinew!.loadUrl(u, 'mixed.glb'), url)).toBe(true);
  expect((await page.evaluate(() => window.sinew!.state())).error).toBeNull();
  await expect(page.locator('#sinew-summary')).toHaveText('2 joints · 7 vertices · 1 clip');
  const warnings = page.locator('#sinew-warnings');
  await expect(warnings).toBeVisible();
  await expect(warnings.locator('summary')).toHaveText('2 warnings');
  await warnings.locator('summary').click();
  await expect(warnings.locator('li')).toHaveText([
    'mixed.glb: skinned node 1 carries a mesh that mixes primitives with and without JOINTS_0/WEIGHTS_0; the ones without are drawn rigidly with the node',
    'mixed.glb: 1 of 2 animation samplers repeat a key time (first /animations/0/samplers/1/input key 2 at 0.5); played as a step: the later key holds from that time',
  ]);
  // The picture alone: the rigid triangle beside its node's place, the skinned quad at the skin's.
  await page.evaluate(() => {
    document.getElementById('sinew-panel')!.hidden = true;
    document.getElementById('sinew-banner')!.hidden = true;
    window.sinew!.pause();
    window.sinew!.setTime(0.5);
    window.sinew!.renderOnce();
  });
  await expect(page.locator('#sinew-canvas')).toHaveScreenshot('mixed-primitives.png', { maxDiffPixelRatio: 0.005 });
  expect(errors).toEqual([]);
});

test('a model without warnings hides the list', async ({ page }) => {
  await openViewer(page);
  await expect(page.locator('#sinew-warnings')).toBeHidden();
  await expect(page.locator('#sinew-summary')).toHaveText(/^49 joints · /);
});
