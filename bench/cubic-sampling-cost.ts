/**
 * Cubic and morph sampling for `npm run bench` (bench/run-bench.ts): the sampling kernel (WebAssembly SIMD,
 * in a pose kernel's arena, as `AnimatedModel` runs it) against the portable loops on the same clip, alternated
 * in the same batches. The clips are the character's own turned CUBICSPLINE (every channel; tangents the
 * Catmull-Rom secants of the keys, so the curve is the same shape), and a generated `weights` clip.
 */
import type { AnimationChannel, AnimationClip } from '../src/asset/animation-clip.ts';
import { compileClip, type RuntimeClip } from '../src/animation/runtime-clip.ts';
import { sampleClip } from '../src/animation/sample-clip.ts';
import { SamplingContext } from '../src/animation/sampling-context.ts';
import { PoseKernel } from '../src/pose/pose-kernel.ts';
import { createSamplingKernel, samplingArenaBytes } from '../src/pose/sampling-kernel.ts';
import { createLocalPose, type LocalPose } from '../src/skeleton/local-pose.ts';
import type { Skeleton } from '../src/skeleton/skeleton.ts';
import { compare, type Measurement } from './harness.ts';

/** `clip` with every channel CUBICSPLINE through the same keys, tangents the neighbour secants (units per second). */
export function asCubicSpline(clip: AnimationClip): AnimationClip {
  const channels = clip.channels.map((ch): AnimationChannel => {
    const c = ch.path === 'rotation' ? 4 : ch.path === 'weights' ? ch.morphTargetCount! : 3, n = ch.times.length;
    const values = new Float32Array(3 * c * n);
    for (let k = 0; k < n; k++) {
      const p = Math.max(0, k - 1), q = Math.min(n - 1, k + 1), span = ch.times[q] - ch.times[p];
      for (let i = 0; i < c; i++) {
        const m = span > 0 ? (ch.values[q * c + i] - ch.values[p * c + i]) / span : 0;
        values[3 * c * k + i] = m;
        values[3 * c * k + c + i] = ch.values[k * c + i];
        values[3 * c * k + 2 * c + i] = m;
      }
    }
    return { ...ch, interpolation: 'CUBICSPLINE', values };
  });
  return { ...clip, name: `${clip.name} (CUBICSPLINE)`, channels };
}

/** A skeleton of one joint and its rest pose, for a clip of morph weights alone. */
export function oneJoint(): { skeleton: Skeleton; restPose: LocalPose } {
  return { skeleton: { jointCount: 1, names: ['root'], parents: Int32Array.of(-1), sourceIndices: Int32Array.of(0) }, restPose: createLocalPose(1) };
}

/** A clip of one `weights` channel of `count` targets over `keys` keys at 30 per second, `interpolation`. */
export function morphClip(count: number, keys: number, interpolation: 'LINEAR' | 'CUBICSPLINE'): AnimationClip {
  const times = Float32Array.from({ length: keys }, (_, k) => k / 30);
  const stride = interpolation === 'CUBICSPLINE' ? 3 * count : count, at = interpolation === 'CUBICSPLINE' ? count : 0;
  const values = new Float32Array(stride * keys);
  for (let k = 0; k < keys; k++) for (let i = 0; i < count; i++) values[k * stride + at + i] = 0.5 + 0.5 * Math.sin(0.3 * k + i);
  return { name: `${count} weights`, duration: times[keys - 1], channels: [{ joint: 0, path: 'weights', morphWeightOffset: 0, morphTargetCount: count, interpolation, times, values }] };
}

/**
 * ns per sampled frame of `clip` on `skeleton`: the kernel's and the portable loops' (one clip player,
 * advancing 1/60 s a frame and wrapping), with `channels` the clip's channel count for per-channel figures.
 */
export function samplingCost(clip: AnimationClip, skeleton: Skeleton, restPose: LocalPose, morphWeights = 0): { kernel: Measurement; portable: Measurement; channels: number } {
  const runtime: RuntimeClip = compileClip(clip, skeleton.jointCount);
  const player = (kernel: boolean): (() => void) => {
    const poseKernel = new PoseKernel(skeleton, [], undefined, { arenaBytes: samplingArenaBytes([runtime], skeleton.jointCount) });
    const pose: LocalPose = { ...poseKernel.pose, morphWeights: new Float32Array(Math.max(morphWeights, runtime.requiredMorphWeightCount)) };
    const context = new SamplingContext(0, kernel ? createSamplingKernel({ arena: poseKernel.arena }) : null);
    const clock = { t: 0 };
    return () => {
      pose.translations.set(restPose.translations); pose.rotations.set(restPose.rotations); pose.scales.set(restPose.scales);
      clock.t += 1 / 60;
      if (clock.t > clip.duration) clock.t -= clip.duration;
      sampleClip(pose, runtime, clock.t, context);
    };
  };
  const [kernel, portable] = compare([{ name: 'kernel', fn: player(true) }, { name: 'portable', fn: player(false) }], { rounds: 20 });
  const channels = clip.channels.reduce((sum, ch) => sum + (ch.path === 'weights' ? ch.morphTargetCount! : 1), 0);
  return { kernel, portable, channels };
}
