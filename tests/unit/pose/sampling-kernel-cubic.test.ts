/**
 * The sampling kernel's cubic channels (CUBICSPLINE, HERMITE, CATMULLROM) and morph weights against
 * hand-computed values on a tiny clip, and against the portable sampler (the reference) on synthetic clips of
 * every kind and on every shared clip with cubic or `weights` channels (../shared/assets gltf/ and
 * conformance/glTF-Asset-Generator/Animation_*), forward, backward and jumping, with the pose in the kernel's
 * own memory, in a pose kernel's arena, and with that arena full. Skips the shared clips when ../shared/assets
 * is absent, fails then when CI is set.
 *
 * The bounds (float32 kernel against the double portable loops, both from the same float32 keys), per
 * component with u = 2⁻²⁴ (float32's unit roundoff), for an interval of length Δ ≥ Δmin at |t| ≤ T:
 *
 * - s = (t − t_k)/Δ is float32 of the float32-rounded t: off by δs ≤ u·(T/Δmin + 3) (t's rounding, the
 *   subtraction, the division); the cubic's slope in s is at most 1.5·D + |Δm_k| + |Δm_{k+1}| (max |h01′| = 3/2,
 *   max |h10′|, |h11′| = 1, with h10′(0) = 1), D = |v_{k+1} − v_k|;
 * - evaluating `v_k + h01·(v_{k+1} − v_k) + h10·Δm_k + h11·Δm_{k+1}` in float32 (the basis a few roundings,
 *   |h10|, |h11| ≤ 4/27), Δ·m rounded to float32 once at compileClip, and the result's float32 store: below
 *   12u·(V + D + M), V the largest |value|, M the largest |Δ·m|.
 *
 * So B = u·[(T/Δmin + 4)·(1.5·D + 2M) + 12·(V + D + M)] per component (STEP and holds: exact). Morph
 * weights compute s in double, rounded once to float32 (δs ≤ u): T/Δmin gives way to 1, and LINEAR weights
 * are within u·[5·D + 4·(V + D)]. A rotation is normalised after: two unnormalised quaternions p, p′ with |p − p′| ≤ 2B (four
 * components) normalise to directions at most 2·2B/|p| apart, so the angle is within 4B/ν + 4u, ν the
 * smallest |p| over the clip (found here from an independent double evaluation of the channel).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnimationChannel, AnimationClip, Interpolation } from '../../../src/asset/animation-clip.ts';
import { hasHermiteForm } from '../../../src/animation/hermite-intervals.ts';
import { compileClip, type RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { createSamplingKernel, samplingArenaBytes } from '../../../src/pose/sampling-kernel.ts';
import { cloneLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

const U = 2 ** -24;
const assets = sharedAssets();

/** The angle between two quaternions as 4-vectors, sign-blind (q and −q the same rotation), radians. */
function quatAngle(p: ArrayLike<number>, q: ArrayLike<number>, o = 0): number {
  const lp = Math.hypot(p[o], p[o + 1], p[o + 2], p[o + 3]), lq = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
  const chord = Math.min(...[1, -1].map((sg) => Math.hypot(...[0, 1, 2, 3].map((i) => p[o + i] / lp - sg * q[o + i] / lq))));
  return 2 * Math.asin(Math.min(1, chord / 2));
}

/**
 * The channel's unnormalised curve at t in double, written from glTF 2.0 Appendix C and the Catmull-Rom
 * definition (samplers/catmull-rom.ts's doc) independently of src/: for the norm floor ν of the bound.
 */
function curveAt(ch: AnimationChannel, c: number, k: number, s: number): number[] {
  const { times, values, interpolation } = ch, n = times.length, dt = times[k + 1] - times[k];
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  const key = (j: number): number[] => {
    const stride = interpolation === 'CUBICSPLINE' ? 3 * c : interpolation === 'HERMITE' ? 2 * c : interpolation === 'BEZIER' ? 5 * c : c;
    const at = j * stride + (interpolation === 'CUBICSPLINE' ? c : interpolation === 'BEZIER' ? 2 * c : 0);
    return [...values.subarray(at, at + c)];
  };
  const tangent = (j: number, side: 'in' | 'out'): number[] => {
    if (interpolation === 'CUBICSPLINE') return [...values.subarray(j * 3 * c + (side === 'in' ? 0 : 2 * c), j * 3 * c + (side === 'in' ? c : 3 * c))];
    if (interpolation === 'HERMITE') return [...values.subarray(j * 2 * c + c, j * 2 * c + 2 * c)];
    if (interpolation === 'BEZIER') {
      // Handles a third of the interval away in time: the end derivative is 3·(handle − key)/Δ.
      const span = side === 'out' ? times[j + 1] - times[j] : times[j] - times[j - 1];
      const handle = values.subarray(j * 5 * c + (side === 'out' ? 4 * c : c), j * 5 * c + (side === 'out' ? 5 * c : 2 * c));
      return key(j).map((x, i) => (side === 'out' ? 3 * (handle[i] - x) : 3 * (x - handle[i])) / span);
    }
    // CATMULLROM: neighbours aligned to key j's hemisphere for rotations.
    const align = (q: number[], ref: number[]) => (c === 4 && ch.path === 'rotation' && q.reduce((a, x, i) => a + x * ref[i], 0) < 0 ? q.map((x) => -x) : q);
    const here = key(j);
    const prev = j > 0 ? align(key(j - 1), here) : null, next = j + 1 < n ? align(key(j + 1), here) : null;
    const lo = prev ?? here, hi = next ?? here;
    const span = (next ? times[j + 1] : times[j]) - (prev ? times[j - 1] : times[j]);
    return hi.map((x, i) => (x - lo[i]) / span);
  };
  const v0 = key(k);
  let v1 = key(k + 1), m1 = tangent(k + 1, 'in');
  if (interpolation === 'CATMULLROM' && c === 4 && ch.path === 'rotation' && v1.reduce((a, x, i) => a + x * v0[i], 0) < 0) {
    v1 = v1.map((x) => -x); m1 = m1.map((x) => -x);
  }
  const m0 = tangent(k, 'out');
  return v0.map((x, i) => h00 * x + h10 * dt * m0[i] + h01 * v1[i] + h11 * dt * m1[i]);
}

/** Per element bounds, kernel against portable (see the header): translations/scales absolute, rotations angle, weights absolute. */
interface Bounds { vector: Float64Array; angle: Float64Array; weight: Float64Array }

function boundsOf(clip: AnimationClip, jointCount: number, morphCount: number, maxTime: number): Bounds {
  const bounds: Bounds = { vector: new Float64Array(6 * jointCount), angle: new Float64Array(jointCount), weight: new Float64Array(morphCount) };
  for (const ch of clip.channels) {
    const c = ch.path === 'rotation' ? 4 : ch.path === 'weights' ? ch.morphTargetCount! : 3;
    const { times, values, interpolation } = ch, n = times.length;
    let V = 0, D = 0, M = 0, dmin = Infinity, norm = Infinity;
    // Channels the kernel leaves (BEZIER off thirds) run on the portable loops both sides: bound 0.
    const portable = !hasHermiteForm(interpolation, times, values, c);
    const stride = interpolation === 'CUBICSPLINE' ? 3 * c : interpolation === 'HERMITE' ? 2 * c : interpolation === 'BEZIER' ? 5 * c : c;
    const at = interpolation === 'CUBICSPLINE' ? c : interpolation === 'BEZIER' ? 2 * c : 0;
    for (let k = 0; k < n; k++) for (let i = 0; i < c; i++) V = Math.max(V, Math.abs(values[k * stride + at + i]));
    for (let k = 0; k + 1 < n; k++) {
      const dt = times[k + 1] - times[k];
      dmin = Math.min(dmin, dt);
      for (let i = 0; i < c; i++) D = Math.max(D, Math.abs(values[(k + 1) * stride + at + i]) + Math.abs(values[k * stride + at + i]));
      if (interpolation === 'CUBICSPLINE') for (let i = 0; i < c; i++) M = Math.max(M, dt * Math.abs(values[k * stride + 2 * c + i]), dt * Math.abs(values[(k + 1) * stride + i]));
      if (interpolation === 'HERMITE') for (let i = 0; i < c; i++) M = Math.max(M, dt * Math.abs(values[k * stride + c + i]), dt * Math.abs(values[(k + 1) * stride + c + i]));
      if (interpolation === 'CATMULLROM') M = 2 * V; // Δ_k·|v_{k+1} − v_{k−1}|/(t_{k+1} − t_{k−1}) ≤ 2V
      if (interpolation === 'BEZIER') for (let i = 0; i < c; i++) M = Math.max(M, 3 * Math.abs(values[k * stride + 4 * c + i] - values[k * stride + 2 * c + i]), 3 * Math.abs(values[(k + 1) * stride + 2 * c + i] - values[(k + 1) * stride + c + i]));
      if (ch.path === 'rotation' && interpolation !== 'LINEAR' && interpolation !== 'STEP' && !portable) {
        for (let j = 0; j <= 64; j++) norm = Math.min(norm, Math.hypot(...curveAt(ch, 4, k, j / 64)));
      }
    }
    let b = 0;
    // Morph weights: s in double, rounded once (δs ≤ u), so T/Δmin gives way to 1.
    const ts = ch.path === 'weights' ? 1 : maxTime / dmin;
    if (n > 1 && interpolation !== 'STEP') {
      b = interpolation === 'LINEAR' ? U * ((ts + 4) * D + 4 * (V + D)) : U * ((ts + 4) * (1.5 * D + 2 * M) + 12 * (V + D + M));
    }
    if (ch.path === 'weights') {
      for (let i = 0; i < c; i++) bounds.weight[ch.morphWeightOffset! + i] = portable ? 0 : b;
    } else if (ch.path === 'rotation') {
      // LINEAR rotations: the nlerp bound of sampling-kernel.test.ts (θ³/54 over the widest interval).
      let theta = 0;
      if (interpolation === 'LINEAR') for (let k = 0; k + 1 < n; k++) theta = Math.max(theta, quatAngle(values.subarray(4 * k), values.subarray(4 * k + 4)));
      const angle = interpolation === 'LINEAR' ? theta ** 3 / 54 + 4e-6 : interpolation === 'STEP' || portable ? 0 : 4 * b / norm + 4 * U;
      bounds.angle[ch.joint] = angle;
    } else {
      const o = (ch.path === 'scale' ? 3 * jointCount : 0) + 3 * ch.joint;
      for (let i = 0; i < 3; i++) bounds.vector[o + i] = portable ? 0 : b;
    }
  }
  return bounds;
}

/** Times over [−0.2, d + 0.2] — a fine uneven grid and every key time with points beside it — in `order`. */
function probeTimes(clip: AnimationClip, order: 'forward' | 'backward' | 'jumping'): number[] {
  const set = new Set<number>();
  const d = clip.duration;
  for (let i = 0; i <= 173; i++) set.add(-0.2 + ((d + 0.4) * i) / 173 + 1e-4 * (i % 3));
  for (const ch of clip.channels) for (const t of ch.times) [t, t - 1e-3, t + 1e-3].forEach((x) => set.add(x));
  const times = [...set].sort((a, b) => a - b);
  if (order === 'backward') times.reverse();
  if (order === 'jumping') {
    let seed = 4321;
    for (let i = times.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const j = seed % (i + 1);
      [times[i], times[j]] = [times[j], times[i]];
    }
  }
  return times;
}

/**
 * Samples `runtime` at `times` with the portable loops and with the kernel (memory: 'own', 'arena' or 'full',
 * as in sampling-kernel.test.ts); fails on the first element outside its bound. Returns the largest
 * differences (for the reader) and how far into their bounds they went.
 */
function holdToPortable(clip: AnimationClip, runtime: RuntimeClip, rest: LocalPose, skeleton: Skeleton, times: readonly number[], memory: 'own' | 'arena' | 'full', bounds: Bounds, label: string): number {
  const n = skeleton.jointCount;
  const poseKernel = memory === 'own' ? null : new PoseKernel(skeleton, [], undefined, { arenaBytes: memory === 'arena' ? samplingArenaBytes([runtime], n) : 64 });
  const portable = new SamplingContext(), simd = new SamplingContext(0, createSamplingKernel({ arena: poseKernel?.arena }));
  const a = cloneLocalPose(rest), b = poseKernel ? { ...poseKernel.pose, morphWeights: rest.morphWeights?.slice() } : cloneLocalPose(rest);
  let worst = 0;
  for (const t of times) {
    for (const pose of [a, b]) {
      pose.translations.set(rest.translations); pose.rotations.set(rest.rotations); pose.scales.set(rest.scales);
      if (rest.morphWeights) pose.morphWeights!.set(rest.morphWeights);
    }
    sampleClip(a, runtime, t, portable);
    sampleClip(b, runtime, t, simd);
    const where = `${label} ${memory} t=${t}`;
    for (let i = 0; i < 3 * n; i++) {
      const dt = Math.abs(a.translations[i] - b.translations[i]), ds = Math.abs(a.scales[i] - b.scales[i]);
      const bt = bounds.vector[i], bs = bounds.vector[3 * n + i];
      if (!(dt <= bt)) expect(dt, `${where} translation element ${i}`).toBeLessThanOrEqual(bt);
      if (!(ds <= bs)) expect(ds, `${where} scale element ${i}`).toBeLessThanOrEqual(bs);
      if (bt > 0) worst = Math.max(worst, dt / bt);
      if (bs > 0) worst = Math.max(worst, ds / bs);
    }
    for (let j = 0; j < n; j++) {
      const angle = quatAngle(a.rotations, b.rotations, 4 * j), bound = bounds.angle[j] || 0;
      // Unanimated and held rotations are the same floats; the angle of equal unit quaternions is ~1e-8 from rounding in quatAngle.
      if (!(angle <= bound + 3e-8)) expect(angle, `${where} rotation of joint ${j}`).toBeLessThanOrEqual(bound + 3e-8);
      if (bound > 0) worst = Math.max(worst, angle / bound);
    }
    const wa = a.morphWeights, wb = b.morphWeights;
    for (let i = 0; wa && i < wa.length; i++) {
      const d = Math.abs(wa[i] - wb![i]), bound = bounds.weight[i];
      if (!(d <= bound)) expect(d, `${where} morph weight ${i}`).toBeLessThanOrEqual(bound);
      if (bound > 0) worst = Math.max(worst, d / bound);
    }
  }
  return worst;
}

/** A skeleton of `n` root joints. */
function skeletonOf(n: number): Skeleton {
  return { jointCount: n, names: Array.from({ length: n }, (_, i) => `j${i}`), parents: new Int32Array(n).fill(-1), sourceIndices: Int32Array.from({ length: n }, (_, i) => i) };
}

describe('sampling kernel, cubic channels and morph weights', () => {
  it('matches hand-computed values on a tiny clip: CUBICSPLINE translation and rotation, CUBICSPLINE/LINEAR/STEP weights', () => {
    // Keys at t = 0 and 2 (Δ = 2). Translation x: v 0 → 1, out-tangent 1/s, in-tangent 0: p = h01 + 2·h10;
    // y: v 2 → 2, out −1/s, in 1/s: p = 2 − 2·h10 + 2·h11; z: 3 throughout.
    // Rotation: (0,0,0,1) → (0,0,0.6,0.8), tangents 0: normalize(q0 + h01·(q1 − q0)).
    const translation: AnimationChannel = {
      joint: 0, path: 'translation', interpolation: 'CUBICSPLINE', times: Float32Array.of(0, 2),
      values: Float32Array.of(0, 0, 0, 0, 2, 3, 1, -1, 0, /* key 1 */ 0, 1, 0, 1, 2, 3, 0, 0, 0),
    };
    const rotation: AnimationChannel = {
      joint: 1, path: 'rotation', interpolation: 'CUBICSPLINE', times: Float32Array.of(0, 2),
      values: Float32Array.of(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, /* key 1 */ 0, 0, 0, 0, 0, 0, 0.6, 0.8, 0, 0, 0, 0),
    };
    // Weights 0 and 1 (joint 0): 0 → 1 and 1 → 0, tangents 0 (CUBICSPLINE); weight 2 (joint 1) LINEAR 0 → 4;
    // weight 3 (joint 2) STEP 5 → 7.
    const cubicWeights: AnimationChannel = {
      joint: 0, path: 'weights', morphWeightOffset: 0, morphTargetCount: 2, interpolation: 'CUBICSPLINE', times: Float32Array.of(0, 2),
      values: Float32Array.of(0, 0, 0, 1, 0, 0, /* key 1 */ 0, 0, 1, 0, 0, 0),
    };
    const linearWeight: AnimationChannel = { joint: 1, path: 'weights', morphWeightOffset: 2, morphTargetCount: 1, interpolation: 'LINEAR', times: Float32Array.of(0, 2), values: Float32Array.of(0, 4) };
    const stepWeight: AnimationChannel = { joint: 2, path: 'weights', morphWeightOffset: 3, morphTargetCount: 1, interpolation: 'STEP', times: Float32Array.of(0, 2), values: Float32Array.of(5, 7) };
    const clip: AnimationClip = { name: 'tiny cubic', duration: 2, channels: [translation, rotation, cubicWeights, linearWeight, stepWeight] };
    const runtime = compileClip(clip, 3);
    expect(runtime.portableTimelines.length).toBe(0); // the kernel takes every channel
    const context = new SamplingContext(0, createSamplingKernel());
    const pose = createLocalPose(3, 4);
    const expected = [
      // t, x, y, rotation (z, w) unnormalised, weights
      { t: -1, x: 0, y: 2, q: [0, 1], w: [0, 1, 0, 5] },
      { t: 0.5, x: 0.15625 + 2 * 0.140625, y: 2 - 2 * 0.140625 + 2 * -0.046875, q: [0.6 * 0.15625, 1 - 0.2 * 0.15625], w: [0.15625, 0.84375, 1, 5] },
      { t: 1, x: 0.75, y: 1.5, q: [0.3, 0.9], w: [0.5, 0.5, 2, 5] },
      { t: 2, x: 1, y: 2, q: [0.6, 0.8], w: [1, 0, 4, 7] },
      { t: 3, x: 1, y: 2, q: [0.6, 0.8], w: [1, 0, 4, 7] },
    ];
    for (const e of expected) {
      sampleClip(pose, runtime, e.t, context);
      expect(pose.translations[0]).toBeCloseTo(e.x, 6);
      expect(pose.translations[1]).toBeCloseTo(e.y, 6);
      expect(pose.translations[2]).toBe(3);
      const len = Math.hypot(e.q[0], e.q[1]);
      expect(pose.rotations[4]).toBe(0);
      expect(pose.rotations[5]).toBe(0);
      expect(pose.rotations[6]).toBeCloseTo(e.q[0] / len, 6);
      expect(pose.rotations[7]).toBeCloseTo(e.q[1] / len, 6);
      for (let i = 0; i < 4; i++) expect(pose.morphWeights![i], `t=${e.t} weight ${i}`).toBeCloseTo(e.w[i], 6);
    }
    // Holds are the keys' floats exactly (no normalisation, no arithmetic).
    sampleClip(pose, runtime, 5, context);
    expect([...pose.rotations.subarray(4, 8)]).toEqual([...Float32Array.of(0, 0, 0.6, 0.8)]);
  });

  it('matches the portable sampler on synthetic clips of every kind, within the derived bounds', () => {
    let seed = 99;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const timesOf = (n: number, start: number) => {
      const t = [start];
      for (let k = 1; k < n; k++) t.push(t[k - 1] + 0.05 + 0.4 * Math.abs(rand()));
      return Float32Array.from(t);
    };
    const unit = () => {
      const q = [rand(), rand(), rand(), rand()], l = Math.hypot(...q);
      return q.map((x) => x / l);
    };
    /** n rotation keys wandering by ≤ ~0.5 rad, with hemisphere flips on odd keys when `flip`. */
    const rotationKeys = (n: number, flip: boolean) => {
      const keys: number[][] = [unit()];
      for (let k = 1; k < n; k++) {
        const p = keys[k - 1].map((x) => x + 0.3 * rand()), l = Math.hypot(...p);
        keys.push(p.map((x) => x / l));
      }
      return keys.map((q, k) => (flip && k % 2 ? q.map((x) => -x) : q));
    };
    const channel = (joint: number, path: AnimationChannel['path'], interpolation: Interpolation, times: Float32Array, perKey: (k: number) => number[], extra: Partial<AnimationChannel> = {}): AnimationChannel =>
      ({ joint, path, interpolation, times, values: Float32Array.from([...times].flatMap((_, k) => perKey(k))), ...extra });
    const vec = (c: number, scale = 1) => Array.from({ length: c }, () => scale * rand());
    /** A BEZIER channel through `value(k)` with handles at thirds in time, their values off the key by up to 0.2. */
    const thirds = (joint: number, path: AnimationChannel['path'], times: Float32Array, c: number, value: (k: number) => number[], extra: Partial<AnimationChannel> = {}): AnimationChannel => {
      const n = times.length;
      return channel(joint, path, 'BEZIER', times, (k) => {
        const into = k > 0 ? (times[k] - times[k - 1]) / 3 : 0.1, out = k + 1 < n ? (times[k + 1] - times[k]) / 3 : 0.1, v = value(k);
        return [...v.map(() => -into), ...v.map((x) => x + 0.2 * rand()), ...v, ...v.map(() => out), ...v.map((x) => x + 0.2 * rand())];
      }, extra);
    };
    const cubicSplineRotation = rotationKeys(9, false), catmullRotation = rotationKeys(11, true), hermiteRotation = rotationKeys(6, false);
    const t1 = timesOf(9, 0), t2 = timesOf(11, -0.3), t3 = timesOf(6, 0.2), t4 = timesOf(7, 0);
    const channels: AnimationChannel[] = [
      channel(0, 'translation', 'CUBICSPLINE', t1, () => [...vec(3, 0.5), ...vec(3, 2), ...vec(3, 0.5)]),
      channel(0, 'rotation', 'CUBICSPLINE', t1, (k) => [...vec(4, 0.2), ...cubicSplineRotation[k], ...vec(4, 0.2)]),
      channel(1, 'rotation', 'CATMULLROM', t2, (k) => catmullRotation[k]),
      channel(1, 'translation', 'CATMULLROM', t2, () => vec(3, 3)),
      channel(2, 'scale', 'HERMITE', t3, () => [...vec(3, 1).map((x) => 1 + 0.5 * x), ...vec(3, 0.7)]),
      channel(2, 'rotation', 'HERMITE', t3, (k) => [...hermiteRotation[k], ...vec(4, 0.3)]),
      channel(3, 'translation', 'CUBICSPLINE', Float32Array.of(0.4), () => [9, 9, 9, 1, 2, 3, 9, 9, 9]), // one key
      channel(3, 'rotation', 'CUBICSPLINE', Float32Array.of(0.4), () => [5, 5, 5, 5, 0.1, 0.2, 0.3, 0.9273618, 5, 5, 5, 5]), // one key, not quite unit
      channel(4, 'translation', 'BEZIER', t4, () => [-0.05, -0.05, -0.05, ...vec(3), ...vec(3), 0.05, 0.05, 0.05, ...vec(3)]), // stays portable
      channel(4, 'rotation', 'LINEAR', t4, () => unit()),
      channel(5, 'scale', 'STEP', t4, () => vec(3)),
      channel(0, 'weights', 'CUBICSPLINE', t1, () => [...vec(3, 2), ...vec(3), ...vec(3, 2)], { morphWeightOffset: 0, morphTargetCount: 3 }),
      channel(1, 'weights', 'CATMULLROM', t2, () => vec(4), { morphWeightOffset: 3, morphTargetCount: 4 }), // four weights: not a quaternion
      channel(2, 'weights', 'LINEAR', t3, () => vec(5), { morphWeightOffset: 7, morphTargetCount: 5 }),
      channel(3, 'weights', 'STEP', t4, () => vec(2), { morphWeightOffset: 12, morphTargetCount: 2 }),
      channel(4, 'weights', 'HERMITE', t4, () => [...vec(1), ...vec(1, 3)], { morphWeightOffset: 14, morphTargetCount: 1 }),
      channel(5, 'weights', 'BEZIER', t3, () => [-0.04, -0.04, ...vec(2), ...vec(2), 0.04, 0.04, ...vec(2)], { morphWeightOffset: 15, morphTargetCount: 2 }),
      // BEZIER with every handle a third of its interval away in time: a Hermite cubic, so the kernel's.
      thirds(6, 'translation', t2, 3, () => vec(3, 2)),
      thirds(5, 'rotation', t3, 4, (k) => hermiteRotation[k]),
      thirds(6, 'weights', t4, 2, () => vec(2), { morphWeightOffset: 17, morphTargetCount: 2 }),
    ];
    const duration = Math.max(...channels.map((ch) => ch.times[ch.times.length - 1]));
    const clip: AnimationClip = { name: 'every kind', duration, channels };
    const joints = 7, runtime = compileClip(clip, joints);
    // The kernel leaves BEZIER off thirds alone: one translation, one weights channel.
    expect(runtime.portableCubic.length).toBe(1);
    expect(runtime.portableMorph.length).toBe(1);
    expect(runtime.weightChannels.count).toBe(6);
    const rest = createLocalPose(joints, 19);
    rest.morphWeights!.fill(0.25);
    const bounds = boundsOf(clip, joints, 19, duration + 0.5);
    let worst = 0;
    for (const order of ['forward', 'backward', 'jumping'] as const) {
      for (const memory of ['own', 'arena', 'full'] as const) {
        worst = Math.max(worst, holdToPortable(clip, runtime, rest, skeletonOf(joints), probeTimes(clip, order), memory, bounds, `${order}`));
      }
    }
    // The bounds are not vacuous: the differences use some of them (they are upper bounds, not estimates).
    expect(worst).toBeGreaterThan(1e-3);
  });

  it('takes every channel of the built-in octopus (HERMITE, CATMULLROM, BEZIER at thirds) within the bounds', () => {
    const asset = createOctopusAsset();
    for (const clip of asset.clips) {
      const runtime = compileClip(clip, asset.skeleton.jointCount);
      expect(runtime.portableTimelines.length, clip.name).toBe(0);
      const bounds = boundsOf(clip, asset.skeleton.jointCount, asset.restPose.morphWeights?.length ?? 0, clip.duration + 0.2);
      for (const order of ['forward', 'jumping'] as const) {
        holdToPortable(clip, runtime, asset.restPose, asset.skeleton, probeTimes(clip, order), 'arena', bounds, `octopus "${clip.name}" ${order}`);
      }
    }
  });

  describe.skipIf(assets === null)('against the portable sampler on every shared clip with cubic or weights channels', () => {
    const models = assets === null ? [] : [
      ...readdirSync(join(assets, 'gltf')).filter((f) => /\.(glb|gltf)$/.test(f)).map((f) => join(assets, 'gltf', f)),
      ...['Animation_SamplerType', 'Animation_Node', 'Animation_NodeMisc'].flatMap((dir) => {
        const folder = join(assets, 'conformance/glTF-Asset-Generator', dir);
        return readdirSync(folder).filter((f) => f.endsWith('.gltf')).map((f) => join(folder, f));
      }),
    ].sort();
    it('finds cubic and weights channels among them (InterpolationTest, SimpleMorph, Animation_SamplerType)', async () => {
      const kinds = new Set<string>();
      for (const path of models) {
        for (const clip of (await loadModelFromPath(path)).clips) for (const ch of clip.channels) kinds.add(ch.path === 'weights' ? 'weights' : ch.interpolation);
      }
      expect(kinds).toContain('CUBICSPLINE');
      expect(kinds).toContain('weights');
    });
    for (const path of models) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      it(name, async () => {
        const asset = await loadModelFromPath(path);
        for (const clip of asset.clips) {
          if (!clip.channels.some((ch) => ch.path === 'weights' || (ch.interpolation !== 'LINEAR' && ch.interpolation !== 'STEP'))) continue;
          const runtime = compileClip(clip, asset.skeleton.jointCount);
          const bounds = boundsOf(clip, asset.skeleton.jointCount, asset.restPose.morphWeights?.length ?? 0, clip.duration + 0.2 + Math.abs(clip.channels[0]?.times[0] ?? 0));
          for (const order of ['forward', 'backward', 'jumping'] as const) {
            for (const memory of ['own', 'arena', 'full'] as const) {
              holdToPortable(clip, runtime, asset.restPose, asset.skeleton, probeTimes(clip, order), memory, bounds, `${name} "${clip.name}" ${order}`);
            }
          }
        }
      });
    }
  });
});
