/**
 * The sampling kernel (WebAssembly SIMD) against the portable sampler, its reference, on every shared clip
 * (../shared/assets/gltf/*.glb|gltf and md5/*.md5mesh with their anims; the cubic channels and morph weights in
 * detail, with their own bounds, in sampling-kernel-cubic.test.ts) at many times —
 * forward, backward, and jumping — and its nlerp against exact slerp (the bound in src/pose/sampling-kernel.ts).
 * Skips the shared clips when ../shared/assets is absent, fails then when CI is set.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { compileClip, type RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { createSamplingKernel, samplingArenaBytes } from '../../../src/pose/sampling-kernel.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { cloneLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';

const assets = sharedAssets();
const present = assets !== null;

function sharedModels(): string[] {
  if (!present) return [];
  const gltf = join(assets!, 'gltf'), md5 = join(assets!, 'md5');
  return [
    ...readdirSync(gltf).filter((f) => /\.(glb|gltf)$/.test(f)).sort().map((f) => join(gltf, f)),
    ...readdirSync(md5).filter((f) => f.endsWith('.md5mesh')).sort().map((f) => join(md5, f)),
  ];
}

/** Exact shortest-arc slerp of unit quaternions (glTF 2.0 Appendix C) with library trigonometry, in double. */
function exactSlerp(a: ArrayLike<number>, b: ArrayLike<number>, s: number): number[] {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const sign = dot < 0 ? -1 : 1;
  dot = Math.min(1, Math.abs(dot));
  const theta = Math.acos(dot);
  if (theta < 1e-9) return [0, 1, 2, 3].map((i) => a[i]);
  const k0 = Math.sin((1 - s) * theta) / Math.sin(theta), k1 = (sign * Math.sin(s * theta)) / Math.sin(theta);
  return [0, 1, 2, 3].map((i) => k0 * a[i] + k1 * b[i]);
}

/** The angle between two unit quaternions as 4-vectors (q and −q the same rotation), radians. */
function quatAngle(p: ArrayLike<number>, q: ArrayLike<number>, o = 0): number {
  const lp = Math.hypot(p[o], p[o + 1], p[o + 2], p[o + 3]), lq = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
  const d = Math.abs(p[o] * q[o] + p[o + 1] * q[o + 1] + p[o + 2] * q[o + 2] + p[o + 3] * q[o + 3]) / (lp * lq);
  // acos loses precision near 1: the chord between the nearer signs gives the angle well there.
  const chord = Math.min(...[1, -1].map((sg) => Math.hypot(...[0, 1, 2, 3].map((i) => p[o + i] / lp - sg * q[o + i] / lq))));
  return d > 0.99 ? 2 * Math.asin(Math.min(1, chord / 2)) : Math.acos(Math.min(1, d));
}

/** The largest angle between consecutive rotation keys of the clip's LINEAR rotation channels (radians). */
function largestKeyAngle(clip: AnimationClip): number {
  let largest = 0;
  for (const ch of clip.channels) {
    if (ch.path !== 'rotation' || ch.interpolation !== 'LINEAR') continue;
    for (let k = 0; k + 1 < ch.times.length; k++) largest = Math.max(largest, quatAngle(ch.values.subarray(4 * k), ch.values.subarray(4 * k + 4)));
  }
  return largest;
}

/** Times over [−0.2, d + 0.2] — a fine uneven grid and every key time with points beside it — in `order`. */
function probeTimes(clip: AnimationClip, order: 'forward' | 'backward' | 'jumping'): number[] {
  const set = new Set<number>();
  const d = clip.duration;
  for (let i = 0; i <= 211; i++) set.add(-0.2 + ((d + 0.4) * i) / 211 + 1e-4 * (i % 3));
  for (const ch of clip.channels) for (const t of ch.times) [t, t - 1e-3, t + 1e-3].forEach((x) => set.add(x));
  const times = [...set].sort((a, b) => a - b);
  if (order === 'backward') times.reverse();
  if (order === 'jumping') {
    let seed = 12345;
    for (let i = times.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const j = seed % (i + 1);
      [times[i], times[j]] = [times[j], times[i]];
    }
  }
  return times;
}

type Memory = 'own' | 'arena' | 'full';

/** Largest differences, kernel against portable, over the times: translations and scales (absolute), rotations (angle). */
function compareBackends(clip: AnimationClip, runtime: RuntimeClip, rest: LocalPose, skeleton: Skeleton, times: readonly number[], memory: Memory) {
  const n = skeleton.jointCount;
  // 'own': the kernel's own memory, output copied in and out; 'arena': the pose kernel's memory, output written
  // in place; 'full': an arena too small for the clip, so the kernel moves to a memory of its own.
  const poseKernel = memory === 'own' ? null : new PoseKernel(skeleton, [], undefined, { arenaBytes: memory === 'arena' ? samplingArenaBytes([runtime], n) : 64 });
  const portable = new SamplingContext(), simd = new SamplingContext(0, createSamplingKernel({ arena: poseKernel?.arena }));
  const a = cloneLocalPose(rest), b = poseKernel ? { ...poseKernel.pose, morphWeights: rest.morphWeights?.slice() } : cloneLocalPose(rest);
  let vector = 0, angle = 0;
  for (const t of times) {
    a.translations.set(rest.translations); a.rotations.set(rest.rotations); a.scales.set(rest.scales);
    b.translations.set(rest.translations); b.rotations.set(rest.rotations); b.scales.set(rest.scales);
    if (poseKernel) expect(b.rotations.buffer).toBe(poseKernel.arena!.memory.buffer);
    sampleClip(a, runtime, t, portable);
    sampleClip(b, runtime, t, simd);
    for (let i = 0; i < a.translations.length; i++) {
      vector = Math.max(vector, Math.abs(a.translations[i] - b.translations[i]) / (1 + Math.abs(a.translations[i])));
      vector = Math.max(vector, Math.abs(a.scales[i] - b.scales[i]) / (1 + Math.abs(a.scales[i])));
    }
    for (let j = 0; 4 * j < a.rotations.length; j++) angle = Math.max(angle, quatAngle(a.rotations, b.rotations, 4 * j));
  }
  return { vector, angle };
}

describe('sampling kernel', () => {
  it('compiles here (node has WebAssembly SIMD)', () => {
    expect(createSamplingKernel()).not.toBeNull();
    expect(createSamplingKernel({ backend: 'js' })).toBeNull();
  });

  it('nlerps between two keys within θ³/54 of exact slerp, exact at s = 0, ½, 1, and the bound is nearly reached', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    let worstRatio = 0;
    for (const theta of [0.02, 0.1, 0.3, 0.7, 1.2, 1.55]) {
      for (let trial = 0; trial < 4; trial++) {
        // q0 random unit; q1 at angle θ from it (as 4-vectors), in the opposite hemisphere on odd trials.
        const q0 = [rand(), rand(), rand(), rand()], l0 = Math.hypot(...q0);
        const u = q0.map((v) => v / l0);
        const r = [rand(), rand(), rand(), rand()], dr = r.reduce((s, v, i) => s + v * u[i], 0);
        const perp = r.map((v, i) => v - dr * u[i]), lp = Math.hypot(...perp);
        const sign = trial % 2 ? -1 : 1;
        const q1 = u.map((v, i) => sign * (Math.cos(theta) * v + Math.sin(theta) * perp[i] / lp));
        const f0 = Float32Array.from(u), f1 = Float32Array.from(q1);
        const clip: AnimationClip = {
          name: 'two keys', duration: 1, markers: [],
          channels: [{ joint: 0, path: 'rotation', interpolation: 'LINEAR', times: Float32Array.of(0, 1), values: Float32Array.from([...f0, ...f1]) }],
        } as unknown as AnimationClip;
        const runtime = compileClip(clip, 1);
        const context = new SamplingContext(0, createSamplingKernel());
        const pose = { translations: new Float32Array(3), rotations: new Float32Array(4), scales: new Float32Array(3) };
        const theta32 = quatAngle(f0, f1);
        for (let i = 0; i <= 64; i++) {
          const s = i / 64;
          sampleClip(pose, runtime, s, context);
          const err = quatAngle(pose.rotations, exactSlerp(f0, f1, s));
          expect(err).toBeLessThanOrEqual(theta32 ** 3 / 54 + 2e-6);
          if (s === 0 || s === 0.5 || s === 1) expect(err).toBeLessThan(2e-6);
          worstRatio = Math.max(worstRatio, theta32 > 0.25 ? err / (theta32 ** 3 / 54) : 0);
        }
      }
    }
    // The bound is not loose: somewhere it is within 15% of being met (θ³/(36√3) ≈ 0.87·θ³/54 to leading order).
    expect(worstRatio).toBeGreaterThan(0.85);
  });

  describe.skipIf(!present)('against the portable sampler on every shared clip', () => {
    for (const path of sharedModels()) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      it(name, async () => {
        const asset = await loadModelFromPath(path);
        for (const clip of asset.clips) {
          const runtime = compileClip(clip, asset.skeleton.jointCount);
          // nlerp's deviation from slerp over the clip's widest key interval, plus float32 rounding.
          const rotationBound = largestKeyAngle(clip) ** 3 / 54 + 4e-6;
          for (const order of ['forward', 'backward', 'jumping'] as const) {
            for (const memory of ['own', 'arena', 'full'] as const) {
              const { vector, angle } = compareBackends(clip, runtime, asset.restPose, asset.skeleton, probeTimes(clip, order), memory);
              expect(vector, `${clip.name} ${order} ${memory}: translations, scales`).toBeLessThan(2e-6);
              expect(angle, `${clip.name} ${order} ${memory}: rotations`).toBeLessThanOrEqual(rotationBound);
            }
          }
        }
      });
    }
  });
});
