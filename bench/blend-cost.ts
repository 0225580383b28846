/**
 * The blending cases of `npm run bench` (bench/run-bench.ts), on Fox:
 *
 * - `pose.blend_kernel_speedup_over_portable.Fox.<job>`: one `blendLayers` on Fox's Walk, Run and Survey sampled
 *   into a pose kernel's arena, the blending kernel (`BlendingJob.kernel`) against the portable loops, alternated
 *   in the same batches, for the jobs `crossfade` (two layers), `three_layers`, `masked` (a layer through a limb
 *   mask over the rest: the animator's masked layer), `additive` (a crossfade + Survey's motion) and
 *   `masked_additive` (a masked layer + Survey's motion through the mask). Keys ending `.fastest_batches`: the
 *   same from each side's fastest batch (as bench/run-bench.ts's).
 * - `pose.speedup_vs_three.Fox.layered`: one frame of a layered character — Walk on the base layer, Run over it
 *   at 0.5 through a limb mask, Survey added at 0.5 (relative to its first frame) — Animator.update + evaluate
 *   + the pose kernel's matrices, against three.js's mixer doing the same (Walk, Run's tracks of the limb alone
 *   at weight 1, which three.js mixes at 1/(1 + 1) = 0.5, and `makeClipAdditive(Survey)` at 0.5) +
 *   `updateMatrixWorld` + `Skeleton.update`. `.portable_sampling`: the same frame with the portable sampler and
 *   blend (as the other `pose.speedup_vs_three.*` keys). The palettes differ by three.js's slerp against our
 *   nlerp (the table shows the largest difference).
 */
import { AnimationClip as ThreeClip, AnimationUtils } from 'three';
import type { AnimationClip } from '../src/asset/animation-clip.ts';
import type { PrimitiveAsset, SkinAsset } from '../src/asset/model-asset.ts';
import { Animator } from '../src/animation/animator.ts';
import { BlendingJob, blendLayers } from '../src/animation/blending-job.ts';
import { compileClip, type RuntimeClip } from '../src/animation/runtime-clip.ts';
import { sampleClip } from '../src/animation/sample-clip.ts';
import { SamplingContext } from '../src/animation/sampling-context.ts';
import { createBlendingKernel } from '../src/pose/blending-kernel.ts';
import { PoseKernel } from '../src/pose/pose-kernel.ts';
import { animatorSampling, samplingArenaBytes } from '../src/pose/sampling-kernel.ts';
import { copyLocalPose, type LocalPose } from '../src/skeleton/local-pose.ts';
import type { Skeleton } from '../src/skeleton/skeleton.ts';
import { subtreeMask } from '../src/skeleton/subtree-mask.ts';
import { compare, formatNs, type Measurement } from './harness.ts';
import { buildThreeRig } from './three-rig.ts';

/** What the blending cases need of Fox. */
export interface BlendCharacter {
  readonly skeleton: Skeleton;
  readonly restPose: LocalPose;
  readonly skin: SkinAsset;
  readonly primitive: PrimitiveAsset;
  /** Walk, Run, Survey. */
  readonly clips: readonly [AnimationClip, AnimationClip, AnimationClip];
}

const DT = 1 / 60;

/** The limb the masks keep: the first joint whose subtree holds between 3 joints and half the skeleton. */
function limbOf(skeleton: Skeleton): number {
  for (let j = 0; j < skeleton.jointCount; j++) {
    const size = subtreeMask(skeleton, j).reduce((s, m) => s + m, 0);
    if (size >= 3 && size <= skeleton.jointCount / 2) return j;
  }
  return 0;
}

/** The blending cases: figures into `figures`, table rows into `rows`, measurements into `measurements`. */
export async function blendCost(
  ch: BlendCharacter, figures: Record<string, number | string>, rows: string[][], measurements: Array<Measurement & { case: string }>,
  round: (x: number) => number,
): Promise<void> {
  const n = ch.skeleton.jointCount, limb = limbOf(ch.skeleton), limbMask = subtreeMask(ch.skeleton, limb);
  const [walk, run, survey] = ch.clips.map((clip) => compileClip(clip, n));

  // One blendLayers, kernel against portable.
  const arena = new PoseKernel(ch.skeleton, [ch.skin], undefined, { arenaBytes: 1 << 20 }).arena!;
  const kernel = createBlendingKernel(arena)!;
  const context = new SamplingContext();
  const sampled = (clip: RuntimeClip, t: number) => {
    const pose = arena.createPose(n)!;
    copyLocalPose(pose, ch.restPose);
    return sampleClip(pose, clip, t, context);
  };
  const w = sampled(walk, 0.3), r = sampled(run, 0.2), s = sampled(survey, 0.7), s0 = sampled(survey, 0);
  const mask = kernel.createJointWeights(n)!, complement = kernel.createJointWeights(n)!;
  mask.set(limbMask);
  for (let j = 0; j < n; j++) complement[j] = 1 - 0.5 * mask[j];
  const jobs: Record<string, (job: BlendingJob) => void> = {
    crossfade: (job) => { job.addLayer(w, 0.4); job.addLayer(r, 0.6); },
    three_layers: (job) => { job.addLayer(w, 0.4); job.addLayer(r, 0.3); job.addLayer(s, 0.3); },
    masked: (job) => { job.addLayer(w, 1, complement); job.addLayer(r, 0.5, mask); },
    additive: (job) => { job.addLayer(w, 0.4); job.addLayer(r, 0.6); job.addAdditiveLayer(s, s0, 0.5); },
    masked_additive: (job) => { job.addLayer(w, 1, complement); job.addLayer(r, 0.5, mask); job.addAdditiveLayer(s, s0, 0.5, mask); },
  };
  for (const [name, build] of Object.entries(jobs)) {
    const simd = new BlendingJob(), portable = new BlendingJob();
    build(simd);
    build(portable);
    simd.kernel = kernel;
    const out = arena.createPose(n)!, outPortable = arena.createPose(n)!;
    const [k, p] = compare([
      { name: `blend ${name} (kernel)`, fn: () => blendLayers(out, simd) },
      { name: `blend ${name} (portable)`, fn: () => blendLayers(outPortable, portable) },
    ], { warmupMs: 100, batchMs: 5, rounds: 20 });
    const label = `blend: Fox, ${name.replace('_', ' ')} (kernel / portable), per joint`;
    rows.push([label, `${(k.nsPerOp / n).toFixed(1)} ns`, `portable ${(p.nsPerOp / n).toFixed(1)} ns`, `${(p.nsPerOp / k.nsPerOp).toFixed(1)}×`, '']);
    figures[`pose.blend_kernel_speedup_over_portable.Fox.${name}`] = round(p.nsPerOp / k.nsPerOp);
    figures[`pose.blend_kernel_speedup_over_portable.Fox.${name}.fastest_batches`] = round(p.minNsPerOp / k.minNsPerOp);
    measurements.push({ ...k, case: label }, { ...p, case: label });
  }

  // A layered frame against three.js.
  const ours = (sampling: 'auto' | 'js') => {
    const arenaBytes = sampling === 'auto' ? samplingArenaBytes([walk, run, survey], n) : 0;
    const poseKernel = new PoseKernel(ch.skeleton, [ch.skin], undefined, { arenaBytes });
    const animator = new Animator(n, animatorSampling(poseKernel, sampling));
    animator.play(walk);
    animator.play(run, { layer: animator.addLayer({ weight: 0.5, mask: limbMask }) });
    animator.play(survey, { layer: animator.addLayer({ mode: 'additive', weight: 0.5 }) });
    return {
      frame: () => {
        animator.update(DT);
        animator.evaluate(poseKernel.pose, ch.restPose);
        poseKernel.update();
      },
      palette: poseKernel.skinMatrices[0],
    };
  };
  const rig = await buildThreeRig(ch.skeleton, ch.restPose, ch.skin, ch.clips, ch.primitive);
  const [threeWalk, threeRun, threeSurvey] = rig.clips;
  const limbRun = new ThreeClip('Run (limb)', threeRun.duration, threeRun.tracks.filter((t) => limbMask[Number(t.name.slice(1, t.name.indexOf('.')))] === 1));
  const additiveSurvey = AnimationUtils.makeClipAdditive(threeSurvey.clone());
  rig.mixer.stopAllAction();
  rig.mixer.clipAction(threeWalk).play();
  rig.mixer.clipAction(limbRun).play();
  rig.mixer.clipAction(additiveSurvey).setEffectiveWeight(0.5).play();
  const three = () => {
    rig.mixer.update(DT);
    rig.root.updateMatrixWorld();
    rig.skeleton.update();
  };
  const kernelFrame = ours('auto'), portableFrame = ours('js');
  for (let i = 0; i < 37; i++) {
    kernelFrame.frame();
    portableFrame.frame();
    three();
  }
  let diff = 0;
  for (let i = 0; i < kernelFrame.palette.length; i++) diff = Math.max(diff, Math.abs(kernelFrame.palette[i] - rig.skeleton.boneMatrices![i]));
  const [a, b, p] = compare([
    { name: 'sinew', fn: kernelFrame.frame }, { name: 'three', fn: three }, { name: 'sinew (portable sampling)', fn: portableFrame.frame },
  ]);
  const label = 'pose: Fox, layered: Walk + Run through a limb mask + Survey additive';
  rows.push([label, formatNs(a.nsPerOp), formatNs(b.nsPerOp), `${(b.nsPerOp / a.nsPerOp).toFixed(1)}×`, diff.toExponential(1)]);
  rows.push(['  with the portable sampler and blend', formatNs(p.nsPerOp), formatNs(b.nsPerOp), `${(b.nsPerOp / p.nsPerOp).toFixed(1)}×`, '']);
  measurements.push({ ...a, case: label }, { ...b, case: label }, { ...p, case: label });
  figures['pose.speedup_vs_three.Fox.layered'] = round(b.nsPerOp / a.nsPerOp);
  figures['pose.speedup_vs_three.Fox.layered.portable_sampling'] = round(b.nsPerOp / p.nsPerOp);
  figures['pose.speedup_vs_three.Fox.layered.fastest_batches'] = round(b.minNsPerOp / a.minNsPerOp);
  figures['pose.frame_speedup_over_portable.Fox.layered'] = round(p.nsPerOp / a.nsPerOp);
  figures['pose.frame_speedup_over_portable.Fox.layered.fastest_batches'] = round(p.minNsPerOp / a.minNsPerOp);
}
