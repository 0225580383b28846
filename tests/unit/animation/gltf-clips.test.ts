/**
 * Real glTF clips, sampled at many times (not only at keys) by Sinew (parseGltf → sampleClip) and by
 * three.js interpolants over the same accessors read by an independent reader (raw-gltf.ts): InterpolationTest
 * and the glTF Asset Generator's Animation_Node, Animation_NodeMisc and Animation_SamplerType models.
 * Skips when ../shared/assets is absent, fails then when CI is set.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { SHARED_ASSETS, sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf } from './raw-gltf.ts';
import { threeTrack } from './three-oracle.ts';

const assets = SHARED_ASSETS;
const generator = join(assets, 'conformance/glTF-Asset-Generator');
const present = sharedAssets() !== null;

function models(): string[] {
  if (!present) return [];
  const out = [join(assets, 'gltf/InterpolationTest.glb')];
  for (const folder of ['Animation_Node', 'Animation_NodeMisc', 'Animation_SamplerType']) {
    const dir = join(generator, folder);
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.gltf')).sort()) out.push(join(dir, name));
  }
  return out;
}

const PATHS = ['translation', 'rotation', 'scale'] as const;

/** Times across [−0.2, duration + 0.2]: a fine uneven grid plus every key time and points just beside them. */
function probeTimes(clip: AnimationClip): number[] {
  const times = new Set<number>();
  const d = clip.duration;
  for (let i = 0; i <= 157; i++) times.add(-0.2 + ((d + 0.4) * i) / 157 + 1e-4 * (i % 3));
  for (const channel of clip.channels) for (const t of channel.times) [t, t - 1e-3, t + 1e-3].forEach((x) => times.add(x));
  return [...times].sort((a, b) => a - b);
}

describe.skipIf(!present)('glTF clips sampled against three.js interpolants on the raw accessors', () => {
  for (const path of models()) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    it(name, async () => {
      const asset: ModelAsset = await loadModelFromPath(path);
      const raw = readRawGltf(path);
      const animations = raw.json.animations ?? [];
      expect(asset.clips.length).toBe(animations.length);
      let compared = 0;
      for (let a = 0; a < animations.length; a++) {
        const clip = asset.clips[a];
        const cursor = new SamplingContext();
        const runtime = compileClip(clip, asset.skeleton.jointCount);
        const pose = cloneLocalPose(asset.restPose);
        // three.js's side: one track per channel, from this test's own reading of the accessors.
        const oracles = await Promise.all(animations[a].channels
          .filter((ch) => ch.target.node !== undefined && (PATHS as readonly string[]).includes(ch.target.path))
          .map(async (ch) => {
            const sampler = animations[a].samplers[ch.sampler];
            const interpolation = (sampler.interpolation ?? 'LINEAR') as 'STEP' | 'LINEAR' | 'CUBICSPLINE';
            const c = ch.target.path === 'rotation' ? 4 : 3;
            const joint = Array.prototype.indexOf.call(asset.skeleton.sourceIndices, ch.target.node!);
            expect(joint).toBeGreaterThanOrEqual(0);
            return { joint, path: ch.target.path, c, evaluate: await threeTrack(c, interpolation, raw.floats(sampler.input), raw.floats(sampler.output)) };
          }));
        expect(oracles.length).toBe(clip.channels.length);
        // Forward with the cursor (as playback does), then a few backward jumps.
        const times = probeTimes(clip);
        for (const t of [...times, ...times.filter((_, i) => i % 7 === 0).reverse()]) {
          sampleClip(pose, runtime, t, cursor);
          for (const oracle of oracles) {
            const expected = oracle.evaluate(t);
            const array = oracle.path === 'rotation' ? pose.rotations : oracle.path === 'translation' ? pose.translations : pose.scales;
            const ours = Array.from(array.subarray(oracle.c * oracle.joint, oracle.c * oracle.joint + oracle.c));
            if (oracle.c === 4) {
              // The same rotation: q ≡ −q, and keys de-normalised from bytes/shorts are not exactly unit (which
              // both sides keep at the ends), so compare directions.
              const dot = ours.reduce((s, x, i) => s + x * expected[i], 0) / (Math.hypot(...ours) * Math.hypot(...expected));
              expect(Math.abs(dot), `${name} clip ${a} joint ${oracle.joint} rotation at t=${t}`).toBeCloseTo(1, 5);
            } else {
              for (let i = 0; i < 3; i++) {
                const tolerance = 1e-5 * Math.max(1, Math.abs(expected[i]));
                expect(Math.abs(ours[i] - expected[i]), `${name} clip ${a} joint ${oracle.joint} ${oracle.path}[${i}] at t=${t}`).toBeLessThan(tolerance);
              }
            }
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(animations.length === 0 ? -1 : 100);
    });
  }
});
