import { expect } from '@playwright/test';
import { requireSharedAssets } from '../helpers/viewer-page.ts';
import { test } from '../helpers/crowd-parity-page.ts';
import type { CrowdParity } from '../pages/crowd-parity.ts';
import type { SkinningMethod } from '../../../src/skinning/skinning-method.ts';

// Instanced skinning (src/crowd/crowd.ts, shaders/skinned.vert INSTANCED): every instance of one instanced draw,
// read back by transform feedback, equals the CPU reference (skinVertices with the crowd's skinning method, or
// a rigid mesh's node matrix) posed at that instance's clip and time and placed by its world matrix (f64),
// within 1e-5 × that instance's diagonal; live, and baked at the baked frame times. Two of the six instances
// mirror (det W < 0): they are drawn as the second range, their normals by W's inverse transpose. Between
// baked frames the baked error is reported (README "Crowds").

type Api = { run: (model: string, mode: 'live' | 'baked', method?: SkinningMethod, blend?: boolean, graph?: boolean) => Promise<CrowdParity> };

const LBS: SkinningMethod = { skinning: 'lbs', weights: 'normalize' };
const DQS: SkinningMethod = { skinning: 'dqs', weights: 'normalize' };

const CASES: { model: string; method: SkinningMethod }[] = [
  { model: 'octopus', method: LBS },
  { model: 'worm-5000', method: LBS },
  { model: 'Fox.glb', method: LBS },
  { model: 'CesiumMan.glb', method: LBS },
  // A rigid box held by a joint: drawn instanced by its node's matrix in each instance's pose.
  { model: 'worm+prop', method: LBS },
  { model: 'CesiumMan.glb+prop', method: DQS },
  // The built-in sword carried by every instance (CrowdOptions.props → withProp), where propMatrix puts it on the
  // character alone (README "Attachments").
  { model: 'octopus+sword', method: LBS },
  { model: 'Fox.glb+sword', method: LBS },
  { model: 'Fox.glb+sword', method: DQS },
  { model: 'CesiumMan.glb+sword', method: DQS },
  // Skinning methods and weight policies as the single-model renderer has them (docs/skinning-formulas.md S0, S2).
  { model: 'worm-5000', method: DQS },
  { model: 'Fox.glb', method: DQS },
  { model: 'uneven:worm-5000', method: { skinning: 'lbs', weights: 'as-stored' } },
  { model: 'uneven:worm-5000', method: { skinning: 'lbs', weights: 'rest-remainder' } },
  { model: 'uneven:worm-5000', method: { skinning: 'lbs', weights: 'implicit-last' } },
  { model: 'uneven:worm-5000', method: { skinning: 'dqs', weights: 'rest-remainder' } },
  // The model origin O ≠ 0 (the model 1 300 m from model space's origin, its instances moved back): LBS folds
  // each instance's W·T(O) into its joints (src/crowd/gpu/instance-prepass.ts), and the policies whose weights leave a
  // share at rest or missing read W's own translation W't − W'O.
  { model: 'far:worm-5000', method: LBS },
  { model: 'far:uneven:worm-5000', method: { skinning: 'lbs', weights: 'as-stored' } },
  { model: 'far:uneven:worm-5000', method: { skinning: 'lbs', weights: 'rest-remainder' } },
  { model: 'far:worm+prop', method: DQS },
  // 40 instances: blocks across 4–6 rows of the instance texture, some straddling two (skinned.vert's row arithmetic).
  { model: 'many:worm-5000', method: LBS },
  { model: 'many:worm+prop', method: DQS },
  // 8 influences (second attribute pair) and 12 (overflow texture), weights not summing to 1.
  { model: 'wide-8', method: { skinning: 'lbs', weights: 'normalize' } },
  { model: 'wide-12', method: { skinning: 'dqs', weights: 'as-stored' } },
  // Morph targets at each instance's weights (animated by its clip), before skinning or the rigid node's matrix.
  { model: 'morph-tube', method: LBS },
  { model: 'morph-tube', method: DQS },
  { model: 'morph-tube-rigid', method: LBS },
  { model: 'SimpleMorph.gltf', method: LBS },
];

// Three instances of each also play a second clip, blended at their own weights (Crowd.blend): live, the local
// poses blended as the Animator crossfades (the crowd kernel's blend where it poses the crowd, blendLayers
// otherwise); baked, the two clips' baked matrices, rows linearly (LBS only: a DQS blend is not a linear one).
const BLENDED: { model: string; method: SkinningMethod; modes: readonly ('live' | 'baked')[] }[] = [
  { model: 'worm-5000', method: LBS, modes: ['live', 'baked'] },
  { model: 'Fox.glb', method: LBS, modes: ['live', 'baked'] },
  { model: 'Fox.glb', method: DQS, modes: ['live'] },
  { model: 'worm+prop', method: LBS, modes: ['live', 'baked'] },
  { model: 'morph-tube', method: LBS, modes: ['live', 'baked'] },
  { model: 'octopus', method: LBS, modes: ['live'] },
];

const RUNS = [
  ...CASES.flatMap(({ model, method }) => (['live', 'baked'] as const).map((mode) => ({ model, method, mode, blend: false }))),
  ...BLENDED.flatMap(({ model, method, modes }) => modes.map((mode) => ({ model, method, mode, blend: true }))),
];

// Every instance runs an animation graph (Crowd.setAnimationGraph, live): its clips, times and weights come from
// its graph — a 1D tree blending two clips, and for half of them a transition blending in a third (the crowd
// kernel's extra clips where it poses the crowd, InstanceBlend otherwise) — and each instance drawn equals the CPU
// reference of that pose (Crowd.evaluateInstance).
const GRAPHED: { model: string; method: SkinningMethod }[] = [
  { model: 'worm-5000', method: LBS },
  { model: 'Fox.glb', method: LBS },
  { model: 'Fox.glb', method: DQS },
  { model: 'worm+prop', method: LBS },
];

for (const { model, method } of GRAPHED) {
  test(`instanced live ${method.skinning}/${method.weights} skinning of ${model}, every instance running an animation graph, half of them in a transition blending three clips: every instance equals the CPU pose`, async ({ crowdParityPage: page }) => {
    if (model.includes('.glb')) requireSharedAssets();
    const url = model.includes('.glb') ? `/shared/assets/gltf/${model}` : model;
    const result = await page.evaluate(([u, s]) => (window as unknown as { sinewCrowdParity: Api }).sinewCrowdParity.run(u, 'live', s, false, true), [url, method] as const);
    console.log(JSON.stringify(result));
    expect(result.instances).toBe(6);
    // Six instances between the tree's two points; the even three a third into the transition.
    expect(result.blended).toBe(6);
    expect(result.threeClips).toBe(3);
    expect(result.verticesCompared).toBeGreaterThan(0);
    expect(result.maxRelativePositionError).toBeLessThanOrEqual(1e-5);
    expect(result.maxNormalError).toBeLessThanOrEqual(1e-4);
  });
}

for (const { model, method, mode, blend } of RUNS) {
  test(`instanced ${mode} ${method.skinning}/${method.weights} skinning of ${model}${blend ? ', three instances blending two clips' : ''}: every instance equals the CPU pose at its time`, async ({ crowdParityPage: page }) => {
    if (model.includes('.glb') || model.includes('.gltf')) requireSharedAssets();
    const url = !model.includes('.glb') && !model.includes('.gltf') ? model : model.replace(/^(uneven:)?/, `$1/shared/assets/gltf/`);
    const result = await page.evaluate(([u, m, s, b]) => (window as unknown as { sinewCrowdParity: Api }).sinewCrowdParity.run(u, m, s, b), [url, mode, method, blend] as const);
    console.log(JSON.stringify(result));
    const many = model.startsWith('many:');
    // Instances k ≡ 1 (mod 3) mirror (the page's worldOf).
    expect(result.instances).toBe(many ? 40 : 6);
    expect(result.mirrored).toBe(many ? 13 : 2);
    expect(result.blended).toBe(blend ? 3 : 0);
    expect(result.verticesCompared).toBeGreaterThan(0);
    if (model.endsWith('+prop')) expect(result.rigidVerticesCompared).toBe(result.instances * 24);
    if (model.endsWith('+sword')) {
      expect(result.attachmentVerticesCompared).toBe(6 * (48 + 48 + 24));
      expect(result.maxAttachmentError).toBeLessThanOrEqual(1e-5);
    }
    if (model.includes('morph') || model.includes('Morph')) expect(result.morphedVerticesCompared).toBeGreaterThan(0);
    if (model.startsWith('far:')) expect(result.originDistance).toBeGreaterThan(1024);
    expect(result.maxRelativePositionError).toBeLessThanOrEqual(1e-5);
    expect(result.maxNormalError).toBeLessThanOrEqual(1e-4);
    if (mode === 'baked') expect(result.maxBakedInterpolationError).toBeGreaterThan(0);
  });
}
