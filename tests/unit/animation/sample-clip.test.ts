import { describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import type { AnimationChannel, AnimationClip } from '../../../src/animation/animation-clip.ts';
import { createClipCursor, sampleClip } from '../../../src/animation/sample-clip.ts';
import { findKeyframe } from '../../../src/animation/keyframe-search.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

function clipOf(...channels: AnimationChannel[]): AnimationClip {
  return { name: 'test', duration: Math.max(...channels.map((c) => c.times[c.times.length - 1])), channels };
}

function sampleTranslation(channel: AnimationChannel, t: number): number[] {
  const pose = createLocalPose(1);
  sampleClip(pose, clipOf(channel), t);
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
      sampleClip(pose, clipOf(channel), s);
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
    sampleClip(pose, clipOf(channel), 0.4);
    expect(Math.hypot(...pose.rotations)).toBeCloseTo(1, 6);
  });

  it('leaves joints and properties the clip does not animate untouched, with or without a cursor', () => {
    const channel: AnimationChannel = { joint: 1, path: 'scale', interpolation: 'LINEAR', times: Float32Array.of(0, 1), values: Float32Array.of(1, 1, 1, 3, 3, 3) };
    const clip = clipOf(channel);
    const cursor = createClipCursor(clip);
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
