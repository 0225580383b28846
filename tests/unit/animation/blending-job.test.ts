import { describe, expect, it } from 'vitest';
import { quat, vec4 } from 'gl-matrix';
import { BlendingJob, blendLayers } from '../../../src/animation/blending-job.ts';
import { crossfadeWeight } from '../../../src/animation/clip-slot.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';
import { cloneLocalPose, createLocalPose } from '../../../src/skeleton/local-pose.ts';
import { crossfade as referenceCrossfade } from '../helpers/reference-crossfade.ts';

const N = 6;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function randomPose(seed: number): LocalPose {
  const rnd = random(seed);
  const pose = createLocalPose(N);
  for (let j = 0; j < N; j++) {
    pose.translations.set([rnd() * 4 - 2, rnd() * 4 - 2, rnd() * 4 - 2], 3 * j);
    pose.scales.set([0.5 + rnd(), 0.5 + rnd(), 0.5 + rnd()], 3 * j);
    const q = quat.setAxisAngle(quat.create(), normalize([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]), rnd() * 3);
    if (rnd() < 0.5) quat.scale(q, q, -1); // either hemisphere
    pose.rotations.set(q, 4 * j);
  }
  return pose;
}

function normalize(v: number[]): [number, number, number] {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
}

function rotationOf(pose: LocalPose, j: number): quat {
  return quat.fromValues(pose.rotations[4 * j], pose.rotations[4 * j + 1], pose.rotations[4 * j + 2], pose.rotations[4 * j + 3]);
}

/** Same rotation (q ≡ −q) within tolerance. */
function expectSameRotation(a: quat, b: quat, digits = 5): void {
  expect(Math.abs(quat.dot(a, b))).toBeCloseTo(1, digits);
}

function expectPoseClose(a: LocalPose, b: LocalPose, digits = 5): void {
  for (let i = 0; i < 3 * N; i++) {
    expect(a.translations[i]).toBeCloseTo(b.translations[i], digits);
    expect(a.scales[i]).toBeCloseTo(b.scales[i], digits);
  }
  for (let j = 0; j < N; j++) expectSameRotation(rotationOf(a, j), rotationOf(b, j), digits);
}

/** The job with one normal layer per pose at its weight (the old `blendPoses`). */
function blendPoses(out: LocalPose, poses: readonly LocalPose[], weights: readonly number[]): LocalPose {
  const job = new BlendingJob();
  poses.forEach((pose, i) => job.addLayer(pose, weights[i]));
  return blendLayers(out, job);
}

/** A crossfade as the Animator runs it: `from` at jointWeights 1 − w·mask[j], `to` at w·mask[j]. */
function crossfade(out: LocalPose, from: LocalPose, to: LocalPose, w: number, mask?: Float32Array): LocalPose {
  const top = Float32Array.from({ length: N }, (_, j) => w * (mask ? mask[j] : 1));
  const job = new BlendingJob();
  job.addLayer(from, 1, top.map((a) => 1 - a));
  job.addLayer(to, 1, top);
  return blendLayers(out, job);
}

/** `additive − reference` added on `base` at `w` (per joint × mask). */
function addAdditive(out: LocalPose, base: LocalPose, additive: LocalPose, reference: LocalPose, w: number, mask?: Float32Array): LocalPose {
  const job = new BlendingJob();
  job.addLayer(base);
  job.addAdditiveLayer(additive, reference, w, mask ?? null);
  return blendLayers(out, job);
}

describe('blendLayers: normal layers (weighted blend of N poses)', () => {
  const a = randomPose(1), b = randomPose(2), c = randomPose(3);

  it('weight 1 on one pose (0 on the others) gives that pose', () => {
    for (const [w, expected] of [[[1, 0, 0], a], [[0, 1, 0], b], [[0, 0, 3], c]] as const) {
      expectPoseClose(blendPoses(createLocalPose(N), [a, b, c], w), expected, 6);
    }
  });

  it('equals the closed form: weighted mean of vectors, nlerp of hemisphere-aligned rotations', () => {
    const w = [0.2, 0.5, 0.3];
    const out = blendPoses(createLocalPose(N), [a, b, c], w);
    for (let i = 0; i < 3 * N; i++) {
      expect(out.translations[i]).toBeCloseTo(0.2 * a.translations[i] + 0.5 * b.translations[i] + 0.3 * c.translations[i], 5);
      expect(out.scales[i]).toBeCloseTo(0.2 * a.scales[i] + 0.5 * b.scales[i] + 0.3 * c.scales[i], 5);
    }
    for (let j = 0; j < N; j++) {
      const acc = quat.scale(quat.create(), rotationOf(a, j), 0.2);
      for (const [pose, weight] of [[b, 0.5], [c, 0.3]] as const) {
        const q = rotationOf(pose, j);
        vec4.scaleAndAdd(acc, acc, q, quat.dot(acc, q) < 0 ? -weight : weight);
      }
      expectSameRotation(rotationOf(out, j), quat.normalize(acc, acc));
    }
  });

  it('normalises weights, blends in place into poses[0], and two poses follow the slerp arc', () => {
    const inPlace = cloneLocalPose(a);
    blendPoses(inPlace, [inPlace, b], [2, 2]);
    const fresh = blendPoses(createLocalPose(N), [a, b], [0.5, 0.5]);
    expectPoseClose(inPlace, fresh, 6);
    // At equal weights, nlerp and slerp meet at the arc's midpoint.
    for (let j = 0; j < N; j++) expectSameRotation(rotationOf(fresh, j), quat.slerp(quat.create(), rotationOf(a, j), rotationOf(b, j), 0.5));
  });

  it('leaves out untouched when every weight is 0', () => {
    const out = cloneLocalPose(c);
    blendPoses(out, [a, b], [0, 0]);
    expect(out).toEqual(c);
  });
});

describe('blendLayers: a crossfade, two layers with per-joint weights', () => {
  const a = randomPose(4), b = randomPose(5);

  it('weight 0 gives from, weight 1 gives to', () => {
    expect(crossfade(createLocalPose(N), a, b, 0)).toEqual(a);
    expectPoseClose(crossfade(createLocalPose(N), a, b, 1), b, 6);
  });

  it('equals blendPoses with weights 1−w, w (and the reference crossfade), and works in place', () => {
    for (const w of [0.1, 0.5, 0.8]) {
      const expected = blendPoses(createLocalPose(N), [a, b], [1 - w, w]);
      expectPoseClose(crossfade(createLocalPose(N), a, b, w), expected, 6);
      expectPoseClose(referenceCrossfade(createLocalPose(N), a, b, w), expected, 6);
      const inPlace = cloneLocalPose(a);
      expectPoseClose(crossfade(inPlace, inPlace, b, w), expected, 6);
    }
  });

  it('two unmasked layers (weights computed once) equal the same layers with all-ones per-joint weights', () => {
    const ones = new Float32Array(N).fill(1);
    for (const [wa, wb] of [[2, 3], [0.25, 0.25], [1, 1e-3]]) {
      const uniform = new BlendingJob(), perJoint = new BlendingJob();
      uniform.addLayer(a, wa); uniform.addLayer(b, wb);
      perJoint.addLayer(a, wa, ones); perJoint.addLayer(b, wb, ones);
      uniform.restPose = perJoint.restPose = randomPose(6);
      uniform.threshold = perJoint.threshold = 1e-4;
      expectPoseClose(blendLayers(createLocalPose(N), uniform), blendLayers(createLocalPose(N), perJoint), 6);
      const inPlace = cloneLocalPose(b);
      uniform.layers[1].pose = inPlace;
      expectPoseClose(blendLayers(inPlace, uniform), blendLayers(createLocalPose(N), perJoint), 6);
    }
  });

  it('a per-joint mask scales the weight joint by joint', () => {
    const mask = Float32Array.of(0, 1, 0.5, 0, 1, 0.25);
    const out = crossfade(createLocalPose(N), a, b, 0.8, mask);
    for (let j = 0; j < N; j++) {
      const expected = crossfade(createLocalPose(N), a, b, 0.8 * mask[j]);
      for (let k = 0; k < 3; k++) expect(out.translations[3 * j + k]).toBeCloseTo(expected.translations[3 * j + k], 6);
      expectSameRotation(rotationOf(out, j), rotationOf(expected, j), 6);
    }
  });

  it('crossfadeWeight ramps linearly over the duration and is 1 for a cut', () => {
    expect(crossfadeWeight(-1, 2)).toBe(0);
    expect(crossfadeWeight(0.5, 2)).toBe(0.25);
    expect(crossfadeWeight(3, 2)).toBe(1);
    expect(crossfadeWeight(0, 0)).toBe(1);
  });
});

describe('blendLayers: additive layers', () => {
  const base = randomPose(6), additive = randomPose(7), reference = randomPose(8);

  it('adding the reference pose itself is the identity, at any weight', () => {
    for (const w of [0.3, 1]) expectPoseClose(addAdditive(createLocalPose(N), base, reference, reference, w), base, 5);
  });

  it('weight 0 gives the base; base = reference at weight 1 gives the additive pose', () => {
    expect(addAdditive(createLocalPose(N), base, additive, reference, 0)).toEqual(base);
    expectPoseClose(addAdditive(createLocalPose(N), reference, additive, reference, 1), additive, 5);
  });

  it('equals the closed form base + Δt, base·(r⁻¹·a), base ⊙ a ⊘ r at weight 1 (gl-matrix oracle)', () => {
    const out = addAdditive(createLocalPose(N), base, additive, reference, 1);
    for (let i = 0; i < 3 * N; i++) {
      expect(out.translations[i]).toBeCloseTo(base.translations[i] + additive.translations[i] - reference.translations[i], 5);
      expect(out.scales[i]).toBeCloseTo((base.scales[i] * additive.scales[i]) / reference.scales[i], 5);
    }
    for (let j = 0; j < N; j++) {
      const delta = quat.multiply(quat.create(), quat.invert(quat.create(), rotationOf(reference, j)), rotationOf(additive, j));
      expectSameRotation(rotationOf(out, j), quat.multiply(quat.create(), rotationOf(base, j), delta));
    }
  });

  it('partial weights nlerp the delta from identity; masks scale per joint; works in place', () => {
    const w = 0.4;
    const mask = Float32Array.of(1, 0, 0.5, 1, 0.25, 0);
    const inPlace = cloneLocalPose(base);
    addAdditive(inPlace, inPlace, additive, reference, w, mask);
    for (let j = 0; j < N; j++) {
      const a = w * mask[j];
      const delta = quat.multiply(quat.create(), quat.invert(quat.create(), rotationOf(reference, j)), rotationOf(additive, j));
      if (delta[3] < 0) quat.scale(delta, delta, -1);
      const partial = quat.normalize(quat.create(), quat.lerp(quat.create(), quat.create(), delta, a));
      expectSameRotation(rotationOf(inPlace, j), quat.multiply(quat.create(), rotationOf(base, j), partial));
      for (let k = 0; k < 3; k++) {
        const i = 3 * j + k;
        expect(inPlace.translations[i]).toBeCloseTo(base.translations[i] + a * (additive.translations[i] - reference.translations[i]), 5);
      }
    }
  });
});

describe('blendLayers: rest pose, morph weights, one job for normal and additive layers', () => {
  const a = randomPose(9), b = randomPose(10), rest = randomPose(11), reference = randomPose(12);

  it('a joint under the threshold takes the rest pose in at threshold − W; no weight at all gives the rest pose', () => {
    const job = new BlendingJob();
    const layer = job.addLayer(a, 1, Float32Array.of(0.04, 1, 0, 0.1, 0.5, 0));
    job.restPose = rest;
    const out = blendLayers(createLocalPose(N), job);
    for (let k = 0; k < 3; k++) {
      expect(out.translations[k]).toBeCloseTo((0.04 * a.translations[k] + 0.06 * rest.translations[k]) / 0.1, 5);
      expect(out.translations[3 + k]).toBe(a.translations[3 + k]); // above the threshold: the layer alone, exactly
      expect(out.translations[6 + k]).toBe(rest.translations[6 + k]);
    }
    layer.weight = 0;
    expect(blendLayers(createLocalPose(N), job)).toEqual(rest);
  });

  it('morph weights: weighted mean by the joint carrying each, then the additive delta', () => {
    const withMorph = (pose: LocalPose, weights: number[]): LocalPose => ({ ...pose, morphWeights: Float32Array.from(weights) });
    const ma = withMorph(a, [0.2, 0.8]), mb = withMorph(b, [1, 0]), add = withMorph(b, [0.5, 0.5]), ref = withMorph(reference, [0.25, 0.5]);
    const job = new BlendingJob();
    job.morphWeightJoints = Int32Array.of(1, 4);
    const mask = Float32Array.of(1, 0.25, 1, 1, 1, 1);
    job.addLayer(ma, 1);
    job.addLayer(mb, 0.5, mask);
    job.addAdditiveLayer(add, ref, 0.5, mask);
    const out = blendLayers(createLocalPose(N, 2), job);
    const w1 = 0.5 * 0.25;
    expect(out.morphWeights![0]).toBeCloseTo((0.2 + w1 * 1) / (1 + w1) + 0.5 * 0.25 * (0.5 - 0.25), 6);
    expect(out.morphWeights![1]).toBeCloseTo((0.8 + 0.5 * 0) / 1.5 + 0.5 * (0.5 - 0.5), 6);
  });

  it('blends four layers in place into any of them, as into a fresh pose', () => {
    const poses = [a, b, rest, reference], w = [0.1, 0.4, 0.2, 0.3];
    const expected = blendPoses(createLocalPose(N), poses, w);
    for (let i = 0; i < 4; i++) {
      const copies = poses.map(cloneLocalPose);
      expectPoseClose(blendPoses(copies[i], copies, w), expected, 6);
    }
  });

  it('normal and additive layers in one job equal the blend, then the additive pass on it; out may alias an input', () => {
    const job = new BlendingJob();
    job.addLayer(a, 0.3);
    job.addLayer(b, 0.7);
    const blended = blendLayers(createLocalPose(N), job);
    job.addAdditiveLayer(b, reference, 0.6);
    expectPoseClose(blendLayers(createLocalPose(N), job), addAdditive(createLocalPose(N), blended, b, reference, 0.6), 5);
    const inPlace = cloneLocalPose(a);
    job.layers[0].pose = inPlace;
    expectPoseClose(blendLayers(inPlace, job), addAdditive(createLocalPose(N), blended, b, reference, 0.6), 5);
  });
});
