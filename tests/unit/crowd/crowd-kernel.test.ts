import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { Crowd } from '../../../src/crowd/crowd.ts';
import { accumulatePoseBounds } from '../../../src/crowd/instance-pose.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { createSamplingKernel } from '../../../src/pose/sampling-kernel.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { copyLocalPose, createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { emptyBox } from '../../../src/skinning/joint-bounds.ts';
import { packPaletteRows } from '../../../src/skinning/palette-rows.ts';
import { withRigidProp } from '../../browser/helpers/rigid-prop.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// The crowd kernel (src/crowd/crowd-kernel.ts) poses every live instance in one call. Checked against independent
// computations of the same pose: its local pose against a SamplingKernel sampling the same clip at the same time
// (the same code in another module: equal), its blocks against the per-instance path (`AnimatedModel.evaluate` of
// that local pose, `packPaletteRows`: equal, the matrix code being the pose kernel's), its boxes against
// `accumulatePoseBounds` in f64 of those matrices (contain it, and no more than the rounding growth larger).

async function models(): Promise<[string, () => Promise<ModelAsset>][]> {
  const list: [string, () => Promise<ModelAsset>][] = [
    ['octopus (Catmull-Rom, Bézier at thirds and Hermite clips)', async () => createOctopusAsset()],
    ['worm', async () => createWorm(WORM_800)],
    ['worm with a rigid prop', async () => withRigidProp(createWorm(WORM_800), 4, 0.25, [0.3, 0.1, 0])],
  ];
  const root = sharedAssets();
  if (root) {
    for (const file of ['Fox.glb', 'CesiumMan.glb', 'RiggedFigure.glb']) {
      list.push([file, () => parseGltf(file, new Uint8Array(readFileSync(`${root}gltf/${file}`)))]);
    }
  }
  return list;
}

/** A deterministic sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('crowd kernel', async () => {
  for (const [name, load] of await models()) {
    it(`${name}: every instance's pose, rows and box equal the per-instance computation, over frames forward, backward and clip changes`, async () => {
      const asset = await load();
      const N = 24, crowd = new Crowd(asset, { capacity: N });
      expect(crowd.kernel, 'the kernel poses this crowd').not.toBeNull();
      const clips = crowd.model.clips, rand = random(7);
      for (let k = 0; k < N; k++) crowd.add(k % (clips.length + 1) - 1, 3 * rand(), k % 5 === 4 ? -0.7 : 1 + rand());
      // Two instances share a clip and time (one evaluation).
      crowd.times[3] = crowd.times[2];
      crowd.clipIndices[3] = crowd.clipIndices[2];
      const contexts = Array.from({ length: N }, () => new SamplingContext(0, createSamplingKernel()));
      const reference = createLocalPose(asset.skeleton.jointCount), box = new Float64Array(6);
      const skins = asset.skins, layout = crowd.poseLayout;
      let compared = 0;
      for (let frame = 0; frame < 12; frame++) {
        if (frame === 6) for (let k = 0; k < N; k += 3) crowd.clipIndices[k] = (crowd.clipIndices[k] + 2) % (clips.length + 1) - 1;
        crowd.update(frame % 4 === 3 ? -0.4 : 0.11);
        expect(crowd.prepare(null)).toBe(N);
        const blocks = crowd.blocks, texels = crowd.blockTexels, boxes = crowd.kernel!.boxes;
        for (let b = 0; b < N; b++) {
          const k = crowd.drawnInstances[b], clip = crowd.clipIndices[k];
          copyLocalPose(reference, asset.restPose);
          if (clip >= 0) sampleClip(reference, clips[clip], crowd.times[k], contexts[k]);
          const kernelPose = crowd.kernel!.localPose(k);
          expect(kernelPose.rotations, `instance ${k} rotations`).toEqual(reference.rotations);
          expect(kernelPose.translations, `instance ${k} translations`).toEqual(reference.translations);
          expect(kernelPose.scales, `instance ${k} scales`).toEqual(reference.scales);
          crowd.evaluateInstance(k);
          const expected = new Float32Array(4 * texels);
          for (let s = 0; s < skins.length; s++) packPaletteRows(expected, crowd.model.skinMatrices[s], skins[s].joints.length, 4 * (3 + layout.skinOffsets[s]));
          asset.meshInstances.forEach((m, i) => {
            if (layout.rigidOffsets[i] >= 0) packPaletteRows(expected, crowd.model.modelMatrices, 1, 4 * (3 + layout.rigidOffsets[i]), 16 * m.node);
          });
          const pose = blocks.subarray(4 * (b * texels + 3), 4 * (b + 1) * texels);
          expect(pose, `instance ${k} rows`).toEqual(expected.subarray(12));
          emptyBox(box);
          accumulatePoseBounds(box, crowd.model, asset, crowd, crowd.origin);
          const diagonal = Math.hypot(box[3] - box[0], box[4] - box[1], box[5] - box[2]);
          for (let a = 0; a < 3; a++) {
            const lo = boxes[8 * k + a], hi = boxes[8 * k + 4 + a];
            expect(lo, `instance ${k} min ${a}`).toBeLessThanOrEqual(box[a]);
            expect(hi, `instance ${k} max ${a}`).toBeGreaterThanOrEqual(box[3 + a]);
            expect(box[a] - lo, `instance ${k} min ${a} margin`).toBeLessThan(1e-4 * diagonal);
            expect(hi - box[3 + a], `instance ${k} max ${a} margin`).toBeLessThan(1e-4 * diagonal);
          }
          compared++;
        }
      }
      expect(compared).toBe(12 * N);
    });
  }

  it('leaves crowds it cannot pose to the per-instance path: DQS, morph targets, fewer than 4 joints, the JavaScript backend', async () => {
    const worm = createWorm(WORM_800);
    expect(new Crowd(worm, { capacity: 2 }).kernel).not.toBeNull();
    expect(new Crowd(worm, { capacity: 2, backend: 'js' }).kernel).toBeNull();
    expect(new Crowd(worm, { capacity: 2, method: { skinning: 'dqs', weights: 'normalize' } }).kernel).toBeNull();
    const tube = await parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 5 }).glb());
    expect(new Crowd(tube, { capacity: 2 }).kernel).toBeNull();
    expect(new Crowd(createWorm({ joints: 3, rings: 6, sides: 4 }), { capacity: 2 }).kernel).toBeNull();
  });

  it('culls and orders as the per-instance path: the same instances drawn, mirrored ones last, the same world rows', () => {
    const worm = createWorm(WORM_800), N = 40;
    const fast = new Crowd(worm, { capacity: N }), slow = new Crowd(worm, { capacity: N, backend: 'js' });
    const rand = random(3);
    for (let k = 0; k < N; k++) {
      const mirror = rand() < 0.3 ? -1 : 1, angle = 6 * rand(), c = Math.cos(angle), s = Math.sin(angle);
      const world = [mirror * c, 0, -mirror * s, 0, 0, 1, 0, 0, s, 0, c, 0, 40 * rand() - 20, 0, 40 * rand() - 20, 1];
      for (const crowd of [fast, slow]) crowd.add(k % 2, 0.05 * k, 1, world);
    }
    // An orthographic view volume over x, z ∈ [−10, 10]: about a quarter of the instances are in it.
    const view = [0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 1];
    const drawn = fast.prepare(view);
    expect(drawn).toBe(slow.prepare(view));
    expect(drawn).toBeGreaterThan(3);
    expect(drawn).toBeLessThan(N - 3);
    expect(fast.mirroredFrom).toBe(slow.mirroredFrom);
    expect(fast.mirroredFrom).toBeLessThan(drawn);
    expect([...fast.drawnInstances.subarray(0, drawn)]).toEqual([...slow.drawnInstances.subarray(0, drawn)]);
    const texels = fast.blockTexels;
    for (let b = 0; b < drawn; b++) {
      expect(fast.blocks.subarray(4 * b * texels, 4 * b * texels + 12), `block ${b} world rows`).toEqual(slow.blocks.subarray(4 * b * texels, 4 * b * texels + 12));
    }
    for (let i = 0; i < 6 * N; i++) expect(Math.abs(fast.worldBounds[i] - slow.worldBounds[i])).toBeLessThan(1e-3);
    fast.cull = slow.cull = false;
    expect(fast.prepare(view)).toBe(N);
    expect(slow.prepare(view)).toBe(N);
  });

  it('batches four instances per lane set: culled, mirrored and shared instances get the rows and box of the instance posed alone', () => {
    const asset = withRigidProp(createWorm(WORM_800), 4, 0.25, [0.3, 0.1, 0]), N = 48;
    const crowd = new Crowd(asset, { capacity: N }), alone = new Crowd(asset, { capacity: 1 });
    const clips = crowd.model.clips, rand = random(11);
    let clip = 0, time = 0;
    for (let k = 0; k < N; k++) {
      // Runs of 1 to 9 instances with one clip and time (shared evaluations, across batch boundaries too).
      if (k === 0 || rand() < 0.3) { clip = Math.floor(rand() * (clips.length + 1)) - 1; time = 2 * rand(); }
      const mirror = rand() < 0.3 ? -1 : 1, x = rand() < 0.4 ? 50 : 8 * rand() - 4;
      crowd.add(clip, time, 1, [mirror, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 8 * rand() - 4, 1]);
    }
    alone.add(0, 0, 1);
    // An orthographic view volume over x, z ∈ [−10, 10]: the instances at x = 50 are culled.
    const view = [0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 1];
    const drawn = crowd.prepare(view), texels = crowd.blockTexels, boxes = crowd.kernel!.boxes;
    expect(drawn).toBeGreaterThan(N / 3);
    expect(drawn).toBeLessThan(N - 3);
    expect(crowd.mirroredFrom).toBeLessThan(drawn - 1);
    const blockOf = new Map<number, number>();
    for (let b = 0; b < drawn; b++) blockOf.set(crowd.drawnInstances[b], b);
    for (let k = 0; k < N; k++) {
      alone.clipIndices[0] = crowd.clipIndices[k];
      alone.times[0] = crowd.times[k];
      expect(alone.prepare(null)).toBe(1);
      expect(boxes.subarray(8 * k, 8 * k + 8), `instance ${k} box`).toEqual(alone.kernel!.boxes.subarray(0, 8));
      const b = blockOf.get(k);
      if (b === undefined) continue;
      expect(crowd.blocks.subarray(4 * (b * texels + 3), 4 * (b + 1) * texels), `instance ${k} rows`).toEqual(alone.blocks.subarray(12, 4 * texels));
      expect(Math.sign(crowd.blocks[4 * b * texels]), `instance ${k} world rows`).toBe(crowd.worlds[16 * k]);
    }
  });

  it('draws what the JavaScript backend draws, within the nlerp bound of slerp', () => {
    const worm = createWorm(WORM_800), N = 16;
    const fast = new Crowd(worm, { capacity: N }), slow = new Crowd(worm, { capacity: N, backend: 'js' });
    for (let k = 0; k < N; k++) {
      fast.add(0, 0.13 * k, 1);
      slow.add(0, 0.13 * k, 1);
    }
    fast.update(0.05);
    slow.update(0.05);
    expect(fast.prepare(null)).toBe(N);
    expect(slow.prepare(null)).toBe(N);
    let worst = 0;
    for (let i = 0; i < 4 * N * fast.blockTexels; i++) worst = Math.max(worst, Math.abs(fast.blocks[i] - slow.blocks[i]));
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1e-3);
    for (let i = 0; i < 6 * N; i++) expect(Math.abs(fast.worldBounds[i] - slow.worldBounds[i])).toBeLessThan(1e-3);
  });
});
