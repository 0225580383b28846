import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { mat4, quat, vec3 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { cloneLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { matchJoints, retargetClip, RetargetError, type RetargetSide } from '../../../src/animation/retarget-clip.ts';
import { computeModelFrames, createModelFrames } from '../../../src/animation/retarget-frames.ts';
import { quatConjugateMultiplyAt, quatMultiplyAt, quatRotateAt } from '../../../src/math/quaternion.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

const assets = sharedAssets();
const identity = [0, 0, 0, 1];

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomRotation(next: () => number): number[] {
  const q = quat.normalize(quat.create(), [next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5]);
  return [q[0], q[1], q[2], q[3]];
}

/** Model-space frames of `clip` on `side` at each time. */
function framesAt(side: RetargetSide, clip: AnimationClip, times: number[]) {
  const runtime = compileClip(clip, side.skeleton.jointCount);
  const context = new SamplingContext();
  return times.map((t) => {
    const pose = sampleClip(cloneLocalPose(side.restPose), runtime, t, context);
    return computeModelFrames(createModelFrames(side.skeleton.jointCount), side.skeleton, pose, identity);
  });
}

/** Largest angle (radians) between the model rotations of two frame sets, and largest position difference (a's ×scale). */
function frameError(a: ReturnType<typeof framesAt>, b: ReturnType<typeof framesAt>, scale = 1, turns?: number[][]) {
  let angle = 0, distance = 0;
  const q = new Float64Array(4);
  for (let f = 0; f < a.length; f++) {
    const n = a[f].q.length / 4;
    for (let j = 0; j < n; j++) {
      // b's frame should be a's turned by R_j (Q_A·R_j) when the copy's frames are turned.
      if (turns) quatMultiplyAt(q, 0, a[f].q, 4 * j, turns[j], 0);
      else q.set(a[f].q.subarray(4 * j, 4 * j + 4));
      // The angle of conj(a)·b from its vector part: acos of a dot product near 1 would amplify rounding.
      const d = new Float64Array(4);
      quatConjugateMultiplyAt(d, 0, q, 0, b[f].q, 4 * j);
      const e = 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3]));
      angle = Math.max(angle, e);
      for (let c = 0; c < 3; c++) distance = Math.max(distance, Math.abs(scale * a[f].p[3 * j + c] - b[f].p[3 * j + c]));
    }
  }
  return { angle, distance };
}

function timesOf(duration: number, count = 23): number[] {
  return Array.from({ length: count }, (_, i) => (duration * i) / (count - 1));
}

/**
 * A copy of `side`'s skeleton whose every joint frame is turned by a random rotation R_j (model rest rotation
 * Q·R_j), placed at twice the model rest positions, and renamed `mixamorig:<name>`.
 */
function turnedCopy(side: RetargetSide, seed: number) {
  const n = side.skeleton.jointCount;
  const rest = computeModelFrames(createModelFrames(n), side.skeleton, side.restPose, identity);
  const next = random(seed);
  const turns = Array.from({ length: n }, () => randomRotation(next));
  const q = new Float64Array(4 * n), p = new Float64Array(3 * n);
  for (let j = 0; j < n; j++) {
    quatMultiplyAt(q, 4 * j, rest.q, 4 * j, turns[j], 0);
    for (let c = 0; c < 3; c++) p[3 * j + c] = 2 * rest.p[3 * j + c];
  }
  const pose = createLocalPose(n, side.restPose.morphWeights?.length ?? 0);
  const d = new Float64Array(4);
  for (let j = 0; j < n; j++) {
    const parent = side.skeleton.parents[j];
    if (parent < 0) {
      pose.rotations.set(q.subarray(4 * j, 4 * j + 4), 4 * j);
      pose.translations.set(p.subarray(3 * j, 3 * j + 3), 3 * j);
      continue;
    }
    quatConjugateMultiplyAt(d, 0, q, 4 * parent, q, 4 * j);
    pose.rotations.set(d, 4 * j);
    const inverse = [-q[4 * parent], -q[4 * parent + 1], -q[4 * parent + 2], q[4 * parent + 3]];
    quatRotateAt(d, 0, inverse, 0, [p[3 * j] - p[3 * parent], p[3 * j + 1] - p[3 * parent + 1], p[3 * j + 2] - p[3 * parent + 2]], 0);
    pose.translations.set(d.subarray(0, 3), 3 * j);
  }
  const skeleton: Skeleton = { ...side.skeleton, names: side.skeleton.names.map((name) => `mixamorig:${name}`) };
  return { skeleton, restPose: pose, turns };
}

describe('matchJoints', () => {
  const skeleton = (names: string[]): Skeleton => ({ jointCount: names.length, names, parents: Int32Array.from(names, (_, i) => i - 1), sourceIndices: Int32Array.from(names, (_, i) => i) });

  it('matches by exact name, then case-insensitively without a namespace up to the last : or |', () => {
    const source = skeleton(['mixamorig:Hips', 'Spine', 'spine', 'Armature|Head', 'Tail']);
    const target = skeleton(['Hips', 'spine', 'HEAD', 'Foot', '']);
    const match = matchJoints(source, target);
    expect(Array.from(match.sourceOf)).toEqual([0, 2, 3, -1, -1]);
    expect(match.matched).toEqual(['Hips', 'spine', 'HEAD']);
    expect(match.unmatched).toEqual(['Foot', '#4']);
  });

  it('an explicit map (target → source) overrides both rules; a map naming no source joint leaves it unmatched', () => {
    const source = skeleton(['Hips', 'Spine', 'Tail']);
    const target = skeleton(['Hips', 'Spine', 'Foot']);
    const match = matchJoints(source, target, { Hips: 'Spine', Spine: 'Nope', Foot: 'Tail' });
    expect(Array.from(match.sourceOf)).toEqual([1, -1, 2]);
    expect(match.unmatched).toEqual(['Spine']);
  });
});

describe.skipIf(!assets)('retargetClip on CesiumMan', async () => {
  const asset = assets ? await loadModelFromPath(join(assets, 'gltf/CesiumMan.glb')) : (null as unknown as ModelAsset);
  const side: RetargetSide = asset ? { skeleton: asset.skeleton, restPose: asset.restPose } : (null as unknown as RetargetSide);

  it('A → A is exact (within float32 ulps) with translation "scaled" at ratio 1', () => {
    const clip = asset.clips[0];
    const warnings: string[] = [];
    const out = retargetClip(clip, side, side, { translation: 'scaled' }, warnings);
    expect(out.duration).toBeCloseTo(clip.duration, 6);
    expect(warnings).toEqual([expect.stringMatching(/scale or weights channels ignored/)]);
    const times = timesOf(clip.duration);
    const error = frameError(framesAt(side, clip, times), framesAt(side, out, times));
    console.log(`A→A CesiumMan worst rotation ${error.angle.toExponential(2)} rad, position ${error.distance.toExponential(2)} m`);
    expect(error.angle).toBeLessThan(1e-5);
    expect(error.distance).toBeLessThan(1e-6);
    // With the default, non-hips joints keep their rest bone lengths: rotations stay exact.
    const rest = frameError(framesAt(side, clip, times), framesAt(side, retargetClip(clip, side, side), times));
    expect(rest.angle).toBeLessThan(1e-5);
  });

  it('A → A animates the joints the clip animates, no others (a joint held at rest gets no channel)', () => {
    const clip = asset.clips[0];
    const out = retargetClip(clip, side, side, { translation: 'scaled' });
    const animated = (c: AnimationClip, path: string) => new Set(c.channels.filter((ch) => ch.path === path).map((ch) => ch.joint));
    const moves = (c: AnimationClip, j: number) => {
      const values = c.channels.find((ch) => ch.joint === j && ch.path === 'rotation')!.values;
      return values.some((v, i) => Math.abs(v - values[i % 4]) > 1e-6);
    };
    const source = [...animated(clip, 'rotation')].filter((j) => moves(clip, j)).sort((a, b) => a - b);
    expect([...animated(out, 'rotation')].sort((a, b) => a - b)).toEqual(source);
  });

  it('A → A copy turned, scaled ×2 and renamed mixamorig: gives 2 × A\'s skinned vertices', () => {
    const copy = turnedCopy(side, 7);
    const n = asset.skeleton.jointCount;
    // Bind the copy's mesh consistently: B_j' = (2·position, rotation·R_j) of A's bind, vertices ×2.
    const skins = asset.skins.map((skin) => {
      const inverseBindMatrices = new Float32Array(skin.inverseBindMatrices.length);
      for (let i = 0; i < skin.joints.length; i++) {
        const bind = mat4.invert(mat4.create(), skin.inverseBindMatrices.subarray(16 * i, 16 * i + 16) as unknown as mat4)!;
        const r = mat4.getRotation(quat.create(), bind), t = mat4.getTranslation(vec3.create(), bind);
        const turn = copy.turns[skin.joints[i]];
        const turned = quat.multiply(quat.create(), r, turn as unknown as quat);
        const b2 = mat4.fromRotationTranslation(mat4.create(), turned, vec3.scale(vec3.create(), t, 2));
        inverseBindMatrices.set(mat4.invert(mat4.create(), b2)!, 16 * i);
      }
      return { ...skin, inverseBindMatrices };
    });
    const meshes = asset.meshes.map((mesh) => ({ ...mesh, primitives: mesh.primitives.map((p) => ({ ...p, positions: p.positions.map((v) => 2 * v) })) }));
    const target: RetargetSide = { skeleton: copy.skeleton, restPose: copy.restPose };
    const clip = retargetClip(asset.clips[0], side, target, { translation: 'scaled' });
    const b: ModelAsset = { ...asset, skeleton: copy.skeleton, restPose: copy.restPose, skins, meshes, clips: [clip] };
    expect(n).toBe(copy.skeleton.jointCount);
    let worst = 0, size = 0;
    for (const t of timesOf(asset.clips[0].duration, 9)) {
      const va = evaluateModel(asset, 0, t).primitives[0].positions, vb = evaluateModel(b, 0, t).primitives[0].positions;
      for (let i = 0; i < va.length; i++) {
        worst = Math.max(worst, Math.abs(2 * va[i] - vb[i]));
        size = Math.max(size, Math.abs(2 * va[i]));
      }
    }
    console.log(`A→2A turned copy worst vertex error ${worst.toExponential(2)} (model size ${size.toFixed(2)})`);
    expect(worst).toBeLessThan(1e-5 * size);
  });

  it('a degenerate rest pose (hips at height 0) is a RetargetError, not NaN', () => {
    const flat = cloneLocalPose(asset.restPose);
    // Joint 2 (the hips) and all above at the origin: the hips' rest height is 0.
    for (const j of [0, 1, 2]) flat.translations.fill(0, 3 * j, 3 * j + 3);
    expect(() => retargetClip(asset.clips[0], { skeleton: asset.skeleton, restPose: flat }, side))
      .toThrow(expect.objectContaining({ name: 'RetargetError', kind: 'degenerate-rest-pose' }));
    expect(() => retargetClip(asset.clips[0], side, { skeleton: { ...asset.skeleton, names: asset.skeleton.names.map((x) => `x${x}`) }, restPose: asset.restPose }))
      .toThrow(RetargetError);
  });
});

describe.skipIf(!assets)('retargetClip with an .md5anim (Bob)', async () => {
  const library = assets ? await loadClips({ name: 'Bob.md5anim', bytes: readFileSync(join(assets, 'md5/Bob.md5anim')) }, async () => null) : null;

  it('A → A through loadClips is exact (translation "scaled")', () => {
    const side: RetargetSide = { skeleton: library!.skeleton, restPose: library!.restPose, upAxis: 'z' };
    const clip = library!.clips[0];
    const out = retargetClip(clip, side, side, { translation: 'scaled' });
    const times = timesOf(clip.duration, 41);
    const error = frameError(framesAt(side, clip, times), framesAt(side, out, times));
    console.log(`A→A Bob.md5anim worst rotation ${error.angle.toExponential(2)} rad, position ${error.distance.toExponential(2)}`);
    expect(error.angle).toBeLessThan(1e-5);
    expect(error.distance).toBeLessThan(1e-4);
  });

  it('onto a Y-up copy (a glTF-like target) follows the Z-up source turned −90° about X', () => {
    const source: RetargetSide = { skeleton: library!.skeleton, restPose: library!.restPose, upAxis: 'z' };
    const turnedRest = cloneLocalPose(library!.restPose);
    const h = Math.SQRT1_2, d = new Float64Array(4);
    for (let j = 0; j < library!.skeleton.jointCount; j++) {
      if (library!.skeleton.parents[j] >= 0) continue;
      quatMultiplyAt(d, 0, [-h, 0, 0, h], 0, turnedRest.rotations, 4 * j);
      turnedRest.rotations.set(d, 4 * j);
      const t = turnedRest.translations;
      quatRotateAt(d, 0, [-h, 0, 0, h], 0, t, 3 * j);
      t.set(d.subarray(0, 3), 3 * j);
    }
    const target: RetargetSide = { skeleton: { ...library!.skeleton, names: library!.skeleton.names.map((x) => `bob:${x}`) }, restPose: turnedRest, upAxis: 'y' };
    const clip = library!.clips[0];
    const out = retargetClip(clip, source, target, { translation: 'scaled' });
    const times = timesOf(clip.duration, 17);
    const a = framesAt(source, clip, times).map((f) => {
      // The source's frames turned into Y-up.
      const turned = createModelFrames(f.q.length / 4);
      for (let j = 0; j < f.q.length / 4; j++) {
        quatMultiplyAt(turned.q, 4 * j, [-h, 0, 0, h], 0, f.q, 4 * j);
        quatRotateAt(turned.p, 3 * j, [-h, 0, 0, h], 0, f.p, 3 * j);
      }
      return turned;
    });
    const error = frameError(a, framesAt(target, out, times));
    console.log(`Bob Z-up → Y-up worst rotation ${error.angle.toExponential(2)} rad, position ${error.distance.toExponential(2)}`);
    expect(error.angle).toBeLessThan(1e-5);
    expect(error.distance).toBeLessThan(1e-4);
  });
});

describe('retargetClip on a generated 60-joint, 30 s clip', () => {
  it('follows the source between keys', () => {
    const n = 60, next = random(3);
    const parents = Int32Array.from({ length: n }, (_, i) => (i === 0 ? -1 : Math.floor(next() * i)));
    const skeleton: Skeleton = { jointCount: n, names: Array.from({ length: n }, (_, i) => `j${i}`), parents, sourceIndices: Int32Array.from({ length: n }, (_, i) => i) };
    const restPose = createLocalPose(n);
    for (let j = 0; j < n; j++) {
      restPose.translations.set([next() - 0.5, 0.2 + next(), next() - 0.5], 3 * j);
      restPose.rotations.set(randomRotation(next), 4 * j);
    }
    const keys = 30 * 30 + 1;
    const times = Float32Array.from({ length: keys }, (_, k) => k / 30);
    const channels = [];
    for (let j = 0; j < n; j++) {
      const values = new Float32Array(4 * keys);
      for (let k = 0; k < keys; k++) {
        const q = quat.setAxisAngle(quat.create(), vec3.normalize(vec3.create(), [Math.sin(j), 1, Math.cos(j)]), Math.sin(k / 10 + j));
        values.set(quat.multiply(quat.create(), restPose.rotations.subarray(4 * j, 4 * j + 4) as unknown as quat, q), 4 * k);
      }
      channels.push({ joint: j, path: 'rotation' as const, interpolation: 'LINEAR' as const, times, values });
    }
    const hips = new Float32Array(3 * keys);
    for (let k = 0; k < keys; k++) hips.set([Math.sin(k / 20), restPose.translations[1] + 0.1 * Math.sin(k / 5), 0], 3 * k);
    channels.push({ joint: 0, path: 'translation' as const, interpolation: 'LINEAR' as const, times, values: hips });
    const clip: AnimationClip = { name: 'long', duration: 30, channels };
    const side: RetargetSide = { skeleton, restPose };
    const copy = turnedCopy(side, 11);
    // Its load time is a bench figure (`retarget.load_ms.60_joints_30s`), not a test.
    const out = retargetClip(clip, side, { skeleton: copy.skeleton, restPose: copy.restPose });
    const sample = timesOf(30, 61).map((t) => t + 0.0123).filter((t) => t <= 30);
    const error = frameError(framesAt(side, clip, sample), framesAt({ skeleton: copy.skeleton, restPose: copy.restPose }, out, sample), 2, copy.turns);
    console.log(`generated rig (between keys) worst rotation ${error.angle.toExponential(2)} rad, position ${error.distance.toExponential(2)}`);
    expect(out.channels.length).toBe(n + 1);
    expect(error.angle).toBeLessThan(1e-5);
    expect(error.distance).toBeLessThan(1e-4);
  });
});
