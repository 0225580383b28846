/**
 * Run by sampling-allocation.test.ts in a node started with `--expose-gc --no-concurrent-recompilation
 * --min-semi-space-size=64 --max-semi-space-size=64` (bench/harness.ts `allocationPerCall` needs them): prints, as
 * JSON, the least bytes per frame over several rounds of an Animator blending two clips on two layers with the
 * sampling kernel (WebAssembly SIMD) and the portable sampler, then the pose kernel — the bench's blended frame
 * on the generated rig (bench/generated-rig.ts), played forward and, every 97 frames, sought back; and
 * (`cubic`) one context sampling a clip of every joint channel CUBICSPLINE and 8 morph weights through the kernel.
 */
import { allocationPerCall } from '../../../bench/harness.ts';
import { generateRig } from '../../../bench/generated-rig.ts';
import { Animator } from '../../../src/animation/animator.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClipAt } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { asCubicSpline, morphClip } from '../../../bench/cubic-sampling-cost.ts';
import { PoseKernel } from '../../../src/pose/pose-kernel.ts';
import { animatorSampling, createSamplingKernel, samplingArenaBytes } from '../../../src/pose/sampling-kernel.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('sampling-allocation-probe: run node with --expose-gc');

const rig = generateRig(64, 100);
const frame = (sampling: 'auto' | 'js'): (() => void) => {
  const [a, b] = rig.clips.map((clip) => compileClip(clip, rig.skeleton.jointCount));
  const kernel = new PoseKernel(rig.skeleton, [rig.skin], undefined, { arenaBytes: samplingArenaBytes([a, b], rig.skeleton.jointCount) });
  const animator = new Animator(rig.skeleton.jointCount, animatorSampling(kernel, sampling));
  animator.play(a);
  animator.play(b, { layer: animator.addLayer({ weight: 0.5 }) });
  let n = 0;
  return () => {
    // Literal arguments: a computed double passed to a call V8 does not inline is boxed (the probe's own garbage).
    if (++n % 97 === 0) animator.update(-0.5);
    else animator.update(1 / 60);
    animator.evaluate(kernel.pose, rig.restPose);
    kernel.update();
  };
};

const cubicFrame = (): (() => void) => {
  const cubic = asCubicSpline(rig.clips[0]), weights = morphClip(8, 31, 'CUBICSPLINE');
  const clip = compileClip({ ...cubic, channels: [...cubic.channels, ...weights.channels] }, rig.skeleton.jointCount);
  const kernel = new PoseKernel(rig.skeleton, [rig.skin], undefined, { arenaBytes: samplingArenaBytes([clip], rig.skeleton.jointCount) });
  const pose = { ...kernel.pose, morphWeights: new Float32Array(8) };
  const context = new SamplingContext(0, createSamplingKernel({ arena: kernel.arena }));
  const clock = new Float64Array(1);
  let n = 0;
  return () => {
    clock[0] = ++n % 97 === 0 ? 0 : clock[0] + 1 / 60;
    sampleClipAt(pose, clip, clock, context);
  };
};

const result: Record<string, { allocated: number; gcDuring: number }> = {};
for (const sampling of ['auto', 'js', 'cubic'] as const) {
  const fn = sampling === 'cubic' ? cubicFrame() : frame(sampling);
  let least = { allocated: Infinity, gcDuring: 0 };
  for (let round = 0; round < 5; round++) {
    const r = await allocationPerCall(fn, 5000, gc);
    if (r.allocated < least.allocated) least = { allocated: r.allocated, gcDuring: r.gcDuring };
  }
  result[sampling] = least;
}
console.log(JSON.stringify(result));
