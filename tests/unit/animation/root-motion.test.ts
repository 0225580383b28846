import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { Animator } from '../../../src/animation/animator.ts';
import { findMotionRoot } from '../../../src/animation/root-motion.ts';
import { compileClip, type RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { copyLocalPose, createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// Root motion: a walk played in place plus the accumulated placement must match the walk sampled continuously,
// loop k shifted by k × its whole travel (end − start), with an error that does not grow with k.

const S = Math.SQRT1_2;

/**
 * Joint 0: the file's axis conversion (−90° about X, so its local Z is model Y) and an offset; joint 1 the hips,
 * walking 1.5 along model +Z per 1 s loop with a sideways sway, a bob and a yaw sway about model Y that ends
 * where it began; joint 2 a foot below the hips.
 */
function walkRig(): { skeleton: Skeleton; rest: LocalPose; clip: RuntimeClip; source: AnimationClip } {
  const skeleton: Skeleton = { jointCount: 3, names: ['axes', 'hips', 'foot'], parents: Int32Array.of(-1, 0, 1), sourceIndices: Int32Array.of(0, 1, 2) };
  const rest = createLocalPose(3);
  rest.rotations.set([-S, 0, 0, S], 0);
  rest.translations.set([0.5, 0, 0.2], 0);
  rest.translations.set([0.2, 0, -1], 6);
  const keys = 9;
  const times = Float32Array.from({ length: keys }, (_, k) => k / (keys - 1));
  const translations = new Float32Array(3 * keys), rotations = new Float32Array(4 * keys);
  for (let k = 0; k < keys; k++) {
    const phase = (2 * Math.PI * k) / (keys - 1);
    translations.set([0.1 * Math.sin(phase), (-1.5 * k) / (keys - 1), 1 + 0.05 * Math.sin(2 * phase)], 3 * k);
    const yaw = 0.3 * Math.sin(phase), tilt = 0.1 * Math.cos(phase);
    // Yaw about local Z (model Y), then a tilt about local X.
    const [zs, zc, xs, xc] = [Math.sin(yaw / 2), Math.cos(yaw / 2), Math.sin(tilt / 2), Math.cos(tilt / 2)];
    rotations.set([zc * xs, zs * xs, zs * xc, zc * xc], 4 * k);
  }
  const clip: AnimationClip = {
    name: 'walk', duration: 1,
    channels: [
      { joint: 1, path: 'translation', interpolation: 'LINEAR', times, values: translations },
      { joint: 1, path: 'rotation', interpolation: 'LINEAR', times, values: rotations },
    ],
  };
  return { skeleton, rest, clip: compileClip(clip, 3), source: clip };
}

/** Model-space position of `joint` in column-major matrices. */
function position(matrices: Float32Array, joint: number): number[] {
  return [matrices[16 * joint + 12], matrices[16 * joint + 13], matrices[16 * joint + 14]];
}

/** `m`·(p, 1) for a column-major 4×4. */
function transform(m: Float32Array, p: number[]): number[] {
  return [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}

/**
 * Plays `clip` for `loops` loops at 30 frames per second in `applied` mode; per loop k, the largest distance
 * between each checked joint's placed in-place position and the reference: the clip at T mod D (rest-motion
 * `off`), shifted horizontally by k × its travel.
 */
function loopErrors(
  loops: number,
  duration: number,
  step: (animator: Animator, dt: number) => Float32Array,
  reference: (t: number) => Float32Array,
  joints: readonly number[],
  animator: Animator,
  placed = false,
): number[] {
  const start = reference(0).slice(), end = reference(duration).slice();
  const root = joints[0];
  const travel = [position(end, root)[0] - position(start, root)[0], 0, position(end, root)[2] - position(start, root)[2]];
  const placement = new Float32Array(16);
  const errors = new Array<number>(loops).fill(0);
  const frames = Math.round(loops * duration * 30);
  for (let f = 1; f <= frames; f++) {
    const matrices = step(animator, 1 / 30);
    const T = f / 30, k = Math.floor(T / duration + 1e-9), t = T - k * duration;
    if (k >= loops) break;
    // An AnimatedModel moves its pose by the placement itself (`applyPlacement`).
    if (placed) placement.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    else animator.placementMatrix(placement);
    const expected = reference(t);
    for (const j of joints) {
      const got = transform(placement, position(matrices, j));
      const want = position(expected, j).map((v, c) => v + k * travel[c]);
      errors[k] = Math.max(errors[k], Math.hypot(got[0] - want[0], got[1] - want[1], got[2] - want[2]));
    }
  }
  return errors;
}

describe('root motion', () => {
  it('a generated walk: in place plus the placement equals the continuous walk over 10 loops, error not growing', () => {
    const { skeleton, rest, clip } = walkRig();
    const root = findMotionRoot(skeleton, rest, [clip])!;
    expect(root.joint).toBe(1);
    const animator = new Animator(3, { motionRoot: root });
    animator.rootMotion = 'applied';
    animator.play(clip);
    const pose = createLocalPose(3), matrices = new Float32Array(48);
    const refPose = createLocalPose(3), refMatrices = new Float32Array(48), context = new SamplingContext();
    const errors = loopErrors(10, 1, (a, dt) => {
      a.update(dt);
      return localToModel(matrices, skeleton, a.evaluate(pose, rest));
    }, (t) => {
      copyLocalPose(refPose, rest);
      return localToModel(refMatrices, skeleton, sampleClip(refPose, clip, t, context));
    }, [1, 2], animator);
    // errors[k]: loop k + 1. Float32 matrices 15 units out round at about 1e-6.
    expect(errors[0]).toBeLessThan(1e-5);
    expect(errors[9]).toBeLessThanOrEqual(errors[0] + 1e-5);
    // 10 loops of 1.5 along +Z.
    expect(animator.placement[1]).toBeCloseTo(15, 4);
  });

  it('in place: the hips keep their start position across the ground and their start yaw', () => {
    const { skeleton, rest, clip } = walkRig();
    const animator = new Animator(3, { motionRoot: findMotionRoot(skeleton, rest, [clip]) });
    animator.rootMotion = 'in-place';
    animator.play(clip);
    const pose = createLocalPose(3), matrices = new Float32Array(48);
    localToModel(matrices, skeleton, animator.evaluate(pose, rest));
    const start = position(matrices, 1);
    let bob = 0;
    for (let f = 0; f < 50; f++) {
      animator.update(0.07);
      localToModel(matrices, skeleton, animator.evaluate(pose, rest));
      const p = position(matrices, 1);
      expect(p[0]).toBeCloseTo(start[0], 5);
      expect(p[2]).toBeCloseTo(start[2], 5);
      bob = Math.max(bob, Math.abs(p[1] - start[1]));
      // The hips keep their start yaw (0): their X axis (the sway only tilts about it) stays along model X.
      expect(Math.atan2(-matrices[16 + 2], matrices[16])).toBeCloseTo(0, 2); // slerp between keys tilts off X a little
    }
    expect(bob).toBeGreaterThan(0.01); // the height is kept
    expect(Array.from(animator.placement)).toEqual([0, 0, 0]);
  });

  it('a crossfade blends the clips\' deltas by weight: between two copies of the walk at the same phase, the travel is unchanged', () => {
    const { skeleton, rest, clip, source } = walkRig();
    const twin = compileClip({ ...source, name: 'walk2' }, 3);
    const root = findMotionRoot(skeleton, rest, [clip]);
    const run = (fade: boolean): Float64Array => {
      const animator = new Animator(3, { motionRoot: root });
      animator.rootMotion = 'applied';
      const player = animator.play(clip);
      const pose = createLocalPose(3);
      for (let f = 0; f < 60; f++) {
        if (fade && f === 20) animator.play(twin, { fade: 0.5, startTime: player.time });
        animator.update(1 / 30);
        animator.evaluate(pose, rest);
      }
      return animator.placement.slice();
    };
    const plain = run(false), faded = run(true);
    for (let c = 0; c < 3; c++) expect(faded[c]).toBeCloseTo(plain[c], 5);
    expect(plain[1]).toBeCloseTo(3, 4);
  });

  it('off (the default) leaves the pose and the placement alone', () => {
    const { skeleton, rest, clip } = walkRig();
    const animator = new Animator(3, { motionRoot: findMotionRoot(skeleton, rest, [clip]) });
    animator.play(clip);
    animator.update(0.3);
    const pose = animator.evaluate(createLocalPose(3), rest);
    const ref = sampleClip(copyLocalPose(createLocalPose(3), rest), clip, 0.3, new SamplingContext());
    expect(Array.from(pose.translations)).toEqual(Array.from(ref.translations));
    expect(Array.from(animator.placement)).toEqual([0, 0, 0]);
  });

  it('Fox.glb Walk: 10 loops in place plus the placement match the continuous walk, error not growing', async () => {
    const assets = sharedAssets();
    if (!assets) return;
    const asset = await loadModelFromPath(join(assets, 'gltf', 'Fox.glb'));
    const model = new AnimatedModel(asset), reference = new AnimatedModel(asset);
    const walk = asset.clips.findIndex((c) => c.name === 'Walk');
    const hips = asset.skeleton.names.indexOf('b_Hip_01');
    const foot = asset.skeleton.names.findIndex((n) => /Foot|Paw|LegBack/i.test(n));
    model.animator.rootMotion = 'applied';
    model.animator.play(model.clips[walk]);
    const duration = model.clips[walk].duration;
    const errors = loopErrors(10, duration, (a, dt) => {
      a.update(dt);
      model.evaluate(a);
      return model.modelMatrices;
    }, (t) => {
      reference.evaluate(reference.clipSample(walk).at(t));
      return reference.modelMatrices;
    }, foot >= 0 ? [hips, foot] : [hips], model.animator, true);
    const size = 100; // Fox is about 100 units tall: float32 matrices
    expect(errors[0]).toBeLessThan(1e-4 * size);
    expect(errors[9]).toBeLessThanOrEqual(errors[0] + 1e-5 * size);
  });
});
