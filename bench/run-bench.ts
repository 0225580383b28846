/**
 * `npm run bench`: Sinew's animation and skinning hot paths beside three.js's, on the same inputs, in one
 * process run. Prints a table and writes the figures as JSON to the temporary folder
 * (`sinew-bench-results.json`), or to `bench/results.json` (the source of the site's generated performance reference, build/docs/reference-pages.ts) with `--save`:
 *
 * - `pose.speedup_vs_three`: one character per frame — Animator.update + evaluate (sample + blend) +
 *   localToModel + computeSkinMatrices — against three.js `AnimationMixer.update` + `updateMatrixWorld` +
 *   `Skeleton.update` on the same clips, on Fox (../shared/assets/gltf/Fox.glb) and a generated 256-joint
 *   branching skeleton, one clip and a 50/50 blend of two; the figure is the smallest of the four speedups.
 *   Both sides do the same work: the same key arrays and interpolation, every skeleton node's world matrix
 *   (three.js: every Object3D of the hierarchy), a palette over the same skin joints; the palettes are
 *   compared after the same frames. Each case is warmed up, then the two sides run in alternating batches;
 *   figures are medians of batches (bench/harness.ts).
 *   The matrix stages run on `PoseKernel`'s default backend (`pose.kernel_backend`: WebAssembly SIMD in node);
 *   `pose.matrix_speedup_over_portable.*` is its speed over the portable backend (`localToModel` +
 *   `computeSkinMatrices`) on the same pose. Sampling and blending run as `AnimatedModel` runs them:
 *   the sampling and blending kernels in the pose kernel's arena (`animatorSampling`); the same frame with the
 *   portable sampler and blend, alternated in the same batches, gives `pose.speedup_vs_three.*.portable_sampling`.
 *   `pose.frame_ns_per_joint.*` (and `.portable_sampling`): the frame's time per skeleton joint. Keys ending
 *   `.fastest_batches`: the same from each case's fastest batch (least preempted on a loaded machine).
 * - `pose.stage_ns_per_joint.*`: the same frame split into stages, each timed alone (alternating with the
 *   others): ours `sample` (Animator.update + evaluate: copy the rest pose, sample the clip), `localToModel`,
 *   `skinMatrices`; three.js `mixer` (AnimationMixer.update), `matrixWorld` (updateMatrixWorld), `skeleton`
 *   (Skeleton.update) — ns per joint (sample and mixer: per animated channel), to show where time goes.
 *   `pose.sampling_speedup_vs_three.*`: three.js's mixer over our sample stage (`.portable`: the portable
 *   sampler's, timed in the same rounds).
 *   `pose.speedup_bound_if_sampling_free.*`: three.js's three stages over our two matrix stages alone — the
 *   pose speedup no sampler could exceed, since localToModel and computeSkinMatrices do the same-shaped
 *   per-joint work as three.js's updateMatrixWorld and Skeleton.update.
 * - `skin.speedup_vs_three`: `SkinningKernel.skin` (4 influences, positions; `skin.kernel_backend`: WebAssembly
 *   SIMD in node) against `SkinnedMesh.applyBoneTransform` over all vertices (three.js skins positions only);
 *   `skin.speedup_vs_three_with_normals` charges our normals too; `skin.portable_speedup_vs_three*` the same for
 *   the portable reference `skinVertices`, `skin.kernel_speedup_over_portable` the kernel's speed over it
 *   (positions + normals; `skin.kernel_us_with_normals.*`, `skin.portable_us_with_normals.*`, `skin.three_us.*`
 *   the times). `skin.ratio_to_flat_loop`: a hand-written flat JavaScript loop's time / skinVertices's
 *   (positions + normals): ≥ 0.9 means the reference is at the JavaScript limit; `skin.kernel_ratio_to_flat_loop`
 *   the same over the kernel. `skin.kernel_ratio_to_memory_floor`: the time of `SkinningKernel.streamOnly` (the
 *   kernel's loads and stores without arithmetic) / the kernel's (positions + normals): 1 would be memory-bound.
 *   `skin.kernel_dqs_speedup_over_portable`: dual quaternion skinning (`{ skinning: 'dqs' }`, positions +
 *   normals), the kernel's speed over the portable `skinVertices` (`skin.kernel_dqs_us_with_normals.*`,
 *   `skin.portable_dqs_us_with_normals.*` the times); `skin.kernel_dqs_cost_over_lbs`: the kernel's DQS time over
 *   its LBS time (positions + normals; the per-joint DQS palette, a polar decomposition each, included).
 *   Smallest speedups (largest floor ratio) over Fox and a generated 30 000-vertex mesh; all cases of a mesh
 *   run alternately in one process.
 * - `pose.bytes_allocated_per_frame`: heap growth over 10 000 frames of the blended pipeline (two clips on
 *   two layers, localToModel, palette) with no GC in between (after a warm-up and forced GCs; the young
 *   generation is made large enough that none happens, and GCs are counted to prove it), per frame — every
 *   byte allocated, garbage included. `pose.bytes_retained_per_frame`: the growth left after a final
 *   forced GC. `pose.bytes_allocated_per_frame.crossfading`: the same with the base layer crossfading between
 *   the two clips every 150 frames and the animator's events collected (`play` itself may allocate a little).
 *
 * - `pose.blend_kernel_speedup_over_portable.Fox.*` (one `blendLayers`, the blending kernel over the portable
 *   loops: crossfade, three layers, masked, additive, masked + additive) and `pose.speedup_vs_three.Fox.layered`
 *   (a frame with a masked layer and an additive one, against three.js; not in `pose.speedup_vs_three`'s
 *   minimum): bench/blend-cost.ts.
 * - `pose.cubic_sampling_ns_per_channel.*` (and `.portable`), `pose.cubic_sampling_speedup_over_portable.*`: the
 *   sample stage alone on each character's first clip turned CUBICSPLINE (bench/cubic-sampling-cost.ts), the
 *   sampling kernel against the portable loops; `pose.morph_sampling_speedup_over_portable.64_weights_*`: the
 *   same for a clip of one 64-target `weights` channel, LINEAR and CUBICSPLINE.
 * - `pose.retargeted_over_native.Fox`: one frame of Fox playing Walk retargeted from a `mixamorig:`-named copy
 *   of itself (bench/retarget-cost.ts) over the same frame playing its own Walk: ≈ 1, since retargeting makes an
 *   ordinary clip at load. `retarget.load_ms.60_joints_30s`: the load-time cost, retargeting a generated
 *   60-joint, 30 s clip.
 * - `optimize.ratio.*`, `optimize.max_error_mm.*`, `optimize.ms.*`: `sinew optimize --max-error 0.1mm` on Fox,
 *   CesiumMan and generated60, whole-file bytes in / out and the worst measured error (bench/optimize-cost.ts).
 * - `vrma.load60s_ms`: the generated 60 s VRM Animation (`buildVrmaClip({ duration: 60 })`: the walk's humanoid
 *   tracks at 30 keys per second, expression and look-at tracks) read by `loadClips` and retargeted through the
 *   humanoid onto the generated VRM 1.0 avatar (bench/vrma-cost.ts).
 * - `vrm.spring_us_per_avatar`, `vrm.spring_us_per_avatar.js`, `vrm.spring_speedup_vs_three_vrm`: one secondary
 *   motion update (node constraints + spring bones, 1/60 s) of the generated VRM 1.0 avatar, the springs on the
 *   WebAssembly kernel and on the portable job, against three-vrm's `springBoneManager.update(1/60)` on the same
 *   file in this process, in alternating batches (bench/spring-cost.ts).
 * - `hotspots.frame_us.Fox_5`: one frame of five `<sinew-viewer>` hotspots on Fox (bench/hotspot-cost.ts): the
 *   pose evaluated, each hotspot's `ModelPoint.place` and, when it faces the eye, `PointOcclusion.crossings`
 *   (CPU picking); `hotspots.bytes_allocated_per_frame.Fox_5`: its heap growth per frame, as above.
 * - `pick.fox_us`, `pick.fox_over_skin`, `pick.30k_us`, `pick.30k_over_skin`, `pick.fox_dqs_us`, `pick.fox_dqs_over_skin_dqs`,
 *   `pick.bytes_allocated_per_pick`: one `pickModel` on the skinned surface against skinning the whole mesh,
 *   on Fox and a generated 30 000-vertex character (bench/pick-cost.ts).
 * - `eval.seconds.30M`, `eval.peak_rss_mib.30M`, `inspect.seconds.100k_nodes`, `inspect.peak_rss_mib.100k_nodes`:
 *   the `sinew` command on a file declaring 30 million vertices and on one of 100 000 nodes, run as a child
 *   process: wall time and peak resident memory (bench/cli-cost.ts; needs `npm run build`).
 * - `nodes20k.load_ms`, `nodes20k.evaluate_ms`: a generated scene of 20 000 rigid mesh nodes, the CPU side of
 *   its load and of a frame; `nodes20k.element_load_ms`, `nodes20k.frame_ms`, `nodes20k.draw_calls`: the same in `<sinew-viewer>` in headless Chromium, with the GPU cases
 *   (bench/many-nodes-cost.ts).
 * - `malformed_corpus.element_slowest_ms`, `malformed_corpus.element_median_ms`: each file of the malformed corpus
 *   set as `<sinew-viewer>`'s `src`, to its `sinew-error`, in headless Chromium with the GPU cases
 *   (bench/malformed-corpus-cost.ts).
 * - `render.video_over_stills.fox` (target ≤ 4), `render.video_ms.fox`, `render.stills_ms.fox`: a 5 s, 30 fps,
 *   480 × 480 WebM preview of Fox (`toVideo` in `sinew render`'s page) over 150 stills drawn and read without an
 *   encoder, with the GPU cases (bench/render-video-cost.ts; needs `npm run build`).
 * - `nodes.flat100k.eval_s`, `nodes.skinned20k.load_ms`: `sinew eval` (in-process) on a glTF of 100 000 sibling root
 *   nodes, and loading a GLB of 20 000 nodes instancing one skinned mesh to a ready model; each also at a quarter of
 *   the size (`nodes.flat25k.eval_s`, `nodes.skinned5k.load_ms`) and the ratio (`*_ratio_to_quarter`: ≈ 4 when
 *   linear, ≈ 16 when quadratic; bench/node-count-cost.ts).
 * - `crowd.cpu.*`, `crowd.bounds_ms.*`, `crowd.bytes_per_*`, `crowd.upload_bytes_per_instance.*`: the crowd's CPU
 *   side in node — a frame's `update` + `prepare` per instance and joint (crowd kernel, per instance, baked), the
 *   skinned bounds of 100 characters × 100 joints, memory per instance and per clip second (bench/crowd-cost.ts).
 * - `crowd.vrm.N1000.cpu_ms`, `crowd.vrm.N1000.cpu_ms.no_springs`: one frame (`update` + `prepare`) of 1 000 live
 *   generated VRM avatars walking, each with its own spring bones, and the same with the springs off, ms
 *   (bench/crowd-vrm-cost.ts).
 * - `crowd.graph.N10000.*`: 10 000 live instances running an animation graph, the CPU it adds to a frame and the
 *   whole frame against the crowd without it (bench/crowd-graph-cost.ts).
 * - `gpu.*`, `crowd.*`: the crowd pages in headless Chromium, Sinew against three.js (bench/gpu-bench.ts; needs
 *   `npm run build` first for dist/bench/crowd-bench.html, skipped with a note otherwise; `--no-gpu` skips them).
 * - `crowd.N1000.ratio_to_rigid*`: the 5 000-vertex worm's skinned crowd over the same vertices drawn rigid and
 *   instanced, whole frames and vertex stages alone (bench/gpu-bench.ts; run alone with
 *   `--gpu-only --gpu-cases=vertex_stage`).
 * - `skin_once.*`: skinning once per frame by transform feedback against skinning in each pass (main draw +
 *   contact shadow), Fox and the 5 000-vertex worm (bench/skin-once-bench.ts; run alone with
 *   `--gpu-only --gpu-cases=skin_once`).
 * - `vrm.mtoon_frame_ratio`: the generated avatar drawn with MToon and outlines (skinned once per frame) over the
 *   same avatar drawn with PBR and no outline, frame ms, SwiftShader (bench/mtoon-bench.ts; run alone with
 *   `--gpu-only --gpu-cases=mtoon`).
 *
 * Run: `node --import tsx bench/run-bench.ts` (or `npx tsx bench/run-bench.ts`); it re-runs itself under
 * `node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64` when started without them. About
 * 20–30 s on 2 cores for the CPU cases, 2–2.5 min with the GPU cases on SwiftShader.
 * Fails when Fox.glb is missing and `process.env.CI` is set; otherwise benchmarks the generated rig only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Vector3 } from 'three';
import type { AnimationClip } from '../src/asset/animation-clip.ts';
import { Animator } from '../src/animation/animator.ts';
import { AnimationEventList } from '../src/animation/animation-events.ts';
import { compileClip } from '../src/animation/runtime-clip.ts';
import type { PrimitiveAsset, SkinAsset } from '../src/asset/model-asset.ts';
import { parseGltf } from '../src/loaders/gltf/parse-gltf.ts';
import type { LocalPose } from '../src/skeleton/local-pose.ts';
import { PoseKernel } from '../src/pose/pose-kernel.ts';
import { animatorSampling, samplingArenaBytes } from '../src/pose/sampling-kernel.ts';
import type { Skeleton } from '../src/skeleton/skeleton.ts';
import { skinVertices } from '../src/skinning/skin-vertices.ts';
import { SkinningContext } from '../src/skinning/skinning-context.ts';
import { SkinningKernel } from '../src/skinning/skinning-kernel.ts';
import type { SkinningMethod } from '../src/skinning/skinning-method.ts';
import { flatSkinLoop } from './flat-skin-loop.ts';
import { generateRig } from './generated-rig.ts';
import { blendCost } from './blend-cost.ts';
import { allocationPerCall, compare, formatNs, table, type Measurement } from './harness.ts';
import { buildThreeRig, type ThreeRig } from './three-rig.ts';
import { runGpuBench } from './gpu-bench.ts';
import { retargetedFromNamespacedCopy, retargetLoadMs } from './retarget-cost.ts';
import { vrmaLoadMs } from './vrma-cost.ts';
import { springCost } from './spring-cost.ts';
import { asCubicSpline, morphClip, oneJoint, samplingCost } from './cubic-sampling-cost.ts';
import { foxHotspotFrame } from './hotspot-cost.ts';
import { pickCost } from './pick-cost.ts';
import { cliCost } from './cli-cost.ts';
import { manyNodesBrowserCost, manyNodesCpuCost } from './many-nodes-cost.ts';
import { malformedCorpusBrowserCost } from './malformed-corpus-cost.ts';
import { renderVideoCost } from './render-video-cost.ts';
import { crowdCost } from './crowd-cost.ts';
import { crowdVrmCost } from './crowd-vrm-cost.ts';
import { crowdGraphCost } from './crowd-graph-cost.ts';
import { nodeCountCost } from './node-count-cost.ts';
import { optimizeCost } from './optimize-cost.ts';

const here = dirname(fileURLToPath(import.meta.url));
const foxPath = resolve(here, '../../shared/assets/gltf/Fox.glb');
const DT = 1 / 60;
/** Dual quaternion skinning with normalised weights: the `skin.*dqs*` cases. */
const DQS: SkinningMethod = { skinning: 'dqs', weights: 'normalize' };

interface Character {
  readonly name: string;
  readonly skeleton: Skeleton;
  readonly restPose: LocalPose;
  readonly skin: SkinAsset;
  readonly clips: readonly AnimationClip[];
  readonly primitive: PrimitiveAsset;
  /** Fox's Survey, the layered blending case's additive clip (bench/blend-cost.ts). */
  readonly survey?: AnimationClip;
}

async function loadCharacters(): Promise<Character[]> {
  const characters: Character[] = [];
  if (existsSync(foxPath)) {
    const asset = await parseGltf('Fox.glb', new Uint8Array(readFileSync(foxPath)));
    const instance = asset.meshInstances.find((m) => m.skin >= 0)!;
    const primitive = asset.meshes[instance.mesh].primitives[0];
    const walk = asset.clips.find((c) => c.name === 'Walk') ?? asset.clips[0];
    const run = asset.clips.find((c) => c.name === 'Run') ?? asset.clips[asset.clips.length - 1];
    const survey = asset.clips.find((c) => c.name === 'Survey');
    characters.push({ name: `Fox (${asset.skins[instance.skin].joints.length} joints)`, skeleton: asset.skeleton, restPose: asset.restPose, skin: asset.skins[instance.skin], clips: [walk, run], primitive, survey });
  } else if (process.env.CI) {
    throw new Error(`bench: ${foxPath} is missing (required when CI is set)`);
  } else {
    console.warn(`bench: ${foxPath} not found; Fox cases skipped`);
  }
  const rig = generateRig(256, 30_000);
  characters.push({ name: 'generated (256 joints)', ...rig });
  return characters;
}

/**
 * Our per-frame pipeline for one character: Animator (one clip, or two blended 50/50) → palette. `backend`
 * picks the pose kernel's, `sampling` the LINEAR/STEP channels' (the sampling kernel, or the portable loops).
 */
function oursPipeline(ch: Character, blend: boolean, backend: 'auto' | 'js' = 'auto', sampling: 'auto' | 'js' = backend) {
  // As AnimatedModel: the sampling kernels in the pose kernel's arena, writing the poses in place.
  const [first, second] = ch.clips.map((clip) => compileClip(clip, ch.skeleton.jointCount));
  const arenaBytes = sampling === 'auto' ? samplingArenaBytes([first, second], ch.skeleton.jointCount) : 0;
  const kernel = new PoseKernel(ch.skeleton, [ch.skin], undefined, { backend, arenaBytes });
  const animator = new Animator(ch.skeleton.jointCount, animatorSampling(kernel, sampling));
  animator.play(first);
  if (blend) animator.play(second, { layer: animator.addLayer({ weight: 0.5 }) });
  const skinning = new SkinningContext(ch.skin);
  const pose = kernel.pose, palette = kernel.skinMatrices[0];
  const frame = () => {
    animator.update(DT);
    animator.evaluate(pose, ch.restPose);
    kernel.update();
  };
  const stages = {
    sample: () => {
      animator.update(DT);
      animator.evaluate(pose, ch.restPose);
    },
    localToModel: () => kernel.updateModelMatrices(),
    skinMatrices: () => kernel.updateSkinMatrices(),
  };
  return { frame, palette, skinning, stages, backend: kernel.backend };
}

/**
 * One character whose base layer crossfades between its two clips every 150 frames (`play` with a 0.3 s fade),
 * events collected into a reused list, then the pose kernel: the frame function.
 */
function crossfadingPipeline(ch: Character): () => void {
  const clips = ch.clips.map((clip) => compileClip(clip, ch.skeleton.jointCount));
  const kernel = new PoseKernel(ch.skeleton, [ch.skin], undefined, { arenaBytes: samplingArenaBytes(clips, ch.skeleton.jointCount) });
  const animator = new Animator(ch.skeleton.jointCount, animatorSampling(kernel));
  const fade = { fade: 0.3 }, events = new AnimationEventList();
  animator.play(clips[0]);
  let frame = 0;
  return () => {
    if (++frame % 150 === 0) animator.play(clips[(frame / 150) & 1], fade);
    animator.update(DT, events);
    animator.evaluate(kernel.pose, ch.restPose);
    kernel.update();
  };
}

/** three.js's per-frame work on the same clips: mixer (one action, or two at equal weight) → boneMatrices. */
function threePipeline(rig: ThreeRig, blend: boolean) {
  rig.mixer.stopAllAction();
  rig.mixer.clipAction(rig.clips[0]).play();
  if (blend) rig.mixer.clipAction(rig.clips[1]).play();
  const frame = () => {
    rig.mixer.update(DT);
    rig.root.updateMatrixWorld();
    rig.skeleton.update();
  };
  const stages = {
    mixer: () => rig.mixer.update(DT),
    matrixWorld: () => rig.root.updateMatrixWorld(),
    skeleton: () => rig.skeleton.update(),
  };
  return { frame, palette: rig.skeleton.boneMatrices!, stages };
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  const started = Date.now();
  // --gpu-only: the GPU cases alone (--gpu-cases=N1,N10,N50,N200,N1000,vertex_stage,skin_once,mtoon picks some of them); never saved.
  const gpuOnly = process.argv.includes('--gpu-only');
  if (gpuOnly && process.argv.includes('--save')) throw new Error('bench: --gpu-only figures are partial; run the whole bench to --save');
  const characters = gpuOnly ? [] : await loadCharacters();
  const rows: string[][] = [['case', 'Sinew', 'three.js', 'speedup', 'max |Δ| vs three']];
  const figures: Record<string, number | string> = {};
  const measurements: Array<Measurement & { case: string }> = [];
  const poseSpeedups: number[] = [];
  const skinSpeedups: number[] = [], skinSpeedupsWithNormals: number[] = [], flatRatios: number[] = [];
  const portableSkinSpeedups: number[] = [], portableSkinSpeedupsWithNormals: number[] = [], kernelOverPortable: number[] = [];
  const kernelFlatRatios: number[] = [], kernelToFloor: number[] = [], kernelDqsOverPortable: number[] = [], kernelDqsOverLbs: number[] = [];

  for (const ch of characters) {
    const rig = await buildThreeRig(ch.skeleton, ch.restPose, ch.skin, ch.clips, ch.primitive);
    for (const blend of [false, true]) {
      const label = `pose: ${ch.name}, ${blend ? `blend ${ch.clips[0].name}+${ch.clips[1].name}` : `clip ${ch.clips[0].name}`}`;
      const ours = oursPipeline(ch, blend), theirs = threePipeline(rig, blend);
      // Same work: after the same frames the palettes agree.
      for (let i = 0; i < 37; i++) {
        ours.frame();
        theirs.frame();
      }
      const diff = maxAbsDiff(ours.palette, theirs.palette);
      // The same frame with the portable sampler (SIMD matrices still), alternated in the same batches.
      const portableSampling = oursPipeline(ch, blend, 'auto', 'js');
      for (let i = 0; i < 37; i++) portableSampling.frame();
      const [a, b, p] = compare([
        { name: 'sinew', fn: ours.frame }, { name: 'three', fn: theirs.frame }, { name: 'sinew (portable sampling)', fn: portableSampling.frame },
      ]);
      const speedup = b.nsPerOp / a.nsPerOp;
      poseSpeedups.push(speedup);
      rows.push([label, formatNs(a.nsPerOp), formatNs(b.nsPerOp), `${speedup.toFixed(1)}×`, diff.toExponential(1)]);
      rows.push(['  with the portable sampler', formatNs(p.nsPerOp), formatNs(b.nsPerOp), `${(b.nsPerOp / p.nsPerOp).toFixed(1)}×`, '']);
      measurements.push({ ...a, case: label }, { ...b, case: label }, { ...p, case: label });
      const key = `${ch.name.split(' ')[0]}.${blend ? 'blend' : 'clip'}`;
      figures[`pose.speedup_vs_three.${key}`] = round(speedup);
      figures[`pose.speedup_vs_three.${key}.portable_sampling`] = round(b.nsPerOp / p.nsPerOp);
      figures[`pose.frame_ns_per_joint.${key}`] = round(a.nsPerOp / ch.skeleton.jointCount);
      figures[`pose.frame_ns_per_joint.${key}.portable_sampling`] = round(p.nsPerOp / ch.skeleton.jointCount);
      // On a loaded machine the fastest batches are the ones least preempted: the same figures from them.
      figures[`pose.speedup_vs_three.${key}.fastest_batches`] = round(b.minNsPerOp / a.minNsPerOp);
      figures[`pose.speedup_vs_three.${key}.portable_sampling.fastest_batches`] = round(b.minNsPerOp / p.minNsPerOp);
      figures[`pose.frame_ns_per_joint.${key}.fastest_batches`] = round(a.minNsPerOp / ch.skeleton.jointCount);
      figures[`pose.frame_ns_per_joint.${key}.portable_sampling.fastest_batches`] = round(p.minNsPerOp / ch.skeleton.jointCount);

      // Where the time goes: each stage alone, ns per joint (sampling: per animated channel).
      const channels = ch.clips[0].channels.length + (blend ? ch.clips[1].channels.length : 0);
      const joints = ch.skeleton.jointCount, skinJoints = ch.skin.joints.length;
      const stageCases = [
        { name: 'sinew sample', fn: ours.stages.sample, per: channels, unit: 'channel' },
        { name: 'three mixer', fn: theirs.stages.mixer, per: channels, unit: 'channel' },
        { name: 'sinew localToModel', fn: ours.stages.localToModel, per: joints, unit: 'joint' },
        { name: 'three matrixWorld', fn: theirs.stages.matrixWorld, per: joints, unit: 'joint' },
        { name: 'sinew skinMatrices', fn: ours.stages.skinMatrices, per: skinJoints, unit: 'skin joint' },
        { name: 'three skeleton', fn: theirs.stages.skeleton, per: skinJoints, unit: 'skin joint' },
      ];
      stageCases.push({ name: 'sinew sample (portable)', fn: portableSampling.stages.sample, per: channels, unit: 'channel' });
      const stageTimes = compare(stageCases, { warmupMs: 150, batchMs: 5, rounds: 30 });
      const portableSample = stageTimes.pop()!;
      stageCases.pop();
      figures[`pose.sampling_speedup_vs_three.${key}`] = round(stageTimes[1].nsPerOp / stageTimes[0].nsPerOp);
      figures[`pose.sampling_speedup_vs_three.${key}.portable`] = round(stageTimes[1].nsPerOp / portableSample.nsPerOp);
      figures[`pose.sampling_speedup_vs_three.${key}.fastest_batches`] = round(stageTimes[1].minNsPerOp / stageTimes[0].minNsPerOp);
      figures[`pose.sampling_speedup_vs_three.${key}.portable.fastest_batches`] = round(stageTimes[1].minNsPerOp / portableSample.minNsPerOp);
      rows.push([`  stage sample, portable sampler / mixer, per channel (${channels})`, `${(portableSample.nsPerOp / channels).toFixed(1)} ns`,
        `${(stageTimes[1].nsPerOp / channels).toFixed(1)} ns`, `${(stageTimes[1].nsPerOp / portableSample.nsPerOp).toFixed(1)}×`, '']);
      // What the matrix stages alone allow: three.js's whole frame over ours without any sampling cost.
      const oursMatrices = stageTimes[2].nsPerOp + stageTimes[4].nsPerOp;
      const threeTotal = stageTimes[1].nsPerOp + stageTimes[3].nsPerOp + stageTimes[5].nsPerOp;
      figures[`pose.speedup_bound_if_sampling_free.${key}`] = round(threeTotal / oursMatrices);
      for (let i = 0; i < stageCases.length; i += 2) {
        const o = stageTimes[i], t = stageTimes[i + 1], per = stageCases[i].per;
        rows.push([
          `  stage ${stageCases[i].name.slice(6)} / ${stageCases[i + 1].name.slice(6)}, per ${stageCases[i].unit} (${per})`,
          `${(o.nsPerOp / per).toFixed(1)} ns`, `${(t.nsPerOp / per).toFixed(1)} ns`, `${(t.nsPerOp / o.nsPerOp).toFixed(1)}×`, '',
        ]);
        figures[`pose.stage_ns_per_joint.${key}.${stageCases[i].name.slice(6)}`] = round(o.nsPerOp / per);
        figures[`three.pose.stage_ns_per_joint.${key}.${stageCases[i + 1].name.slice(6)}`] = round(t.nsPerOp / per);
        measurements.push({ ...o, case: `${label}: stage` }, { ...t, case: `${label}: stage` });
      }
      // The matrix stages on the portable backend (PoseKernel 'js': localToModel + computeSkinMatrices), same pose.
      const portable = oursPipeline(ch, blend, 'js');
      for (let i = 0; i < 37; i++) portable.frame();
      const [simdMatrices, portableMatrices] = compare([
        { name: `sinew matrices (${ours.backend})`, fn: () => { ours.stages.localToModel(); ours.stages.skinMatrices(); } },
        { name: 'sinew matrices (js)', fn: () => { portable.stages.localToModel(); portable.stages.skinMatrices(); } },
      ], { warmupMs: 150, batchMs: 5, rounds: 30 });
      figures[`pose.matrix_speedup_over_portable.${key}`] = round(portableMatrices.nsPerOp / simdMatrices.nsPerOp);
      rows.push([`  matrix stages: ${ours.backend} / portable js`, formatNs(simdMatrices.nsPerOp), formatNs(portableMatrices.nsPerOp),
        `${(portableMatrices.nsPerOp / simdMatrices.nsPerOp).toFixed(1)}× (vs js)`, '']);
      rows.push([
        '  bound: three.js stages / our matrix stages alone (sampling free)', formatNs(oursMatrices), formatNs(threeTotal),
        `${(threeTotal / oursMatrices).toFixed(1)}×`, '',
      ]);
    }

    // Skinning: both sides at the same pose (the last frames above).
    const ours = oursPipeline(ch, false);
    for (let i = 0; i < 20; i++) ours.frame();
    const threeSide = threePipeline(rig, false);
    for (let i = 0; i < 20; i++) threeSide.frame();
    const prim = ch.primitive, n = prim.vertexCount;
    const outP = new Float32Array(3 * n), outN = new Float32Array(3 * n), flatP = new Float32Array(3 * n), flatN = new Float32Array(3 * n);
    const threeP = new Float32Array(3 * n);
    const mesh = rig.mesh!;
    const position = mesh.geometry.getAttribute('position');
    const v3 = new Vector3();
    const joints8 = prim.joints instanceof Uint8Array ? prim.joints : null;
    const skinLabel = `skin: ${ch.name}, ${n} vertices`;
    // The fast path (SkinningKernel, WebAssembly SIMD in node) beside the portable reference skinVertices.
    const kernel = new SkinningKernel(prim, ours.skinning);
    const cases = [
      { name: `kernel (${kernel.backend}) positions+normals`, fn: () => kernel.skin(ours.palette) },
      { name: `kernel (${kernel.backend}) positions`, fn: () => kernel.skin(ours.palette, undefined, false) },
      { name: 'skinVertices positions+normals', fn: () => skinVertices(outP, outN, prim, ours.palette, ours.skinning) },
      { name: 'skinVertices positions', fn: () => skinVertices(outP, null, prim, ours.palette, ours.skinning) },
      {
        name: 'three applyBoneTransform', fn: () => {
          for (let v = 0; v < n; v++) {
            v3.fromBufferAttribute(position, v);
            mesh.applyBoneTransform(v, v3);
            threeP[3 * v] = v3.x; threeP[3 * v + 1] = v3.y; threeP[3 * v + 2] = v3.z;
          }
        },
      },
      { name: 'kernel memory floor (loads and stores only)', fn: () => kernel.streamOnly() },
      { name: `kernel (${kernel.backend}) DQS positions+normals`, fn: () => kernel.skin(ours.palette, DQS) },
      { name: 'skinVertices DQS positions+normals', fn: () => skinVertices(outP, outN, prim, ours.palette, ours.skinning, DQS) },
    ];
    if (joints8) cases.push({ name: 'flat loop positions+normals', fn: () => flatSkinLoop(flatP, flatN, prim.positions, prim.normals, joints8, prim.weights!, ours.palette, n) });
    const [kernelN, kernelP, withNormals, positionsOnly, three, floor, kernelDqs, portableDqs, flat] = compare(cases);
    const diff = maxAbsDiff(outP, threeP); // three.js does not divide by Σw: equal when weights sum to 1
    kernel.skin(ours.palette);
    const kernelDiff = Math.max(maxAbsDiff(kernel.positions, outP), maxAbsDiff(kernel.normals, outN));
    const speed = three.nsPerOp / kernelP.nsPerOp, speedN = three.nsPerOp / kernelN.nsPerOp;
    skinSpeedups.push(speed);
    skinSpeedupsWithNormals.push(speedN);
    portableSkinSpeedups.push(three.nsPerOp / positionsOnly.nsPerOp);
    portableSkinSpeedupsWithNormals.push(three.nsPerOp / withNormals.nsPerOp);
    kernelOverPortable.push(withNormals.nsPerOp / kernelN.nsPerOp);
    kernelToFloor.push(floor.nsPerOp / kernelN.nsPerOp);
    kernelDqsOverPortable.push(portableDqs.nsPerOp / kernelDqs.nsPerOp);
    kernelDqsOverLbs.push(kernelDqs.nsPerOp / kernelN.nsPerOp);
    const skinKey = ch.name.split(' ')[0];
    figures[`skin.kernel_us_with_normals.${skinKey}`] = round(kernelN.nsPerOp / 1000);
    figures[`skin.portable_us_with_normals.${skinKey}`] = round(withNormals.nsPerOp / 1000);
    figures[`skin.three_us.${skinKey}`] = round(three.nsPerOp / 1000);
    figures[`skin.kernel_dqs_us_with_normals.${skinKey}`] = round(kernelDqs.nsPerOp / 1000);
    figures[`skin.portable_dqs_us_with_normals.${skinKey}`] = round(portableDqs.nsPerOp / 1000);
    rows.push([`${skinLabel} (positions), kernel`, formatNs(kernelP.nsPerOp), formatNs(three.nsPerOp), `${speed.toFixed(1)}×`, diff.toExponential(1)]);
    rows.push([`${skinLabel} (positions+normals), kernel`, formatNs(kernelN.nsPerOp), formatNs(three.nsPerOp), `${speedN.toFixed(1)}×`, '']);
    rows.push([`${skinLabel} (positions), portable skinVertices`, formatNs(positionsOnly.nsPerOp), formatNs(three.nsPerOp), `${(three.nsPerOp / positionsOnly.nsPerOp).toFixed(1)}×`, '']);
    rows.push([`${skinLabel} (positions+normals), portable skinVertices`, formatNs(withNormals.nsPerOp), formatNs(three.nsPerOp), `${(three.nsPerOp / withNormals.nsPerOp).toFixed(1)}×`, '']);
    rows.push([`${skinLabel}: kernel / portable (positions+normals), max |Δ|`, formatNs(kernelN.nsPerOp), `js ${formatNs(withNormals.nsPerOp)}`, `${(withNormals.nsPerOp / kernelN.nsPerOp).toFixed(1)}× (vs js)`, kernelDiff.toExponential(1)]);
    rows.push([`${skinLabel}: DQS kernel / portable (positions+normals)`, formatNs(kernelDqs.nsPerOp), `js ${formatNs(portableDqs.nsPerOp)}`, `${(portableDqs.nsPerOp / kernelDqs.nsPerOp).toFixed(1)}× (vs js)`, '']);
    rows.push([`${skinLabel}: memory floor / kernel (1 = memory-bound)`, formatNs(kernelN.nsPerOp), `floor ${formatNs(floor.nsPerOp)}`, `${(floor.nsPerOp / kernelN.nsPerOp).toFixed(2)}`, '']);
    measurements.push(...[kernelN, kernelP, withNormals, positionsOnly, three, floor, kernelDqs, portableDqs].map((m) => ({ ...m, case: skinLabel })));
    if (flat) {
      const ratio = flat.nsPerOp / withNormals.nsPerOp;
      flatRatios.push(ratio);
      kernelFlatRatios.push(flat.nsPerOp / kernelN.nsPerOp);
      rows.push([`${skinLabel}: flat loop / skinVertices`, formatNs(withNormals.nsPerOp), `flat ${formatNs(flat.nsPerOp)}`, `${ratio.toFixed(2)}`, maxAbsDiff(outN, flatN).toExponential(1)]);
      rows.push([`${skinLabel}: flat loop / kernel`, formatNs(kernelN.nsPerOp), `flat ${formatNs(flat.nsPerOp)}`, `${(flat.nsPerOp / kernelN.nsPerOp).toFixed(2)}`, '']);
      measurements.push({ ...flat, case: skinLabel });
    }
  }

  // A clip from another file: per frame it is an ordinary compiled clip (retargeting happens at load).
  const fox = characters.find((c) => c.name.startsWith('Fox'));
  if (fox) {
    const retargeted = retargetedFromNamespacedCopy(fox.clips[0], fox);
    const native = oursPipeline(fox, false), other = oursPipeline({ ...fox, clips: [retargeted, fox.clips[1]] }, false);
    const [n, r] = compare([{ name: 'native', fn: native.frame }, { name: 'retargeted', fn: other.frame }]);
    const label = `pose: ${fox.name}, clip ${fox.clips[0].name} retargeted from a mixamorig: copy / native`;
    rows.push([label, formatNs(r.nsPerOp), `native ${formatNs(n.nsPerOp)}`, `${(r.nsPerOp / n.nsPerOp).toFixed(2)}`, '']);
    figures['pose.retargeted_over_native.Fox'] = round(r.nsPerOp / n.nsPerOp);
    measurements.push({ ...n, case: label }, { ...r, case: label });
  }
  // Blending: the kernel against the portable loops per job, and a masked + additive frame against three.js.
  if (fox?.survey) await blendCost({ ...fox, clips: [fox.clips[0], fox.clips[1], fox.survey] }, figures, rows, measurements, round);
  // Cubic and morph sampling: the sampling kernel against the portable loops (bench/cubic-sampling-cost.ts).
  for (const ch of characters) {
    const key = ch.name.split(' ')[0];
    const { kernel, portable, channels } = samplingCost(asCubicSpline(ch.clips[0]), ch.skeleton, ch.restPose);
    const label = `sample: ${ch.name}, clip ${ch.clips[0].name} as CUBICSPLINE, kernel / portable, per channel (${channels})`;
    rows.push([label, `${(kernel.nsPerOp / channels).toFixed(1)} ns`, `js ${(portable.nsPerOp / channels).toFixed(1)} ns`, `${(portable.nsPerOp / kernel.nsPerOp).toFixed(1)}× (vs js)`, '']);
    figures[`pose.cubic_sampling_ns_per_channel.${key}`] = round(kernel.nsPerOp / channels);
    figures[`pose.cubic_sampling_ns_per_channel.${key}.portable`] = round(portable.nsPerOp / channels);
    figures[`pose.cubic_sampling_speedup_over_portable.${key}`] = round(portable.nsPerOp / kernel.nsPerOp);
    measurements.push({ ...kernel, case: label }, { ...portable, case: label });
  }
  if (!gpuOnly) {
    for (const interpolation of ['LINEAR', 'CUBICSPLINE'] as const) {
      const { skeleton, restPose } = oneJoint();
      const { kernel, portable, channels } = samplingCost(morphClip(64, 61, interpolation), skeleton, restPose);
      const label = `sample: 64 morph weights, ${interpolation}, kernel / portable, per weight`;
      rows.push([label, `${(kernel.nsPerOp / channels).toFixed(1)} ns`, `js ${(portable.nsPerOp / channels).toFixed(1)} ns`, `${(portable.nsPerOp / kernel.nsPerOp).toFixed(1)}× (vs js)`, '']);
      figures[`pose.morph_sampling_speedup_over_portable.64_weights_${interpolation.toLowerCase()}`] = round(portable.nsPerOp / kernel.nsPerOp);
      measurements.push({ ...kernel, case: label }, { ...portable, case: label });
    }
  }
  if (!gpuOnly) {
    const ms = retargetLoadMs();
    rows.push(['retarget at load: 60 joints, 30 s clip (901 keys per channel)', `${ms.toFixed(1)} ms`, '', '', '']);
    figures['retarget.load_ms.60_joints_30s'] = round(ms);
    const vrmaMs = await vrmaLoadMs();
    rows.push(['VRMA at load: generated 60 s walk at 30 keys/s onto the generated avatar, loadClips + retarget by humanoid', `${vrmaMs.toFixed(1)} ms`, '', '', '']);
    figures['vrma.load60s_ms'] = round(vrmaMs);
    const springs = await springCost();
    rows.push(...springs.rows);
    Object.assign(figures, springs.figures);
    const optimized = await optimizeCost(dirname(foxPath));
    rows.push(...optimized.rows);
    Object.assign(figures, optimized.figures);
  }

  // Hotspots: five on Fox, placed and occlusion-tested each frame (the element's stage without the DOM).
  if (fox && !gpuOnly) {
    const foxAsset = await parseGltf('Fox.glb', new Uint8Array(readFileSync(foxPath)));
    const [h] = compare([{ name: 'hotspots', fn: foxHotspotFrame(foxAsset) }], { rounds: 10 });
    rows.push(['hotspots: Fox, 5 placed + occlusion-tested per frame (pose included)', formatNs(h.nsPerOp), '', '', '']);
    figures['hotspots.frame_us.Fox_5'] = round(h.nsPerOp / 1000);
    const hotspotAlloc = await allocationPerCall(foxHotspotFrame(foxAsset), 4000, gc!);
    rows.push(['heap allocated per frame: Fox, 5 hotspots', `${hotspotAlloc.allocated.toFixed(2)} B`, '', '', `retained ${hotspotAlloc.retained.toFixed(2)} B`]);
    figures['hotspots.bytes_allocated_per_frame.Fox_5'] = round(hotspotAlloc.allocated);
  }
  // Picking on the skinned surface: one ray against skinning the whole mesh (bench/pick-cost.ts).
  if (!gpuOnly) {
    const fox = existsSync(foxPath) ? await parseGltf('Fox.glb', new Uint8Array(readFileSync(foxPath))) : null;
    const pick = await pickCost(fox, gc!);
    rows.push(...pick.rows);
    Object.assign(figures, pick.figures);
  }
  // A scene of 20 000 rigid mesh nodes (bench/many-nodes-cost.ts): the CPU side of its load, and of a frame.
  if (!gpuOnly) {
    const nodes = await manyNodesCpuCost();
    rows.push(['20 000 mesh nodes: load (parse, AnimatedModel, rigid batches)', `${nodes.loadMs.toFixed(0)} ms`, '', '', '']);
    rows.push(['20 000 mesh nodes: one frame (animator.update + evaluate)', `${nodes.evaluateMs.toFixed(3)} ms`, '', '', '']);
    figures['nodes20k.load_ms'] = round(nodes.loadMs);
    figures['nodes20k.evaluate_ms'] = round(nodes.evaluateMs);
  }
  // Growth with the node count: sinew eval on 100 000 root nodes, loading 20 000 skinned instances, each beside a quarter of it (bench/node-count-cost.ts).
  if (!gpuOnly) {
    const growth = await nodeCountCost();
    rows.push(...growth.rows);
    Object.assign(figures, growth.figures);
  }

  // The crowd's CPU side: poses of every instance (crowd kernel, per instance, baked), bounds, memory (bench/crowd-cost.ts).
  if (!gpuOnly) {
    const crowd = crowdCost();
    rows.push(...crowd.rows);
    Object.assign(figures, crowd.figures);
    // A crowd of avatars with springs: 1 000 live generated avatars, one frame (bench/crowd-vrm-cost.ts).
    const avatars = await crowdVrmCost();
    rows.push(...avatars.rows);
    Object.assign(figures, avatars.figures);
    // 10 000 instances running an animation graph (bench/crowd-graph-cost.ts).
    const graphCrowd = crowdGraphCost();
    rows.push(...graphCrowd.rows);
    Object.assign(figures, graphCrowd.figures);
  }

  // Heap growth: the blended pipeline (two clips, a layer, localToModel, palette) over 10 000 frames.
  const frames = 10_000;
  const ch = characters[0];
  if (ch) {
    const alloc = await allocationPerCall(oursPipeline(ch, true).frame, frames, gc!);
    const threeRig = await buildThreeRig(ch.skeleton, ch.restPose, ch.skin, ch.clips, null);
    const threeAlloc = await allocationPerCall(threePipeline(threeRig, true).frame, frames, gc!);
    rows.push([
      `heap allocated per frame: ${ch.name}, blend, ${frames} frames (GCs during: ${alloc.gcDuring}, ${threeAlloc.gcDuring})`,
      `${alloc.allocated.toFixed(2)} B`, `${threeAlloc.allocated.toFixed(2)} B`, '', `retained ${alloc.retained.toFixed(2)} B`,
    ]);
    figures['pose.bytes_allocated_per_frame'] = round(alloc.allocated);
    figures['pose.bytes_retained_per_frame'] = round(alloc.retained);
    figures['pose.gcs_during_allocation_run'] = alloc.gcDuring;
    figures['three.pose.bytes_allocated_per_frame'] = round(threeAlloc.allocated);
    // The same with the base layer crossfading to the other clip every 150 frames (0.3 s fades, several slots
    // blended at once) and the animator's events collected: what a game's state machine does.
    const fading = crossfadingPipeline(ch);
    const fadeAlloc = await allocationPerCall(fading, frames, gc!);
    rows.push([`heap allocated per frame: ${ch.name}, crossfading every 150 frames, events on`, `${fadeAlloc.allocated.toFixed(2)} B`, '', '', `retained ${fadeAlloc.retained.toFixed(2)} B`]);
    figures['pose.bytes_allocated_per_frame.crossfading'] = round(fadeAlloc.allocated);

    figures['pose.speedup_vs_three'] = round(Math.min(...poseSpeedups));
    figures['pose.kernel_backend'] = oursPipeline(characters[0], false).backend;
    figures['skin.speedup_vs_three'] = round(Math.min(...skinSpeedups));
    figures['skin.speedup_vs_three_with_normals'] = round(Math.min(...skinSpeedupsWithNormals));
    if (flatRatios.length) figures['skin.ratio_to_flat_loop'] = round(Math.min(...flatRatios));
    figures['skin.kernel_backend'] = new SkinningKernel(ch.primitive, new SkinningContext(ch.skin)).backend;
    figures['skin.portable_speedup_vs_three'] = round(Math.min(...portableSkinSpeedups));
    figures['skin.portable_speedup_vs_three_with_normals'] = round(Math.min(...portableSkinSpeedupsWithNormals));
    figures['skin.kernel_speedup_over_portable'] = round(Math.min(...kernelOverPortable));
    if (kernelFlatRatios.length) figures['skin.kernel_ratio_to_flat_loop'] = round(Math.min(...kernelFlatRatios));
    figures['skin.kernel_ratio_to_memory_floor'] = round(Math.max(...kernelToFloor));
    figures['skin.kernel_dqs_speedup_over_portable'] = round(Math.min(...kernelDqsOverPortable));
    figures['skin.kernel_dqs_cost_over_lbs'] = round(Math.max(...kernelDqsOverLbs));
  }

  // The command line on large inputs, in child processes (bench/cli-cost.ts).
  const cli = await cliCost((line) => console.log(line));
  if (cli) {
    Object.assign(figures, cli.figures);
    rows.push(...cli.rows);
  }

  // The GPU half: crowd pages in headless Chromium (bench/gpu-bench.ts), after the CPU cases so they do not share the cores.
  const casesFlag = process.argv.find((a) => a.startsWith('--gpu-cases='));
  const gpu = process.argv.includes('--no-gpu') ? null
    : await runGpuBench((line) => console.log(line), casesFlag ? casesFlag.slice('--gpu-cases='.length).split(',') : undefined);
  if (gpu) {
    Object.assign(figures, gpu.figures);
    rows.push(...gpu.rows);
  }
  // The same 20 000 mesh nodes in <sinew-viewer> (bench/many-nodes-cost.ts), with the GPU cases.
  const nodesInBrowser = process.argv.includes('--no-gpu') ? null : await manyNodesBrowserCost();
  if (nodesInBrowser) {
    rows.push([`20 000 mesh nodes in <sinew-viewer>: load; frame (${nodesInBrowser.drawCalls} draw calls)`, `${nodesInBrowser.loadMs.toFixed(0)} ms; ${nodesInBrowser.frameMs.toFixed(1)} ms`, '', '', '']);
    figures['nodes20k.element_load_ms'] = round(nodesInBrowser.loadMs);
    figures['nodes20k.frame_ms'] = round(nodesInBrowser.frameMs);
    figures['nodes20k.draw_calls'] = nodesInBrowser.drawCalls;
  }
  // The malformed corpus in <sinew-viewer> (bench/malformed-corpus-cost.ts): how soon each file ends in its error.
  const corpusInBrowser = process.argv.includes('--no-gpu') ? null : await malformedCorpusBrowserCost();
  if (corpusInBrowser) {
    rows.push([`malformed corpus in <sinew-viewer> (${corpusInBrowser.files} files): slowest; median to its error`, `${corpusInBrowser.slowestMs.toFixed(0)} ms; ${corpusInBrowser.medianMs.toFixed(0)} ms`, '', '', '']);
    figures['malformed_corpus.element_slowest_ms'] = round(corpusInBrowser.slowestMs);
    figures['malformed_corpus.element_median_ms'] = round(corpusInBrowser.medianMs);
  }

  // A 5 s WebM preview of Fox against drawing its 150 frames alone, in sinew render's page (bench/render-video-cost.ts).
  const preview = process.argv.includes('--no-gpu') ? null : await renderVideoCost((line) => console.log(line));
  if (preview) {
    rows.push(['5 s, 30 fps, 480 × 480 WebM of Fox: toVideo; 150 stills drawn and read', `${preview.videoMs.toFixed(0)} ms; ${preview.stillsMs.toFixed(0)} ms`, '', '', '']);
    figures['render.video_ms.fox'] = round(preview.videoMs);
    figures['render.stills_ms.fox'] = round(preview.stillsMs);
    figures['render.video_over_stills.fox'] = round(preview.ratio);
  }

  console.log(table(rows));
  console.log();
  for (const [k, v] of Object.entries(figures)) if (!k.split('.')[2] && !k.startsWith('three.')) console.log(`${k} = ${v}`);
  console.log('(times are medians of alternating batches; stage rows: each stage timed alone)');
  const cpus = os.cpus();
  const results = {
    machine: {
      cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`, node: process.version, v8: process.versions.v8,
      /** 1, 5 and 15 minute load averages when the run ended: other processes share the cores. */
      loadAverage: os.loadavg().map((x) => round(x)),
    },
    date: new Date().toISOString(),
    seconds: (Date.now() - started) / 1000,
    figures,
    targets: {
      'pose.speedup_vs_three': '>= 5', 'skin.speedup_vs_three': '>= 5', 'skin.speedup_vs_three_with_normals': '>= 5', 'skin.ratio_to_flat_loop': '>= 0.9', 'pose.bytes_allocated_per_frame': '0',
      'gpu.N50.speedup_vs_three': '>= 1.5', 'gpu.N50.ratio_to_rigid': '<= 1.3', 'crowd.N1000.speedup_vs_three.live': '>= 10 (real GPU)',
      'crowd.N1000.speedup_vs_three.baked': '>= 10 (real GPU)', 'crowd.N1000.ratio_to_rigid': '<= 1.3',
      'crowd.cpu.us_per_live_instance.N1000': '<= 0.3', 'crowd.bounds_ms.100x100': '<= 0.1',
      'vrm.spring_speedup_vs_three_vrm': '>= 20', 'crowd.vrm.N1000.cpu_ms': '<= 8', 'crowd.graph.N10000.cpu_ms': '<= 3', 'vrm.mtoon_frame_ratio': '<= 1.5',
      'malformed_corpus.element_slowest_ms': '< 10000', 'render.video_over_stills.fox': '<= 4',
      'nodes.flat100k.eval_ratio_to_quarter': '<= 5 (linear: 4)', 'nodes.skinned20k.load_ratio_to_quarter': '<= 5 (linear: 4)',
    },
    measurements,
  };
  // The committed bench/results.json backs the site's performance reference: a plain run must not rewrite the checkout.
  const target = process.argv.includes('--save') ? resolve(here, 'results.json') : resolve(os.tmpdir(), 'sinew-bench-results.json');
  writeFileSync(target, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${target} (${results.seconds.toFixed(0)} s)${target.endsWith('sinew-bench-results.json') ? '; `npm run bench -- --save` updates bench/results.json' : ''}`);
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** True when this process has gc() and a young generation big enough for 10 000 frames without a GC. */
function hasBenchFlags(): boolean {
  const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return typeof gc === 'function' && (newSpace?.space_size ?? 0) >= 32 * 2 ** 20;
}

if (hasBenchFlags()) {
  await main();
} else if (process.env.SINEW_BENCH_CHILD) {
  throw new Error('bench: could not get --expose-gc and a 64 MB young generation');
} else {
  const flags = ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx'];
  const child = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit', env: { ...process.env, SINEW_BENCH_CHILD: '1' },
  });
  process.exitCode = child.status ?? 1;
}
