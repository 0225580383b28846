import { describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import type { AnimationChannel, AnimationClip } from '../../../src/asset/animation-clip.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import { findKeyframe, sampleChannel } from './sample-channel-oracle.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

function clipOf(...channels: AnimationChannel[]): AnimationClip {
  return { name: 'test', duration: Math.max(...channels.map((c) => c.times[c.times.length - 1])), channels };
}

function sampleTranslation(channel: AnimationChannel, t: number): number[] {
  const pose = createLocalPose(1);
  sampleClipOnce(pose, clipOf(channel), t);
  return Array.from(pose.translations);
}

describe('findKeyframe', () => {
  it('agrees with a linear scan for forward, backward and random times, whatever the hint', () => {
    const times = Float32Array.from({ length: 50 }, (_, i) => i * 0.1 + (i % 3) * 0.01);
    const scan = (t: number) => {
      let k = 0;
      while (k < times.length - 2 && times[k + 1] <= t) k++;
      return k;
    };
    let hint = 0;
    for (let step = 0; step < 2000; step++) {
      const t = step < 1000 ? step * 0.0051 - 0.2 : ((step * 7919) % 1000) / 180 - 0.3;
      hint = findKeyframe(times, t, hint);
      expect(hint).toBe(scan(t));
    }
  });
});

describe('sampleClip samplers (glTF 2.0 Appendix C)', () => {
  const times = Float32Array.of(1, 2, 4);

  it('STEP holds the value of the key at or before t', () => {
    const channel: AnimationChannel = { joint: 0, path: 'translation', interpolation: 'STEP', times, values: Float32Array.of(0, 0, 0, 10, 0, 0, 20, 0, 0) };
    expect(sampleTranslation(channel, 0.5)[0]).toBe(0);
    expect(sampleTranslation(channel, 1.99)[0]).toBe(0);
    expect(sampleTranslation(channel, 2)[0]).toBe(10);
    expect(sampleTranslation(channel, 3.9)[0]).toBe(10);
    expect(sampleTranslation(channel, 9)[0]).toBe(20);
  });

  it('LINEAR interpolates vectors between keys and clamps outside them', () => {
    const channel: AnimationChannel = { joint: 0, path: 'translation', interpolation: 'LINEAR', times, values: Float32Array.of(0, 1, 2, 10, 1, 2, 20, 5, 2) };
    expect(sampleTranslation(channel, 0)).toEqual([0, 1, 2]);
    expect(sampleTranslation(channel, 1.25)[0]).toBeCloseTo(2.5, 6);
    expect(sampleTranslation(channel, 3)[0]).toBeCloseTo(15, 6);
    expect(sampleTranslation(channel, 3)[1]).toBeCloseTo(3, 6);
    expect(sampleTranslation(channel, 100)).toEqual([20, 5, 2]);
  });

  it('LINEAR rotations follow gl-matrix slerp, taking the shortest arc', () => {
    const a = quat.setAxisAngle(quat.create(), [0, 1, 0], 0.2);
    const b = quat.setAxisAngle(quat.create(), [0, 1, 0], 2.9);
    const bFlipped = quat.scale(quat.create(), b, -1); // same rotation, other hemisphere
    const channel: AnimationChannel = { joint: 0, path: 'rotation', interpolation: 'LINEAR', times: Float32Array.of(0, 1), values: Float32Array.from([...a, ...bFlipped]) };
    for (const s of [0.1, 0.37, 0.5, 0.93]) {
      const pose = createLocalPose(1);
      sampleClipOnce(pose, clipOf(channel), s);
      const expected = quat.slerp(quat.create(), a, b, s); // gl-matrix also flips to the short arc
      const dot = Math.abs(quat.dot(Float32Array.from(pose.rotations) as unknown as quat, expected));
      expect(dot).toBeCloseTo(1, 6);
      // And the closed form: the angle about Y grows linearly from 0.2 to 2.9 rad.
      const yAngle = 2 * Math.atan2(pose.rotations[1], pose.rotations[3]);
      expect(yAngle).toBeCloseTo(0.2 + s * 2.7, 4);
    }
  });

  it('CUBICSPLINE is the Hermite cubic with tangents scaled by the key interval', () => {
    // One component shown, x: keys at t=1 (v=1, out b=2) and t=3 (in a=−1, v=5).
    const values = Float32Array.of(
      0, 0, 0, /* in */ 1, 0, 0, /* value */ 2, 0, 0, /* out */
      -1, 0, 0, /* in */ 5, 0, 0, /* value */ 0, 0, 0, /* out */
    );
    const channel: AnimationChannel = { joint: 0, path: 'translation', interpolation: 'CUBICSPLINE', times: Float32Array.of(1, 3), values };
    for (const t of [1, 1.3, 2, 2.8, 3]) {
      const s = (t - 1) / 2, d = 2;
      const expected = (2 * s ** 3 - 3 * s ** 2 + 1) * 1 + (s ** 3 - 2 * s ** 2 + s) * d * 2 + (-2 * s ** 3 + 3 * s ** 2) * 5 + (s ** 3 - s ** 2) * d * -1;
      expect(sampleTranslation(channel, t)[0]).toBeCloseTo(expected, 5);
    }
  });

  it('CUBICSPLINE rotations come out unit length', () => {
    const q0 = quat.setAxisAngle(quat.create(), [1, 0, 0], 0), q1 = quat.setAxisAngle(quat.create(), [1, 0, 0], 1.5);
    const values = Float32Array.from([0, 0, 0, 0, ...q0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, ...q1, 0, 0, 0, 0]);
    const channel: AnimationChannel = { joint: 0, path: 'rotation', interpolation: 'CUBICSPLINE', times: Float32Array.of(0, 1), values };
    const pose = createLocalPose(1);
    sampleClipOnce(pose, clipOf(channel), 0.4);
    expect(Math.hypot(...pose.rotations)).toBeCloseTo(1, 6);
  });

  it('leaves joints and properties the clip does not animate untouched, with or without a cursor', () => {
    const channel: AnimationChannel = { joint: 1, path: 'scale', interpolation: 'LINEAR', times: Float32Array.of(0, 1), values: Float32Array.of(1, 1, 1, 3, 3, 3) };
    const clip = compileClip(clipOf(channel), 2);
    const cursor = new SamplingContext();
    const pose = createLocalPose(2);
    pose.translations.set([7, 8, 9, 4, 5, 6]);
    for (const t of [0.25, 0.75, 0.5]) {
      sampleClip(pose, clip, t, cursor);
      expect(pose.scales[3]).toBeCloseTo(1 + 2 * t, 6);
    }
    expect(Array.from(pose.translations)).toEqual([7, 8, 9, 4, 5, 6]);
    expect(Array.from(pose.scales.subarray(0, 3))).toEqual([1, 1, 1]);
  });
});

describe('sampleClip on the compiled clip form (runtime-clip.ts)', () => {
  /** Deterministic pseudo-random numbers in [0, 1). */
  function rnd(seed: number): () => number {
    let s = seed >>> 0;
    return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  }

  it('gives every channel exactly sampleChannel\'s result, for every kind, shared and own key times, clamps and cursors', () => {
    const random = rnd(5);
    const shared = Float32Array.of(0, 0.25, 0.5, 1, 1.5, 2);
    const sharedCopy = shared.slice(); // equal times in another array: the same timeline
    const own = Float32Array.of(0.3, 0.4, 1.1, 1.7);
    const single = Float32Array.of(0.8);
    const kinds = ['LINEAR', 'STEP', 'CUBICSPLINE', 'HERMITE', 'CATMULLROM', 'BEZIER'] as const;
    const paths = ['translation', 'rotation', 'scale'] as const;
    const channels: AnimationChannel[] = [];
    let joint = 0;
    for (const interpolation of kinds) {
      for (const path of paths) {
        for (const times of [shared, sharedCopy, own, single]) {
          const c = path === 'rotation' ? 4 : 3;
          const stride = interpolation === 'CUBICSPLINE' ? 3 * c : interpolation === 'HERMITE' ? 2 * c : interpolation === 'BEZIER' ? 5 * c : c;
          const values = Float32Array.from({ length: times.length * stride }, () => random() * 2 - 1);
          if (interpolation === 'BEZIER') {
            for (let k = 0; k < times.length; k++) {
              for (let i = 0; i < c; i++) {
                values[k * stride + i] = -0.1 * random(); // in-handle Δtime ≤ 0
                values[k * stride + 3 * c + i] = 0.1 * random(); // out-handle Δtime ≥ 0
              }
            }
          }
          if (path === 'rotation' && interpolation === 'LINEAR') {
            for (let k = 0; k < times.length; k++) {
              const q = values.subarray(4 * k, 4 * k + 4);
              const l = Math.hypot(...q);
              for (let i = 0; i < 4; i++) q[i] /= l;
            }
          }
          channels.push({ joint: joint++, path, interpolation, times, values });
        }
      }
    }
    const clip: AnimationClip = { name: 'all kinds', duration: 2, channels };
    const runtime = compileClip(clip, joint);
    const cursor = new SamplingContext();
    const pose = createLocalPose(joint), expected = createLocalPose(joint);
    const times = [-0.5, 0, 0.1, 0.25, 0.3, 0.31, 0.7, 0.8, 1.05, 1.6, 2, 2.5, 1.2, 0.9, 0.2, 0.05, 1.99, NaN];
    for (let step = 0; step < 400; step++) times.push((step * 0.0137) % 2.2 - 0.1);
    for (const t of times) {
      sampleClip(pose, runtime, t, cursor);
      for (const ch of channels) {
        const target = ch.path === 'rotation' ? expected.rotations : ch.path === 'translation' ? expected.translations : expected.scales;
        const c = ch.path === 'rotation' ? 4 : 3;
        const tt = Number.isNaN(t) ? -Infinity : t; // NaN time holds the first key
        sampleChannel(ch, tt, findKeyframe(ch.times, tt, 0), target, c * ch.joint);
      }
      expect(Array.from(pose.translations)).toEqual(Array.from(expected.translations));
      expect(Array.from(pose.rotations)).toEqual(Array.from(expected.rotations));
      expect(Array.from(pose.scales)).toEqual(Array.from(expected.scales));
    }
  });

  it('lets the later of two channels on one joint property win, as in clip order', () => {
    const times = Float32Array.of(0, 1);
    const clip = clipOf(
      { joint: 0, path: 'translation', interpolation: 'LINEAR', times, values: Float32Array.of(1, 1, 1, 3, 3, 3) },
      { joint: 0, path: 'translation', interpolation: 'STEP', times, values: Float32Array.of(7, 7, 7, 9, 9, 9) },
    );
    const pose = createLocalPose(1);
    sampleClipOnce(pose, clip, 0.5);
    expect(Array.from(pose.translations)).toEqual([7, 7, 7]);
  });
});
