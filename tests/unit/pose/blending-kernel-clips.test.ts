/**
 * The blending kernel on real clips: the shared Fox's Walk, Run and Survey sampled into a pose kernel's arena,
 * then blended (crossfades, three layers, a limb mask, Survey added relative to its first frame) by the kernel
 * and by blendLayers' portable loops, its reference; and an Animator crossfading, masked and additive whose
 * every blend runs in the kernel (a spy on the back end), against the same Animator on the portable loops.
 * Skips when ../shared/assets is absent, fails then when CI is set.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Animator } from '../../../src/animation/animator.ts';
import { BlendingJob, blendLayers } from '../../../src/animation/blending-job.ts';
import { compileClip, type RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createBlendingKernel } from '../../../src/pose/blending-kernel.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { cloneLocalPose, copyLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { subtreeMask } from '../../../src/skeleton/subtree-mask.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

/** Kernel − portable per blend, as in blending-kernel.test.ts: |Δ|/(1 + |x|) per translation or scale, |Δ| per rotation. */
const TOLERANCE = 1e-6;
/** The animator's frame chains four blends (clips, layer over base, masked layer, additive): four times the bound. */
const ANIMATOR_TOLERANCE = 4 * TOLERANCE;

const assets = sharedAssets();

function difference(a: LocalPose, b: LocalPose): number {
  let worst = 0;
  for (let i = 0; i < b.translations.length; i++) {
    worst = Math.max(worst, Math.abs(a.translations[i] - b.translations[i]) / (1 + Math.abs(b.translations[i])));
    worst = Math.max(worst, Math.abs(a.scales[i] - b.scales[i]) / (1 + Math.abs(b.scales[i])));
  }
  for (let i = 0; i < b.rotations.length; i++) worst = Math.max(worst, Math.abs(a.rotations[i] - b.rotations[i]));
  return Number.isNaN(worst) ? Infinity : worst;
}

async function fox(): Promise<{ asset: ModelAsset; walk: RuntimeClip; run: RuntimeClip; survey: RuntimeClip; limb: number }> {
  const asset = await loadModelFromPath(join(assets!, 'gltf/Fox.glb'));
  const n = asset.skeleton.jointCount;
  const clip = (name: string) => compileClip(asset.clips.find((c) => c.name === name)!, n);
  // A limb: the first joint whose subtree holds between 3 joints and half the skeleton.
  let limb = -1;
  for (let j = 0; j < n && limb < 0; j++) {
    const size = subtreeMask(asset.skeleton, j).reduce((s, m) => s + m, 0);
    if (size >= 3 && size <= n / 2) limb = j;
  }
  return { asset, walk: clip('Walk'), run: clip('Run'), survey: clip('Survey'), limb };
}

describe.skipIf(assets === null)('blending kernel on the shared Fox clips', () => {
  it(`blends Walk, Run and Survey sampled in the arena as the portable loops do, within ${TOLERANCE}`, async () => {
    const { asset, walk, run, survey, limb } = await fox();
    const n = asset.skeleton.jointCount;
    const arena = new PoseKernel(asset.skeleton, asset.skins, undefined, { arenaBytes: 1 << 20 }).arena!;
    const kernel = createBlendingKernel(arena)!;
    const context = new SamplingContext();
    const sampled = (clip: RuntimeClip, t: number) => {
      const pose = arena.createPose(n)!;
      copyLocalPose(pose, asset.restPose);
      return sampleClip(pose, clip, t, context);
    };
    const mask = kernel.createJointWeights(n)!;
    mask.set(subtreeMask(asset.skeleton, limb));
    const complement = kernel.createJointWeights(n)!;
    const rest = arena.createPose(n)!;
    copyLocalPose(rest, asset.restPose);
    let worst = 0, jobs = 0;
    for (let k = 0; k < 12; k++) {
      const t = 0.137 * k, alpha = k / 11;
      const w = sampled(walk, t), r = sampled(run, t * 0.7), s = sampled(survey, t * 1.3), s0 = sampled(survey, 0);
      for (let j = 0; j < n; j++) complement[j] = 1 - alpha * mask[j];
      const jobsOf: ((job: BlendingJob) => void)[] = [
        (job) => { job.addLayer(w, 1 - alpha); job.addLayer(r, alpha); }, // a crossfade
        (job) => { job.addLayer(w, 0.5); job.addLayer(r, 0.3); job.addLayer(s, 0.2); }, // three layers
        (job) => { job.addLayer(w, 1, complement); job.addLayer(s, alpha, mask); }, // Survey on one limb
        (job) => { job.addLayer(w, 1 - alpha); job.addLayer(r, alpha); job.addAdditiveLayer(s, s0, 0.8); }, // + Survey's motion
        (job) => { job.addLayer(r, 1); job.addAdditiveLayer(s, s0, 1, mask); }, // + Survey's motion on one limb
        (job) => { job.addLayer(w, 0.03, mask); job.addLayer(r, 0.02); job.restPose = rest; }, // under the threshold
      ];
      for (const build of jobsOf) {
        const simd = new BlendingJob(), portable = new BlendingJob();
        build(simd);
        build(portable);
        simd.kernel = kernel;
        const expected = blendLayers(createLocalPose(n), portable), out = arena.createPose(n)!;
        expect(kernel.blend(out, simd, n)).toBe(true);
        worst = Math.max(worst, difference(out, expected));
        jobs++;
      }
    }
    expect(jobs).toBe(72);
    expect(worst).toBeLessThanOrEqual(TOLERANCE);
  });

  it('runs an Animator crossfading, with a masked layer and an additive layer, in the kernel: every blend, within the bound', async () => {
    const { asset, walk, run, survey, limb } = await fox();
    const n = asset.skeleton.jointCount;
    const poseKernel = new PoseKernel(asset.skeleton, asset.skins, undefined, { arenaBytes: 1 << 20 });
    const arena = poseKernel.arena!;
    const blendingKernel = createBlendingKernel(arena)!;
    const spy = vi.spyOn(blendingKernel, 'blend');
    // Sampling stays portable in both: only the blending differs.
    const simd = new Animator(n, { blendingKernel, createPose: (j, m) => arena.createPose(j, m)! });
    const portable = new Animator(n);
    for (const animator of [simd, portable]) {
      animator.play(walk);
      animator.play(run, { fade: 0.5 }); // base layer crossfading
      const upper = animator.addLayer({ weight: 0.7, mask: subtreeMask(asset.skeleton, limb) });
      animator.play(survey, { layer: upper });
      const additive = animator.addLayer({ mode: 'additive', weight: 0.6 });
      animator.play(survey, { layer: additive, startTime: 0.4 });
    }
    const expected = createLocalPose(n);
    let worst = 0;
    for (let frame = 0; frame < 20; frame++) {
      simd.update(1 / 60);
      portable.update(1 / 60);
      spy.mockClear();
      simd.evaluate(poseKernel.pose, asset.restPose);
      portable.evaluate(expected, asset.restPose);
      // The base layer's two clips, the base over the rest pose, the masked layer, the additive layer.
      expect(spy.mock.results.map((r) => r.value)).toEqual([true, true, true, true]);
      worst = Math.max(worst, difference(poseKernel.pose, expected));
    }
    expect(worst).toBeLessThanOrEqual(ANIMATOR_TOLERANCE);
    expect(worst).toBeGreaterThan(0); // float32 sums: the kernel's
    expect(difference(cloneLocalPose(poseKernel.pose), asset.restPose)).toBeGreaterThan(0.01); // it moved
  });
});
