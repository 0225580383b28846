import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { boxOutsideFrustum } from '../../../src/crowd/frustum.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { withRigidProp } from '../../browser/helpers/rigid-prop.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// Per-joint bounds (src/skinning/joint-bounds.ts) transformed per frame (Crowd.prepare → worldBounds) contain
// every skinned vertex of every clip — morphed first, and rigid meshes under their node's matrix: live at many times (every key time too), and baked as the GPU blends it
// (the linear blend of the two neighbouring frames' vertices), under rotated, scaled, translated world matrices.

const WORLD = new Float32Array([0.8, 0, -0.6, 0, 0, 1.5, 0, 0, 0.6 * 0.5, 0, 0.8 * 0.5, 0, 3, -1, 7, 1]);

async function models(): Promise<[string, () => Promise<ModelAsset>][]> {
  const list: [string, () => Promise<ModelAsset>][] = [
    ['octopus', async () => createOctopusAsset()],
    ['worm with a rigid prop', async () => withRigidProp(createWorm(WORM_800), 4, 0.25, [0.3, 0.1, 0])],
    ['skinned morph tube', () => parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 5 }).glb())],
    ['rigid morph tube', () => parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 5, skinned: false }).glb())],
  ];
  const root = sharedAssets();
  if (root) {
    for (const file of ['Fox.glb', 'CesiumMan.glb', 'RiggedFigure.glb']) {
      list.push([file, () => parseGltf(file, new Uint8Array(readFileSync(`${root}gltf/${file}`)))]);
    }
  }
  return list;
}

/** Times of clip c: 41 evenly spaced and every key time. */
function timesOf(asset: ModelAsset, c: number, duration: number): number[] {
  const times = new Set<number>();
  for (let i = 0; i <= 40; i++) times.add((duration * i) / 40);
  for (const channel of asset.clips[c].channels) for (const t of channel.times) times.add(t);
  return [...times].filter((t) => t >= 0 && t < duration);
}

/**
 * World positions of every vertex of the model (morphed, then skinned or placed by its rigid node) under the
 * crowd model's current pose and instance k's world matrix.
 */
function worldVertices(crowd: Crowd, k: number): Float64Array[] {
  const W = crowd.worldOf(k, new Float64Array(16));
  const out: Float64Array[] = [];
  for (const instance of crowd.asset.meshInstances) {
    for (const source of crowd.asset.meshes[instance.mesh].primitives) {
      if (instance.skin >= 0 && !source.joints) continue;
      const offset = instance.morphWeightOffset ?? -1;
      const primitive = offset >= 0 ? new MorphedPrimitive(source).apply(crowd.model.morphWeights, offset) : source;
      const p = new Float32Array(3 * primitive.vertexCount);
      if (instance.skin >= 0) {
        skinVertices(p, null, primitive, crowd.model.skinMatrices[instance.skin], crowd.model.skinningContexts[instance.skin]);
      } else {
        const M = crowd.model.modelMatrices, n = 16 * instance.node, q = primitive.positions;
        for (let v = 0; v < primitive.vertexCount; v++) {
          for (let r = 0; r < 3; r++) p[3 * v + r] = M[n + r] * q[3 * v] + M[n + 4 + r] * q[3 * v + 1] + M[n + 8 + r] * q[3 * v + 2] + M[n + 12 + r];
        }
      }
      const w = new Float64Array(p.length);
      for (let v = 0; v < primitive.vertexCount; v++) {
        for (let r = 0; r < 3; r++) w[3 * v + r] = W[r] * p[3 * v] + W[4 + r] * p[3 * v + 1] + W[8 + r] * p[3 * v + 2] + W[12 + r];
      }
      out.push(w);
    }
  }
  return out;
}

function expectInside(bounds: Float64Array, k: number, points: Float64Array, label: string): void {
  const o = 6 * k;
  const diagonal = Math.hypot(bounds[o + 3] - bounds[o], bounds[o + 4] - bounds[o + 1], bounds[o + 5] - bounds[o + 2]);
  const eps = 1e-5 * diagonal;
  let worst = -Infinity;
  for (let i = 0; i < points.length; i += 3) {
    for (let a = 0; a < 3; a++) worst = Math.max(worst, bounds[o + a] - points[i + a], points[i + a] - bounds[o + 3 + a]);
  }
  expect(worst, `${label}: farthest outside`).toBeLessThanOrEqual(eps);
}

describe('crowd bounds contain every skinned vertex', async () => {
  for (const [name, load] of await models()) {
    it(`${name}: live, every clip at 41 times and every key`, async () => {
      const asset = await load();
      const samples: [number, number][] = [[-1, 0]];
      asset.clips.forEach((clip, c) => { for (const t of timesOf(asset, c, clip.duration)) samples.push([c, t]); });
      const crowd = new Crowd(asset, { capacity: samples.length });
      for (const [c, t] of samples) crowd.add(c, t, 1, WORLD);
      expect(crowd.prepare(null)).toBe(samples.length);
      for (let k = 0; k < samples.length; k++) {
        crowd.evaluateInstance(k);
        for (const points of worldVertices(crowd, k)) expectInside(crowd.worldBounds, k, points, `${name} clip ${samples[k][0]} @ ${samples[k][1]}`);
      }
    });

    it(`${name}: live, instances blending two clips (crowd kernel or per instance)`, async () => {
      const asset = await load();
      const clips = asset.clips.length;
      if (clips === 0) return;
      for (const backend of ['auto', 'js'] as const) {
        const crowd = new Crowd(asset, { capacity: 24, backend });
        for (let k = 0; k < 24; k++) {
          crowd.add(k % clips, 0.173 * k, 1, WORLD);
          crowd.blend(k, (k + 1) % clips, 0.291 * k, [0.25, 0.5, 0.8, 1][k % 4]);
        }
        crowd.prepare(null);
        for (let k = 0; k < 24; k++) {
          crowd.evaluateInstance(k);
          for (const points of worldVertices(crowd, k)) expectInside(crowd.worldBounds, k, points, `${name} ${backend} blended instance ${k}`);
        }
      }
    });

    it(`${name}: baked, between frames (the blend the GPU draws)`, async () => {
      const asset = await load();
      const probe = new Crowd(asset, { capacity: 1, mode: 'baked' });
      const baked = probe.bakedClipsOrBake();
      const samples: [number, number, number][] = [];
      asset.clips.forEach((clip, c) => {
        const frames = baked.frameCounts[c];
        for (let i = 0; i + 1 < frames; i += Math.max(1, Math.floor(frames / 12))) samples.push([c, i, 0.37]);
      });
      const crowd = new Crowd(asset, { capacity: Math.max(1, samples.length), mode: 'baked' });
      for (const [c, i, a] of samples) crowd.add(c, (baked.durations[c] * (i + a)) / (baked.frameCounts[c] - 1), 1, WORLD);
      crowd.prepare(null);
      for (let k = 0; k < samples.length; k++) {
        const [c, i, a] = samples[k];
        const frameTime = (j: number) => (baked.durations[c] * j) / (baked.frameCounts[c] - 1);
        crowd.model.evaluate(crowd.model.clipSample(c).at(frameTime(i)));
        const v0 = worldVertices(crowd, k);
        crowd.model.evaluate(crowd.model.clipSample(c).at(frameTime(i + 1)));
        const v1 = worldVertices(crowd, k);
        v0.forEach((p0, j) => {
          const blend = p0.map((x, e) => (1 - a) * x + a * v1[j][e]);
          expectInside(crowd.worldBounds, k, blend, `${name} baked clip ${c} frame ${i}+${a}`);
        });
      }
    });

    it(`${name}: baked, instances blending two clips (four frames, the blend the GPU draws)`, async () => {
      const asset = await load();
      const clips = asset.clips.length;
      // A morphed and skinned vertex is not linear in the blended weights and matrices together: rigid or skinned only.
      if (clips === 0 || name.includes('morph')) return;
      const crowd = new Crowd(asset, { capacity: 8, mode: 'baked' });
      const baked = crowd.bakedClipsOrBake();
      const frameTime = (c: number, f: number) => (baked.durations[c] * f) / (baked.frameCounts[c] - 1);
      const picks: [number, number, number, number, number, number, number][] = [];
      for (let k = 0; k < 8; k++) {
        const c = k % clips, d = (k + 1) % clips;
        const i = k % (baked.frameCounts[c] - 1), j = (3 * k) % (baked.frameCounts[d] - 1), a = 0.3, b = 0.6, w = [0.25, 0.5, 0.8, 1][k % 4];
        picks.push([c, i, a, d, j, b, w]);
        crowd.add(c, frameTime(c, i + a), 1, WORLD);
        crowd.blend(k, d, frameTime(d, j + b), w);
      }
      crowd.prepare(null);
      for (let k = 0; k < 8; k++) {
        const [c, i, a, d, j, b, w] = picks[k];
        const at = (clip: number, f: number) => {
          crowd.model.evaluate(crowd.model.clipSample(clip).at(frameTime(clip, f)));
          return worldVertices(crowd, k);
        };
        const [a0, a1, b0, b1] = [at(c, i), at(c, i + 1), at(d, j), at(d, j + 1)];
        a0.forEach((p, m) => {
          const blend = p.map((x, e) => (1 - w) * ((1 - a) * x + a * a1[m][e]) + w * ((1 - b) * b0[m][e] + b * b1[m][e]));
          expectInside(crowd.worldBounds, k, blend, `${name} baked blend ${k}`);
        });
      }
    });
  }

  it('a box is culled only when wholly beyond one plane of the view volume', () => {
    // Orthographic volume [-1, 1]³ (identity view-projection).
    const I = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect(boxOutsideFrustum(I, [-0.5, -0.5, -0.5, 0.5, 0.5, 0.5])).toBe(false);
    expect(boxOutsideFrustum(I, [0.9, 0.9, 0.9, 3, 3, 3])).toBe(false);
    expect(boxOutsideFrustum(I, [1.1, -5, -5, 3, 5, 5])).toBe(true);
    expect(boxOutsideFrustum(I, [-5, -5, -3, 5, 5, -1.01])).toBe(true);
  });

  it('culling keeps only the instances in view and packs them first', () => {
    const crowd = new Crowd(createOctopusAsset(), { capacity: 3 });
    const at = (x: number) => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1]);
    crowd.add(0, 0, 1, at(100));
    crowd.add(0, 0, 1, at(0));
    crowd.add(0, 0, 1, at(-100));
    const ortho = [0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 1];
    expect(crowd.prepare(ortho)).toBe(1);
    expect(crowd.drawnInstances[0]).toBe(1);
    crowd.cull = false;
    expect(crowd.prepare(ortho)).toBe(3);
  });
});
