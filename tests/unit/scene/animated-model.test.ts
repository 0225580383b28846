import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { crossfade } from '../helpers/reference-crossfade.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import { computeSkinMatrices } from '../../../src/skinning/skin-matrices.ts';
import { SkinningContext } from '../../../src/skinning/skinning-context.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

/**
 * These tests are about what the animator feeds the matrix stages, so the model computes with the portable
 * backend, which is exactly the independent pipeline below; pose-kernel.test.ts bounds the SIMD backend's
 * difference from it.
 */
const PORTABLE = { backend: 'js' } as const;

/** The clip's local pose at `time`, sampled without cursors over a fresh copy of the rest pose. */
function clipPose(asset: ModelAsset, clip: AnimationClip | null, time: number): LocalPose {
  const pose = cloneLocalPose(asset.restPose);
  if (clip) sampleClipOnce(pose, clip, time);
  return pose;
}

/** Independent pipeline: pose → localToModel → computeSkinMatrices per skin, fresh buffers. */
function palettesOf(asset: ModelAsset, pose: LocalPose): { model: Float32Array; skins: Float32Array[] } {
  const model = localToModel(new Float32Array(16 * asset.skeleton.jointCount), asset.skeleton, pose);
  const skins = asset.skins.map((skin) => computeSkinMatrices(new Float32Array(16 * skin.joints.length), model, skin, new SkinningContext(skin)));
  return { model, skins };
}

/**
 * Largest difference between the model's buffers and an expected pipeline result, relative to the
 * expected magnitude where it exceeds 1 (Fox's translations are in centimetres).
 */
function maxDifference(animated: AnimatedModel, expected: { model: Float32Array; skins: Float32Array[] }): number {
  let max = 0;
  const pairs: [Float32Array, Float32Array][] = [[animated.modelMatrices, expected.model]];
  animated.skinMatrices.forEach((palette, s) => pairs.push([palette, expected.skins[s]]));
  for (const [a, b] of pairs) {
    expect(a.length).toBe(b.length);
    for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  }
  return max;
}

/** What the viewer does each frame: move the animator on by `dt` seconds, then evaluate the model from it. */
function advance(animated: AnimatedModel, dt: number): void {
  animated.animator.update(dt);
  animated.evaluate(animated.animator);
}

/** The models the tests run on: the built-in octopus always, Fox and CesiumMan when the shared assets are there. */
async function models(): Promise<ModelAsset[]> {
  const list: ModelAsset[] = [createOctopusAsset()];
  const assets = sharedAssets();
  if (assets) {
    list.push(await loadModelFromPath(join(assets, 'gltf', 'Fox.glb')));
    list.push(await loadModelFromPath(join(assets, 'gltf', 'CesiumMan.glb')));
  }
  return list;
}

describe('AnimatedModel driven by its Animator', () => {
  it('one clip, no fade: animator.update(dt) then evaluate(animator) gives the palettes of sampleClip → localToModel → computeSkinMatrices at the player time', async () => {
    for (const asset of await models()) {
      expect(asset.clips.length).toBeGreaterThan(0);
      for (const clip of asset.clips) {
        const animated = new AnimatedModel(asset, PORTABLE);
        const player = animated.animator.play(clip);
        advance(animated, 0);
        expect(player.time).toBe(0);
        expect(maxDifference(animated, palettesOf(asset, clipPose(asset, clip, 0)))).toBeLessThan(1e-6);
        // Uneven steps past the end: the clip loops, and the pose follows the player's time.
        const dt = clip.duration / 7.3;
        for (let step = 0; step < 12; step++) {
          advance(animated, dt);
          const expected = ((step + 1) * dt) % clip.duration;
          expect(player.time).toBeCloseTo(expected, 9);
          expect(maxDifference(animated, palettesOf(asset, clipPose(asset, clip, player.time))), `${asset.name} ${clip.name} step ${step}`).toBeLessThan(1e-6);
        }
      }
    }
  });

  it('matches evaluate(clipSample(i).at(t)) at the same time, which does not move the animator', async () => {
    for (const asset of await models()) {
      const clipIndex = asset.clips.length - 1;
      const clip = asset.clips[clipIndex];
      const byTime = new AnimatedModel(asset, PORTABLE);
      const byAnimator = new AnimatedModel(asset, PORTABLE);
      const player = byAnimator.animator.play(clip, { startTime: 0.37 * clip.duration });
      byAnimator.evaluate(byAnimator.animator);
      byTime.evaluate(byTime.clipSample(clipIndex).at(player.time));
      expect(Array.from(byAnimator.skinMatrices[0])).toEqual(Array.from(byTime.skinMatrices[0]));
      byAnimator.evaluate(byAnimator.clipSample(clipIndex).at(0));
      expect(player.time).toBeCloseTo(0.37 * clip.duration, 12);
      // The clip sample itself still equals the independent pipeline.
      expect(maxDifference(byTime, palettesOf(asset, clipPose(asset, clip, player.time)))).toBeLessThan(1e-6);
    }
  });

  it('a crossfade halfway through gives the pipeline of crossfade(from, to, 0.5)', async () => {
    for (const asset of await models()) {
      if (asset.clips.length < 2) continue;
      const [a, b] = asset.clips;
      const animated = new AnimatedModel(asset, PORTABLE);
      const from = animated.animator.play(a, { startTime: 0.1 });
      const to = animated.animator.play(b, { fade: 0.8 });
      advance(animated, 0.4);
      expect(animated.animator.activeClipCount()).toBe(2);
      const expectedPose = crossfade(cloneLocalPose(asset.restPose), clipPose(asset, a, from.time), clipPose(asset, b, to.time), 0.5);
      expect(maxDifference(animated, palettesOf(asset, expectedPose))).toBeLessThan(1e-5);
      // After the fade only the new clip plays.
      advance(animated, 0.5);
      expect(animated.animator.activeClipCount()).toBe(1);
      expect(maxDifference(animated, palettesOf(asset, clipPose(asset, b, to.time)))).toBeLessThan(1e-6);
    }
  });

  it('with nothing playing the animator gives the rest pose', () => {
    const asset = createOctopusAsset();
    const animated = new AnimatedModel(asset, PORTABLE);
    advance(animated, 0.5);
    expect(maxDifference(animated, palettesOf(asset, cloneLocalPose(asset.restPose)))).toBe(0);
  });
});
