import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { createRay, createSurfaceHit, PickContext, pickModel, type SurfaceHit } from '../../../src/scene/pick-model.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { SKINNING_MODES, WEIGHT_POLICIES, type SkinningMethod } from '../../../src/skinning/skinning-method.ts';
import { withRigidProp } from '../../browser/helpers/rigid-prop.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { pickModelReference, ReferencePickContext } from './pick-reference.ts';

// pickModel (clusters, moved boxes, candidate vertices only) against the brute-force reference (every vertex
// posed, every triangle tested): the same triangle, distance, point, normal and joint for many rays — aimed at
// random posed vertices from all round, and random rays, many of which miss.

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** World-space positions of every posed vertex (the reference's own arithmetic: morph, skin or place, + O, world). */
function posedVertices(model: AnimatedModel): number[][] {
  const out: number[][] = [], { asset, world: w, origin: O } = model;
  for (const instance of asset.meshInstances) {
    for (const source of asset.meshes[instance.mesh].primitives) {
      const p = source.morphTargets && (instance.morphWeightOffset ?? -1) >= 0
        ? new MorphedPrimitive(source).apply(model.morphWeights, instance.morphWeightOffset!) : source;
      const pos = new Float32Array(3 * p.vertexCount);
      if (instance.skin >= 0 && p.joints) skinVertices(pos, null, p, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin]);
      else {
        const m = model.modelMatrices, o = 16 * instance.node;
        for (let v = 0; v < 3 * p.vertexCount; v += 3) {
          for (let a = 0; a < 3; a++) pos[v + a] = m[o + a] * p.positions[v] + m[o + 4 + a] * p.positions[v + 1] + m[o + 8 + a] * p.positions[v + 2] + m[o + 12 + a];
        }
      }
      for (let v = 0; v < 3 * p.vertexCount; v += 3) {
        const x = pos[v] + O[0], y = pos[v + 1] + O[1], z = pos[v + 2] + O[2];
        out.push([0, 1, 2].map((a) => w[a] * x + w[4 + a] * y + w[8 + a] * z + w[12 + a]));
      }
    }
  }
  return out;
}

function expectSameHit(fast: SurfaceHit | null, slow: SurfaceHit | null, label: string): void {
  expect(fast === null, `${label}: hit or miss`).toBe(slow === null);
  if (!fast || !slow) return;
  expect([fast.meshInstance, fast.mesh, fast.primitive, fast.triangle], label).toEqual([slow.meshInstance, slow.mesh, slow.primitive, slow.triangle]);
  expect(fast.distance, label).toBe(slow.distance);
  expect(Array.from(fast.point), label).toEqual(Array.from(slow.point));
  expect(Array.from(fast.barycentric), label).toEqual(Array.from(slow.barycentric));
  expect(Array.from(fast.vertexIndices), label).toEqual(Array.from(slow.vertexIndices));
  expect(Array.from(fast.normal), label).toEqual(Array.from(slow.normal));
  expect(fast.joint, label).toBe(slow.joint);
}

interface Tally { rays: number; hits: number; posed: number; total: number }

/** Many rays at `model` as posed now: pickModel against the reference; returns how many hit. */
function compareRays(model: AnimatedModel, method: SkinningMethod, seed: number, rays: number, label: string, tally: Tally): void {
  const fast = new PickContext(model), slow = new ReferencePickContext(model);
  const a = createSurfaceHit(), b = createSurfaceHit(), ray = createRay(), rnd = random(seed);
  const vertices = posedVertices(model);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[k]); hi[k] = Math.max(hi[k], v[k]); }
  const centre = lo.map((x, k) => 0.5 * (x + hi[k])), size = Math.max(1e-6, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  for (let r = 0; r < rays; r++) {
    // From a random point round the model …
    const u = 2 * rnd() - 1, phi = 2 * Math.PI * rnd(), s = Math.sqrt(1 - u * u);
    for (let k = 0; k < 3; k++) ray.origin[k] = centre[k] + 1.5 * size * [s * Math.cos(phi), s * Math.sin(phi), u][k];
    if (r % 3 !== 2) {
      // … at a posed vertex (every third ray exactly at it, the others a little beside it) …
      const target = vertices[Math.floor(rnd() * vertices.length)];
      const jitter = r % 3 === 0 ? 0 : 0.01 * size;
      for (let k = 0; k < 3; k++) ray.direction[k] = target[k] + jitter * (rnd() - 0.5) - ray.origin[k];
    } else {
      // … or anywhere.
      for (let k = 0; k < 3; k++) ray.direction[k] = rnd() - 0.5;
    }
    const hitFast = pickModel(model, ray, a, fast, method);
    const hitSlow = pickModelReference(model, ray, b, slow, method);
    expectSameHit(hitFast, hitSlow, `${label} ray ${r}`);
    tally.rays++;
    if (hitSlow) tally.hits++;
    tally.posed += fast.posedVertices;
    tally.total += fast.vertexCount;
  }
}

const LBS: SkinningMethod = { skinning: 'lbs', weights: 'normalize' };
const DQS: SkinningMethod = { skinning: 'dqs', weights: 'normalize' };

const models: [string, () => Promise<ModelAsset>][] = [
  ['octopus', async () => createOctopusAsset()],
  ['worm with a rigid prop', async () => withRigidProp(createWorm(WORM_800), 4, 0.25, [0.3, 0.1, 0])],
  ['skinned morph tube', () => parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 5 }).glb())],
  ['rigid morph tube', () => parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 5, skinned: false }).glb())],
];
const root = sharedAssets();
if (root) {
  for (const file of ['SimpleSkin.gltf', 'RiggedSimple.glb', 'RiggedFigure.glb', 'CesiumMan.glb', 'Fox.glb', 'SimpleMorph.gltf']) {
    models.push([file, () => loadModelFromPath(`${root}gltf/${file}`)]);
  }
  models.push(['Bob.md5mesh', () => loadModelFromPath(`${root}md5/Bob.md5mesh`, { anims: [`${root}md5/Bob.md5anim`] })]);
}

describe('pickModel equals the brute-force reference', () => {
  for (const [name, load] of models) {
    it(`${name}: LBS and DQS, three clip times, a moved world`, async () => {
      const model = new AnimatedModel(await load());
      const clip = model.clips.length > 0 ? 0 : -1;
      const duration = clip >= 0 ? model.asset.clips[0].duration : 0;
      const tally: Tally = { rays: 0, hits: 0, posed: 0, total: 0 };
      let seed = 1;
      for (const f of [0, 0.37, 0.81]) {
        model.evaluate(model.clipSample(clip).at(f * duration));
        for (const method of [LBS, DQS]) compareRays(model, method, seed++, 90, `${name} t=${(f * duration).toFixed(2)} ${method.skinning}`, tally);
      }
      // A world matrix that turns, scales unevenly and moves the model.
      const world = mat4.create();
      mat4.translate(world, world, [3, -2, 5]);
      mat4.rotate(world, world, 0.7, [0.3, 1, -0.2]);
      mat4.scale(world, world, [1.5, 0.5, 2]);
      model.world.set(world);
      compareRays(model, LBS, seed++, 90, `${name} moved`, tally);
      expect(tally.hits, 'enough rays hit to mean something').toBeGreaterThan(tally.rays / 5);
    }, 60_000);
  }

  it('the octopus under every skinning mode and weight policy', () => {
    const model = new AnimatedModel(createOctopusAsset());
    model.evaluate(model.clipSample(1).at(1.3));
    const tally: Tally = { rays: 0, hits: 0, posed: 0, total: 0 };
    let seed = 100;
    for (const skinning of SKINNING_MODES) {
      for (const weights of WEIGHT_POLICIES) compareRays(model, { skinning, weights }, seed++, 40, `octopus ${skinning}/${weights}`, tally);
    }
    expect(tally.hits).toBeGreaterThan(tally.rays / 3);
  }, 60_000);
});

describe('pickModel cost', () => {
  it('poses far fewer vertices than the whole mesh (octopus, Fox: LBS and DQS)', async () => {
    const cases: [string, ModelAsset][] = [['octopus', createOctopusAsset()]];
    if (root) cases.push(['Fox', await loadModelFromPath(`${root}gltf/Fox.glb`)]);
    for (const [name, asset] of cases) {
      const model = new AnimatedModel(asset);
      model.evaluate(model.clipSample(0).at(0.4));
      for (const method of [LBS, DQS]) {
        const tally: Tally = { rays: 0, hits: 0, posed: 0, total: 0 };
        compareRays(model, method, 7, 60, name, tally);
        // Aimed rays cross a body part or two; a whole-mesh pick would pose every vertex.
        expect(tally.posed / tally.total, `${name} ${method.skinning}`).toBeLessThan(method.skinning === 'lbs' ? 0.25 : 0.5);
      }
    }
  }, 60_000);
});

describe('pickModel input', () => {
  const model = new AnimatedModel(createWorm(WORM_800));
  it('refuses a context made for another model', () => {
    const other = new AnimatedModel(createWorm(WORM_800));
    expect(() => pickModel(model, createRay(), createSurfaceHit(), new PickContext(other))).toThrow(/PickContext was made for/);
  });
  it('refuses a ray without a direction or with NaN', () => {
    const context = new PickContext(model), ray = createRay();
    ray.direction.fill(0);
    expect(() => pickModel(model, ray, createSurfaceHit(), context)).toThrow(RangeError);
    ray.direction[2] = -1; ray.origin[0] = NaN;
    expect(() => pickModel(model, ray, createSurfaceHit(), context)).toThrow(/not finite/);
  });
});
