import { describe, expect, it } from 'vitest';
import { quat } from 'gl-matrix';
import type { AnimationChannel, AnimationClip } from '../../../src/asset/animation-clip.ts';
import { Animator } from '../../../src/animation/animator.ts';
import { BlendingJob, blendLayers } from '../../../src/animation/blending-job.ts';
import { compileClip, type RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import { crossfade } from '../helpers/reference-crossfade.ts';
import { wrapClipTime } from './wrap-clip-time.ts';
import { sampleClipOnce } from '../helpers/sample-once.ts';
import type { LocalPose } from '../../../src/skeleton/local-pose.ts';
import { cloneLocalPose, copyLocalPose, createLocalPose } from '../../../src/skeleton/local-pose.ts';

const N = 4;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A clip animating translation and rotation of joints 0…2 (joint 3 stays at rest), keys over `duration`. */
function randomClip(seed: number, duration: number, interpolation: 'LINEAR' | 'CATMULLROM' = 'LINEAR'): AnimationClip {
  const rnd = random(seed);
  const keys = 6;
  const times = Float32Array.from({ length: keys }, (_, i) => (duration * i) / (keys - 1));
  const channels: AnimationChannel[] = [];
  for (let joint = 0; joint < 3; joint++) {
    channels.push({ joint, path: 'translation', interpolation, times, values: Float32Array.from({ length: 3 * keys }, () => rnd() * 2 - 1) });
    const rotations = new Float32Array(4 * keys);
    for (let k = 0; k < keys; k++) {
      const q = quat.setAxisAngle(quat.create(), [0, 1, 0], rnd() * 2 + joint);
      rotations.set(q, 4 * k);
    }
    channels.push({ joint, path: 'rotation', interpolation, times, values: rotations });
  }
  return { name: `clip${seed}`, duration, channels };
}

const rest = createLocalPose(N);
for (let j = 0; j < N; j++) rest.translations.set([j, 0.5, -j], 3 * j);

/** Independent oracle: rest pose overwritten by the clip at `time` (no cursor, no player). */
function at(clip: AnimationClip | RuntimeClip, time: number): LocalPose {
  return sampleClipOnce(cloneLocalPose(rest), clip, time);
}

function expectPoseClose(a: LocalPose, b: LocalPose, digits = 5): void {
  for (let i = 0; i < 3 * N; i++) {
    expect(a.translations[i]).toBeCloseTo(b.translations[i], digits);
    expect(a.scales[i]).toBeCloseTo(b.scales[i], digits);
  }
  for (let j = 0; j < N; j++) {
    let dot = 0;
    for (let k = 0; k < 4; k++) dot += a.rotations[4 * j + k] * b.rotations[4 * j + k];
    expect(Math.abs(dot)).toBeCloseTo(1, digits);
  }
}

const dt = 1 / 30;

/** `additive − reference` added on `base` at `weight` (blendLayers' additive pass, tested in blending-job.test.ts). */
function addAdditive(out: LocalPose, base: LocalPose, additive: LocalPose, reference: LocalPose, weight: number): LocalPose {
  const job = new BlendingJob();
  job.addLayer(base);
  job.addAdditiveLayer(additive, reference, weight);
  return blendLayers(out, job);
}

describe('Animator', () => {
  const A = compileClip(randomClip(1, 1.2), N), B = compileClip(randomClip(2, 0.8, 'CATMULLROM'), N), C = compileClip(randomClip(3, 2), N);

  it('one clip plays like sampleClip at the wrapped time, for each loop mode and speed', () => {
    for (const loop of ['loop', 'once', 'pingpong'] as const) {
      for (const speed of [1, -1.5]) {
        const animator = new Animator(N);
        animator.play(A, { loop, speed, startTime: speed < 0 ? 1.2 : 0 });
        const out = createLocalPose(N);
        let t = speed < 0 ? 1.2 : 0;
        for (let frame = 0; frame < 90; frame++) {
          animator.update(dt);
          t += speed * dt;
          animator.evaluate(out, rest);
          const time = animator.player()!.time;
          expect(Math.min(Math.abs(time - wrapClipTime(t, 1.2, loop)), loop === 'loop' ? 1.2 - Math.abs(time - wrapClipTime(t, 1.2, loop)) : 1)).toBeLessThan(1e-6);
          expectPoseClose(out, at(A, time), 6);
        }
      }
    }
  });

  it('crossfades: the old clip at the start, the weighted blend during the fade, the new clip after', () => {
    const animator = new Animator(N);
    animator.play(A);
    for (let i = 0; i < 10; i++) animator.update(dt);
    const out = createLocalPose(N);
    const fade = 0.51; // not a multiple of dt: no frame sits exactly on the fade's end
    animator.play(B, { fade });
    let tA = 10 * dt, tB = 0;
    animator.evaluate(out, rest);
    expectPoseClose(out, at(A, tA), 6); // endpoint: weight 0 on B
    for (let frame = 1; frame <= 25; frame++) {
      animator.update(dt);
      tA += dt;
      tB += dt;
      animator.evaluate(out, rest);
      const w = Math.min(1, (frame * dt) / fade);
      const expected = w < 1 ? crossfade(createLocalPose(N), at(A, wrapClipTime(tA, 1.2, 'loop')), at(B, wrapClipTime(tB, 0.8, 'loop')), w) : at(B, wrapClipTime(tB, 0.8, 'loop'));
      expectPoseClose(out, expected, 4);
      expect(animator.activeClipCount()).toBe(w < 1 ? 2 : 1);
    }
    expect(animator.player()!.clip).toBe(B);
  });

  it('setLayerSpeed reaches the clip fading out as well as the new one', () => {
    const animator = new Animator(N);
    const a = animator.play(A);
    animator.update(0.2);
    const b = animator.play(B, { fade: 1 });
    animator.setLayerSpeed(0, -0.5);
    expect([a.speed, b.speed]).toEqual([-0.5, -0.5]);
    animator.update(0.1);
    expect(a.time).toBeCloseTo(0.2 - 0.05, 6);
    const c = animator.play(C, { speed: 2 }); // clips started later take their own speed
    expect(c.speed).toBe(2);
    expect(() => animator.setLayerSpeed(3, 1)).toThrow(RangeError);
  });

  it('a first clip with a fade fades in from the rest pose', () => {
    const animator = new Animator(N);
    animator.play(A, { fade: 0.4 });
    const out = createLocalPose(N);
    animator.evaluate(out, rest);
    expectPoseClose(out, rest, 6);
    for (let frame = 1; frame <= 6; frame++) animator.update(dt);
    animator.evaluate(out, rest);
    expectPoseClose(out, crossfade(createLocalPose(N), rest, at(A, 6 * dt), (6 * dt) / 0.4), 5);
  });

  it('an override layer blends over the base by layer weight through its per-joint mask; weight 0 is the base', () => {
    const animator = new Animator(N);
    animator.play(A);
    const mask = Float32Array.of(1, 0, 0.5, 1);
    const upper = animator.addLayer({ weight: 0.6, mask });
    animator.play(C, { layer: upper });
    for (let i = 0; i < 7; i++) animator.update(dt);
    const out = createLocalPose(N);
    animator.evaluate(out, rest);
    expectPoseClose(out, crossfade(createLocalPose(N), at(A, 7 * dt), at(C, 7 * dt), 0.6, mask), 5);
    animator.setLayerWeight(upper, 0);
    animator.evaluate(out, rest);
    expectPoseClose(out, at(A, 7 * dt), 6);
    animator.setLayerWeight(upper, 1);
    animator.setLayerMask(upper, null);
    animator.evaluate(out, rest);
    expectPoseClose(out, at(C, 7 * dt), 6);
  });

  it('copies a layer mask: later edits of the array are not seen until it is set again', () => {
    const animator = new Animator(N);
    animator.play(A);
    const mask = Float32Array.of(1, 0, 0.5, 1);
    const upper = animator.addLayer({ weight: 0.6, mask });
    animator.play(C, { layer: upper });
    for (let i = 0; i < 3; i++) animator.update(dt);
    const out = createLocalPose(N), expected = crossfade(createLocalPose(N), at(A, 3 * dt), at(C, 3 * dt), 0.6, Float32Array.of(1, 0, 0.5, 1));
    mask.fill(0);
    animator.evaluate(out, rest);
    expectPoseClose(out, expected, 6);
    animator.setLayerMask(upper, mask);
    animator.evaluate(out, rest);
    expectPoseClose(out, at(A, 3 * dt), 6);
  });

  it('an additive layer adds clip − reference (its first frame by default); the reference pose itself adds nothing', () => {
    const animator = new Animator(N);
    animator.play(A);
    const add = animator.addLayer({ mode: 'additive', weight: 0.7 });
    animator.play(C, { layer: add });
    for (let i = 0; i < 12; i++) animator.update(dt);
    const out = createLocalPose(N);
    animator.evaluate(out, rest);
    const t = 12 * dt;
    expectPoseClose(out, addAdditive(createLocalPose(N), at(A, t), at(C, t), at(C, 0), 0.7), 5);
    // Explicit reference equal to the additive clip's current pose: the base comes out unchanged.
    animator.play(C, { layer: add, reference: at(C, 12 * dt), startTime: 12 * dt });
    animator.evaluate(out, rest);
    expectPoseClose(out, at(A, t), 5);
  });

  it('keeps at most maxClipsPerLayer clips, dropping the weakest, and frees faded-out clips', () => {
    const animator = new Animator(N, { maxClipsPerLayer: 2 });
    animator.play(A);
    animator.play(B, { fade: 1 });
    animator.update(0.25);
    // Pool full: B (weight .25) is dropped and its weight goes to A (.75 → 1, fading to 0), so Σ w stays 1.
    animator.play(C, { fade: 1 });
    expect(animator.activeClipCount()).toBe(2);
    expect(animator.player()!.clip).toBe(C);
    const out = createLocalPose(N);
    animator.evaluate(out, rest);
    expectPoseClose(out, at(A, 0.25), 6);
    animator.update(1);
    expect(animator.activeClipCount()).toBe(1);
    animator.stop(0, 0);
    expect(animator.activeClipCount()).toBe(0);
    animator.evaluate(out, rest);
    expectPoseClose(out, rest, 6);
  });

  it('rejects a layer that does not exist and a mask of the wrong length', () => {
    const animator = new Animator(N);
    expect(() => animator.play(A, { layer: 2 })).toThrow(RangeError);
    expect(() => animator.addLayer({ mask: new Float32Array(3) })).toThrow(/mask has 3 entries for 4 joints/);
  });

  it('evaluate does not depend on the out pose\'s previous contents', () => {
    const animator = new Animator(N);
    animator.play(A);
    animator.play(B, { fade: 0.3 });
    animator.update(0.1);
    const a = createLocalPose(N), b = cloneLocalPose(rest);
    copyLocalPose(b, at(C, 0.5));
    animator.evaluate(a, rest);
    animator.evaluate(b, rest);
    expect(b).toEqual(a);
  });
});
