import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnimationChannel } from '../../../src/asset/animation-clip.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { BlendingJob, blendLayers } from '../../../src/animation/blending-job.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { createSamplingKernel } from '../../../src/pose/sampling-kernel.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { copyLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// Per-instance blends of two clips (Crowd.blend, Crowd.crossfade): the blended local pose against an independent
// computation — each clip sampled alone (the same sampler the path uses), then the Animator's two-layer blend
// (`blendLayers`, f64) — for the crowd kernel (float32 blend: within float32 rounding) and the per-instance path
// (equal); the crossfade's timing, its switch of clip and the root motion carried across it.

/** Clip `clip` of `crowd` at `time` over the rest pose, sampled by `context`. */
function sampled(crowd: Crowd, clip: number, time: number, context: SamplingContext): LocalPose {
  const pose = createLocalPose(crowd.asset.skeleton.jointCount, crowd.model.morphWeights.length);
  copyLocalPose(pose, crowd.asset.restPose);
  if (clip >= 0) sampleClip(pose, crowd.model.clips[clip], time, context);
  return pose;
}

function blended(a: LocalPose, b: LocalPose, w: number): LocalPose {
  if (w >= 1) return b;
  if (w <= 0) return a;
  const job = new BlendingJob();
  job.addLayer(a, 1 - w);
  job.addLayer(b, w);
  return blendLayers(a, job);
}

function worst(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('crowd instances blending two clips', async () => {
  const fox = sharedAssets() ? await parseGltf('Fox.glb', new Uint8Array(readFileSync(`${sharedAssets()}gltf/Fox.glb`))) : null;
  const cases: [string, ModelAsset, 'auto' | 'js'][] = [
    ['worm, crowd kernel', createWorm(WORM_800), 'auto'],
    ['worm, per instance', createWorm(WORM_800), 'js'],
    ['octopus (cubic clips), crowd kernel', createOctopusAsset(), 'auto'],
    ['octopus (cubic clips), per instance', createOctopusAsset(), 'js'],
  ];
  if (fox) cases.push(['Fox, crowd kernel', fox, 'auto'], ['Fox, per instance', fox, 'js']);

  for (const [name, asset, backend] of cases) {
    it(`${name}: each instance's pose is its two clips sampled alone, then blended as the Animator crossfades`, () => {
      const N = 12, crowd = new Crowd(asset, { capacity: N, backend });
      const clips = crowd.model.clips.length, weights = [0, 0.2, 0.5, 0.85, 1, 0.35];
      for (let k = 0; k < N; k++) {
        crowd.add(k % clips, 0.37 * k, 1);
        crowd.blend(k, (k + 1) % clips, 0.11 * k, weights[k % weights.length], 0.8);
      }
      // The kernel samples by its SIMD sampler; the per-instance path by the clip samples (slerp).
      const kernel = crowd.kernel !== null;
      expect(kernel, 'who poses the crowd').toBe(backend === 'auto' && name.includes('kernel'));
      const contexts = Array.from({ length: 2 * N }, () => new SamplingContext(0, kernel ? createSamplingKernel() : null));
      for (let frame = 0; frame < 6; frame++) {
        crowd.update(frame === 3 ? -0.3 : 0.07);
        crowd.prepare(null);
        for (let k = 0; k < N; k++) {
          const w = crowd.blendWeights[k];
          const a = sampled(crowd, crowd.clipIndices[k], crowd.times[k], contexts[2 * k]);
          const b = sampled(crowd, crowd.blendClipIndices[k], crowd.blendTimes[k], contexts[2 * k + 1]);
          const expected = blended(a, b, w);
          crowd.evaluateInstance(k);
          const pose = crowd.model.pose;
          // Ends exact; between, the kernel blends in float32 (a few ulps of unit quaternions and positions).
          const tolerance = kernel && w > 0 && w < 1 ? 2e-6 : 0;
          const label = `${name} instance ${k} w ${w} frame ${frame}`;
          expect(worst(pose.rotations, expected.rotations), label).toBeLessThanOrEqual(tolerance);
          expect(worst(pose.translations, expected.translations), label).toBeLessThanOrEqual(tolerance * 10);
          expect(worst(pose.scales, expected.scales), label).toBeLessThanOrEqual(tolerance);
        }
      }
    });
  }

  it('a blend changes the drawn pose, and weight 0 draws the instance\'s own clip bit for bit', () => {
    const worm = createWorm(WORM_800), plain = new Crowd(worm, { capacity: 2 }), mixed = new Crowd(worm, { capacity: 2 });
    for (const crowd of [plain, mixed]) {
      crowd.add(0, 0.4);
      crowd.add(0, 0.9);
    }
    mixed.blend(0, 1, 0.2, 0.5);
    mixed.blend(1, 1, 0.2, 0);
    plain.prepare(null);
    mixed.prepare(null);
    const texels = plain.blockTexels;
    const block = (crowd: Crowd, b: number) => crowd.blocks.subarray(4 * b * texels, 4 * (b + 1) * texels);
    expect(worst(block(plain, 0), block(mixed, 0))).toBeGreaterThan(1e-3);
    expect(block(mixed, 1)).toEqual(block(plain, 1));
  });

  it('crossfade: the weight rises over its seconds, then the clip, time and speed switch and the blend ends', () => {
    for (const backend of ['auto', 'js'] as const) {
      const crowd = new Crowd(createWorm(WORM_800), { capacity: 1, backend });
      crowd.add(0, 0.5, 1);
      crowd.crossfade(0, 1, 0.3, 0.1, 1.5);
      expect(crowd.blendWeights[0]).toBe(0);
      crowd.update(0.1);
      expect(crowd.blendWeights[0]).toBeCloseTo(1 / 3, 6);
      expect(crowd.clipIndices[0]).toBe(0);
      expect(crowd.blendTimes[0]).toBeCloseTo(0.1 + 0.15, 9);
      crowd.update(0.1);
      crowd.update(0.1);
      expect(crowd.clipIndices[0], backend).toBe(1);
      expect(crowd.times[0]).toBeCloseTo(0.1 + 3 * 0.15, 9);
      expect(crowd.speeds[0]).toBe(1.5);
      expect(crowd.blendWeights[0]).toBe(0);
      expect(crowd.fadeRates[0]).toBe(0);
      crowd.crossfade(0, 0, 0);
      expect(crowd.clipIndices[0]).toBe(0);
      expect(() => crowd.blend(0, 7)).toThrow(RangeError);
      expect(() => crowd.blend(0, 0, 0, 1.5)).toThrow(RangeError);
      expect(() => crowd.blend(3, 0)).toThrow(RangeError);
    }
  });

  it('a crossfade carries the root motion on: the placement does not jump when the new clip takes over', () => {
    const worm = createWorm(WORM_800), crawl = worm.clips[0], keys = 9;
    const times = Float32Array.from({ length: keys }, (_, k) => (crawl.duration * k) / (keys - 1));
    const walk = (speed: number): AnimationChannel => ({
      joint: 0, path: 'translation', interpolation: 'LINEAR', times,
      values: Float32Array.from({ length: 3 * keys }, (_, i) => (i % 3 === 1 ? 0.12 : i % 3 === 2 ? speed * times[Math.floor(i / 3)] : 0)),
    });
    const asset: ModelAsset = {
      ...worm,
      clips: [{ ...crawl, name: 'walk', channels: [walk(0.5), ...crawl.channels] }, { ...crawl, name: 'run', channels: [walk(1.5), ...crawl.channels] }],
    };
    const crowd = new Crowd(asset, { capacity: 1, rootMotion: 'applied' });
    crowd.add(0, 0.3);
    const at = new Float64Array(3);
    const dt = 1 / 60;
    let previous = crowd.placementOf(0, new Float64Array(3))[1];
    let largest = 0;
    crowd.crossfade(0, 1, 0.25, 0.7);
    for (let f = 0; f < 60; f++) {
      crowd.update(dt);
      crowd.prepare(null);
      const z = crowd.placementOf(0, at)[1];
      largest = Math.max(largest, z - previous);
      previous = z;
    }
    expect(crowd.clipIndices[0]).toBe(1);
    // No frame moves further than the run's own travel in one frame (1.5 per second), plus float32 rounding.
    expect(largest).toBeLessThan(1.5 * dt + 1e-6);
    expect(previous).toBeGreaterThan(0.5 * 0.25 + 1.5 * (1 - 0.25) * 0.9);
  });
});
