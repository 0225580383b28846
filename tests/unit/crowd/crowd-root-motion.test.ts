import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnimationChannel } from '../../../src/asset/animation-clip.ts';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { Crowd, type CrowdMode } from '../../../src/crowd/crowd.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// Root motion in crowds (docs/guide/crowds.md): in `applied` mode each instance walks by its own accumulated
// travel, placed where an Animator in `applied` mode playing the same clip at the same speed for the same time
// steps puts its model (live: to rounding; baked: within the baked error); `in-place` holds the hips' X/Z at
// the clip's start; the bounds follow the moved instance.

/**
 * The 800-vertex worm whose crawl (clip 0, 2 s) also walks its root: 1.5 along +Z per loop with a sideways
 * sway and a bob, and a yaw that sways and turns 0.4 rad per loop (so the loops' travel bends into an arc).
 */
function walkingWorm(): ModelAsset {
  const worm = createWorm(WORM_800), crawl = worm.clips[0], keys = 17, D = crawl.duration;
  const times = Float32Array.from({ length: keys }, (_, k) => (D * k) / (keys - 1));
  const translations = new Float32Array(3 * keys), rotations = new Float32Array(4 * keys);
  for (let k = 0; k < keys; k++) {
    const u = k / (keys - 1), phase = 2 * Math.PI * u;
    translations.set([0.1 * Math.sin(phase), 0.12 + 0.03 * Math.sin(2 * phase), 1.5 * u], 3 * k);
    const yaw = 0.4 * u + 0.2 * Math.sin(phase);
    rotations.set([0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)], 4 * k);
  }
  const walk: AnimationChannel[] = [
    { joint: 0, path: 'translation', interpolation: 'LINEAR', times, values: translations },
    { joint: 0, path: 'rotation', interpolation: 'LINEAR', times, values: rotations },
  ];
  return { ...worm, clips: [{ ...crawl, channels: [...walk, ...crawl.channels] }, ...worm.clips.slice(1)] };
}

/** A world matrix: turn by `angle` about Y, then move to (x, 0, z). */
function world(angle: number, x: number, z: number): Float32Array {
  const c = Math.cos(angle), s = Math.sin(angle);
  return Float32Array.of(c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, x, 0, z, 1);
}

/** `m`·(p, 1) for a column-major 4×4. */
function transform(m: ArrayLike<number>, p: ArrayLike<number>): number[] {
  return [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}

/** World positions of every joint of `model` (matrices relative to its origin) under `W` (which carries T(O)). */
function jointPositions(model: AnimatedModel, W: ArrayLike<number>): number[][] {
  const M = model.modelMatrices;
  return Array.from({ length: model.asset.skeleton.jointCount }, (_, j) => transform(W, [M[16 * j + 12], M[16 * j + 13], M[16 * j + 14]]));
}

/** The same W with the model origin O folded in: W·T(O), in f64. */
function withOrigin(w: Float32Array, O: Float64Array): Float64Array {
  const out = Float64Array.from(w);
  for (let r = 0; r < 3; r++) out[12 + r] += w[r] * O[0] + w[4 + r] * O[1] + w[8 + r] * O[2];
  return out;
}

interface Player { clip: number; start: number; speed: number; world: Float32Array }

/**
 * Plays `players` in a crowd (mode, `applied`) and each in its own AnimatedModel's Animator (`applied`) for
 * `frames` uneven steps; per instance the largest distance between a joint's world position in the crowd
 * (its in-place pose at its time placed by `worldOf`, which carries the drawn placement) and in the reference,
 * and between `placementOf` and `animator.placement`; also the loops played.
 */
function applied(asset: ModelAsset, players: Player[], mode: CrowdMode, frames: number) {
  const crowd = new Crowd(asset, { capacity: players.length, mode, rootMotion: 'applied' });
  const refs = players.map((p) => {
    crowd.add(p.clip, p.start, p.speed, p.world);
    // Portable: the crowd samples its in-place clips by the portable sampler (slerp), and this compares its
    // root motion bookkeeping with the Animator's, not the samplers.
    const model = new AnimatedModel(asset, { backend: 'js' });
    model.animator.rootMotion = 'applied';
    // The crowd keeps speeds in float32.
    model.animator.play(model.clips[p.clip], { startTime: p.start, speed: Math.fround(p.speed) });
    return model;
  });
  const jointError = players.map(() => 0), placementError = players.map(() => 0);
  const W = new Float64Array(16), placement = new Float64Array(3);
  let elapsed = 0;
  for (let f = 0; f < frames; f++) {
    const dt = 1 / 60 + 0.004 * Math.sin(f * 1.7);
    elapsed += dt;
    crowd.update(dt);
    crowd.prepare(null);
    players.forEach((p, k) => {
      const ref = refs[k];
      ref.animator.update(dt);
      ref.evaluate(ref.animator);
      if (f % 7 !== 0 && f !== frames - 1) return;
      const expected = jointPositions(ref, withOrigin(p.world, ref.origin));
      crowd.model.evaluate(crowd.motion.inPlace[p.clip].at(crowd.times[k]));
      const got = jointPositions(crowd.model, crowd.worldOf(k, W));
      got.forEach((g, j) => (jointError[k] = Math.max(jointError[k], Math.hypot(g[0] - expected[j][0], g[1] - expected[j][1], g[2] - expected[j][2]))));
      crowd.placementOf(k, placement);
      const a = ref.animator.placement;
      placementError[k] = Math.max(placementError[k], Math.hypot(placement[0] - a[0], placement[1] - a[1]), Math.abs(placement[2] - a[2]));
    });
  }
  const loops = players.map((p) => Math.abs(p.speed) * elapsed / asset.clips[p.clip].duration);
  return { crowd, refs, jointError, placementError, loops };
}

const PLAYERS: Player[] = [
  { clip: 0, start: 0.3, speed: 1.3, world: world(0.7, 2, -1) },
  { clip: 0, start: 1.1, speed: -0.7, world: world(-2.1, -3, 4) },
];

describe('Crowd root motion', () => {
  it('applied, live: each instance walks where an Animator in applied mode puts the model, over several loops', () => {
    const { crowd, refs, jointError, placementError, loops } = applied(walkingWorm(), PLAYERS, 'live', 600);
    expect(Math.min(...loops)).toBeGreaterThan(2);
    for (let k = 0; k < PLAYERS.length; k++) {
      // It did walk: several metres from where it started.
      expect(Math.hypot(refs[k].animator.placement[0], refs[k].animator.placement[1])).toBeGreaterThan(2);
      expect(jointError[k]).toBeLessThan(1e-5);
      expect(placementError[k]).toBeLessThan(1e-12);
    }
    // The block carries the placed world matrix.
    const W = crowd.worldOf(1, new Float64Array(16)), b = 4 * crowd.blockTexels * 1;
    expect([crowd.blocks[b + 3], crowd.blocks[b + 7], crowd.blocks[b + 11]]).toEqual([W[12], W[13], W[14]].map(Math.fround));
  });

  it('applied, baked: the same within the baked error (the travel interpolated between baked frames)', () => {
    const asset = walkingWorm();
    const { jointError, placementError, loops } = applied(asset, PLAYERS, 'baked', 600);
    expect(Math.min(...loops)).toBeGreaterThan(2);
    // docs/guide/crowds.md: the worm's baked error is 1.4·10⁻² × its diagonal (about 2 m) at 30 frames per second.
    for (let k = 0; k < PLAYERS.length; k++) {
      expect(jointError[k]).toBeLessThan(1.4e-2 * 2);
      // placementOf is exact in either mode (what is drawn is interpolated).
      expect(placementError[k]).toBeLessThan(1e-12);
    }
  });

  it('in-place: the hips hold their clip-start X and Z, live and baked; off leaves them walking', () => {
    const asset = walkingWorm();
    for (const mode of ['live', 'baked'] as const) {
      const crowd = new Crowd(asset, { capacity: 1, mode, rootMotion: 'in-place' });
      crowd.add(0, 0.5, 1.1);
      const record = crowd.motion.records;
      let worst = 0, height = [Infinity, -Infinity];
      const inv = asset.skins[0].inverseBindMatrices, bind = new Float64Array(16);
      for (let f = 0; f < 200; f++) {
        crowd.update(1 / 30 + 0.003 * Math.sin(f));
        crowd.prepare(null);
        let p: number[];
        if (mode === 'live') {
          const M = crowd.model.modelMatrices, O = crowd.origin;
          p = [M[12] + O[0], M[13] + O[1], M[14] + O[2]];
        } else {
          // Joint 0 in both blended frames: its palette row (rows of T(−O)·M·B⁻¹) applied to B's origin.
          const baked = crowd.baked!, b = crowd.blocks, f0 = b[12], f1 = b[13], a = b[14];
          invertInto(bind, inv, 0);
          const at = (frame: number) => {
            const o = 4 * (frame * baked.frameTexels + baked.skinOffsets[0]);
            return [0, 1, 2].map((r) => baked.rows[o + 4 * r] * bind[12] + baked.rows[o + 4 * r + 1] * bind[13] + baked.rows[o + 4 * r + 2] * bind[14] + baked.rows[o + 4 * r + 3] + crowd.origin[r]);
          };
          const p0 = at(f0), p1 = at(f1);
          p = p0.map((v, r) => v + a * (p1[r] - v));
        }
        worst = Math.max(worst, Math.hypot(p[0] - record[0], p[2] - record[1]));
        height = [Math.min(height[0], p[1]), Math.max(height[1], p[1])];
      }
      expect(worst, mode).toBeLessThan(1e-5);
      // The bob is kept.
      expect(height[1] - height[0], mode).toBeGreaterThan(0.04);
    }
    const off = new Crowd(asset, { capacity: 1 });
    off.add(0, 0.5, 1.1);
    off.update(0.5);
    off.prepare(null);
    off.evaluateInstance(0);
    // At 1.05 s of 2 the root has walked 0.525 of its 1.5.
    expect(Math.abs(off.model.modelMatrices[14] + off.origin[2] - 0.525 * 1.5)).toBeLessThan(1e-3);
  });

  it('the bounds contain the moved instance, and culling follows it', () => {
    const asset = walkingWorm();
    const crowd = new Crowd(asset, { capacity: 1, rootMotion: 'applied' });
    crowd.add(0, 0, 1);
    // A view of the cube [−1, 1]³ around the start sees it there.
    const view = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    expect(crowd.prepare(view)).toBe(1);
    for (let f = 0; f < 300; f++) crowd.update(1 / 30);
    crowd.prepare(null);
    const placement = crowd.placementOf(0, new Float64Array(3));
    expect(Math.hypot(placement[0], placement[1])).toBeGreaterThan(4);
    const W = crowd.worldOf(0, new Float64Array(16)), box = crowd.worldBounds;
    const p = new Float32Array(3 * asset.meshes[0].primitives[0].vertexCount);
    skinVertices(p, null, asset.meshes[0].primitives[0], crowd.model.skinMatrices[0], crowd.model.skinningContexts[0]);
    for (let v = 0; v < p.length / 3; v++) {
      const q = transform(W, [p[3 * v], p[3 * v + 1], p[3 * v + 2]]);
      for (let a = 0; a < 3; a++) {
        expect(q[a]).toBeGreaterThanOrEqual(box[a] - 1e-9);
        expect(q[a]).toBeLessThanOrEqual(box[3 + a] + 1e-9);
      }
    }
    // The box sits where it walked to, no longer around the start.
    expect(Math.hypot((box[0] + box[3]) / 2 - placement[0], (box[2] + box[5]) / 2 - placement[1])).toBeLessThan(1.5);
    // Walked away, it is culled there.
    expect(crowd.prepare(view)).toBe(0);
  });

  it('Fox.glb Walk, applied: live and baked instances follow the Animator over several loops', async () => {
    const assets = sharedAssets();
    if (!assets) return;
    const asset = await loadModelFromPath(join(assets, 'gltf', 'Fox.glb'));
    const walk = asset.clips.findIndex((c) => c.name === 'Walk');
    expect(walk).toBeGreaterThanOrEqual(0);
    const players: Player[] = [
      { clip: walk, start: 0.2, speed: 1, world: world(0.4, 100, 0) },
      { clip: walk, start: 0.5, speed: -1.4, world: world(2, 0, -50) },
    ];
    const live = applied(asset, players, 'live', 400);
    const baked = applied(asset, players, 'baked', 400);
    expect(Math.min(...live.loops)).toBeGreaterThan(3);
    // Fox is about 100 units tall (float32 matrices); docs/guide/crowds.md: baked Fox 6.2·10⁻³ × its size. Its Walk
    // travels little (the clip mostly walks on the spot), so this checks the rig's parent frame and yaw.
    const size = 100;
    for (let k = 0; k < players.length; k++) {
      expect(live.jointError[k]).toBeLessThan(1e-6 * size);
      expect(live.placementError[k]).toBeLessThan(1e-12 * size);
      expect(baked.jointError[k]).toBeLessThan(6.2e-3 * size);
    }
  });
});

/** `out` ← the inverse of the rigid-with-scale 4×4 at `m[o…]` (general 3×3 inverse), column-major. */
function invertInto(out: Float64Array, m: Float32Array, o: number): void {
  const a = (r: number, c: number) => m[o + 4 * c + r];
  const det = a(0, 0) * (a(1, 1) * a(2, 2) - a(2, 1) * a(1, 2)) - a(0, 1) * (a(1, 0) * a(2, 2) - a(1, 2) * a(2, 0)) + a(0, 2) * (a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0));
  const inv = [
    [a(1, 1) * a(2, 2) - a(2, 1) * a(1, 2), a(0, 2) * a(2, 1) - a(0, 1) * a(2, 2), a(0, 1) * a(1, 2) - a(0, 2) * a(1, 1)],
    [a(1, 2) * a(2, 0) - a(1, 0) * a(2, 2), a(0, 0) * a(2, 2) - a(0, 2) * a(2, 0), a(1, 0) * a(0, 2) - a(0, 0) * a(1, 2)],
    [a(1, 0) * a(2, 1) - a(2, 0) * a(1, 1), a(2, 0) * a(0, 1) - a(0, 0) * a(2, 1), a(0, 0) * a(1, 1) - a(1, 0) * a(0, 1)],
  ].map((row) => row.map((v) => v / det));
  out.fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[4 * c + r] = inv[r][c];
    out[12 + r] = -(inv[r][0] * a(0, 3) + inv[r][1] * a(1, 3) + inv[r][2] * a(2, 3));
  }
  out[15] = 1;
}
