import type { HermiteStream } from '../animation/hermite-stream.ts';
import type { KeyStream } from '../animation/key-stream.ts';
import type { RuntimeClip } from '../animation/runtime-clip.ts';
import type { SamplingBackend } from '../animation/sampling-context.ts';
import type { AnimatorOptions } from '../animation/animator.ts';
import { createLocalPose, type LocalPose } from '../skeleton/local-pose.ts';
import { blendingArenaBytes, createBlendingKernel } from './blending-kernel.ts';
import type { PoseKernel } from './pose-kernel.ts';
import { SAMPLING_KERNEL_WASM_BASE64 } from './wasm/sampling-kernel-binary.ts';
import { KernelArena } from './kernel-arena.ts';
import { PoseLocator } from './pose-locator.ts';
import { EmbeddedModule } from '../wasm/embedded-module.ts';

/** {@link createSamplingKernel} settings: `'auto'` (default) WebAssembly SIMD where it compiles, `'js'` none. */
export interface SamplingKernelOptions {
  readonly backend?: 'auto' | 'js';
  /**
   * The character's pose kernel's arena (`PoseKernel.arena`): the kernel lays out there and writes straight
   * into poses that live in it (`PoseKernel.pose`, `KernelArena.createPose`); absent, or when it is full: a
   * memory of its own, with the output copied in and out.
   */
  readonly arena?: KernelArena | null;
}

/**
 * The WebAssembly SIMD back end of a clip's channels (src/pose/wasm/sampling-kernel.as.ts) — LINEAR, STEP,
 * CUBICSPLINE, HERMITE and CATMULLROM translations, rotations and scales and morph `weights` channels, and
 * BEZIER ones with handles at thirds in time; other BEZIER channels stay on the portable loops
 * (`hasHermiteForm`) — a {@link SamplingBackend} for one `SamplingContext`. It samples the clip's streams
 * (`RuntimeClip.vec3Stream`, `quatStream`, `vec3HermiteStream`, `quatHermiteStream`) as ozz-animation's
 * SamplingJob does (docs/explanation/animation-sampling.md) — four tracks per f32x4, keys read through a cursor that moves
 * forward with time (a backward seek starts it over) into a per-track cache of the keys (cubic: the interval)
 * around the time — and the morph weights channel by channel (`RuntimeClip.weightChannels`: a channel's
 * weights share its timeline, so they fill the f32x4 lanes).
 *
 * Against the portable loops of `sampleClip` (the reference): translations and scales are the same lerp
 * `v_k + s·(v_{k+1} − v_k)` in float32 instead of double (s too: a few float32 ulps); rotations are the
 * shortest-arc normalised lerp `normalize(q_k + s·(±q_{k+1} − q_k))` instead of slerp, as ozz-animation
 * samples. Both are on the great arc from q_k to ±q_{k+1}; nlerp moves along it at a speed that is not
 * constant, off slerp's angle sθ by at most E(θ) = max_s |atan2(s·sin θ, 1 − s + s·cos θ) − sθ| (θ ≤ π/2
 * the angle between the keys as 4-vectors; the rotation differs by 2E), which is zero at s = 0, ½, 1, is
 * θ³/(36√3) to leading order and at most θ³/54 on [0, π/2] (tests/unit/pose/sampling-kernel.test.ts checks
 * the bound against exact slerp and holds every shared clip to it). Keys and holds (before the first key,
 * after the last, STEP) are the keys' values exactly. The cursor compares times in double as the portable loops
 * do, but s is float32: within one float32 rounding of t below a key time t_{k+1}, s rounds to 1 and STEP
 * already takes key k+1.
 *
 * The cubic kinds are one Hermite cubic `v_k + h01·(v_{k+1} − v_k) + h10·Δm_k + h11·Δm_{k+1}` (glTF 2.0
 * Appendix C; tangents scaled by the interval Δ at `compileClip`, CATMULLROM's derived from the neighbouring
 * keys there: `hermiteIntervals`) in float32, rotations normalised after; against the portable loops' double
 * each component is within B = u·[(T/Δmin + 4)·(1.5·D + 2M) + 12·(V + D + M)] (u = 2⁻²⁴; |t| ≤ T, Δ ≥ Δmin,
 * V the largest |value|, D the largest |v_{k+1} − v_k|, M the largest |Δ·m|; s's rounding times the cubic's
 * slope, plus the evaluation's roundings), a rotation within the angle 4B/ν + 4u, ν the smallest norm of the
 * unnormalised cubic; morph weights (s in double) with 1 in place of T/Δmin (derived in
 * tests/unit/pose/sampling-kernel-cubic.test.ts, which holds synthetic and every shared clip to them). A
 * CATMULLROM rotation's kernel quaternion may be the portable one's negative at s ≥ 1 rounding (the same
 * rotation).
 *
 * Memory: the streams of every clip this context has sampled (copied in the first time; in a pose kernel's
 * arena, once for all its kernels) with their cursors' caches, in the pose kernel's arena when it was given one
 * (`PoseKernel.arena`), else in a memory of its own. An output in that memory (`PoseKernel.pose`, a pose from
 * `KernelArena.createPose`) is written in place; any other is copied into a staging pose there and back
 * (three `set` calls each way); morph weights outside it (`createPose` keeps them in ordinary memory) likewise,
 * one `set` each way. Allocates nothing per frame, nor when the context goes back to a clip it
 * sampled before.
 */
export class SamplingKernel implements SamplingBackend {
  private readonly module: WebAssembly.Module;
  /** The pose kernel's arena it was made for, or null. */
  private readonly shared: KernelArena | null;
  /** Where it lays out now: `shared`, or its own memory once that is full (or without one). */
  private arena: KernelArena | null = null;
  private exports: KernelExports | null = null;
  private buffer: ArrayBuffer | null = null;
  /** Kernel memory as i32 (stream records, output addresses). */
  private words = new Int32Array(0);
  /** `[t]` in kernel memory, seconds; the time sampled last (JavaScript side). */
  private time = new Float64Array(1);
  private timeAt = 0;
  private readonly last = new Float64Array(1);
  /** Each clip this context has sampled, laid out in the arena; the one sampled last. */
  private readonly bound = new Map<RuntimeClip, BoundClip>();
  private current: BoundClip | null = null;
  /** A pose in kernel memory for outputs outside it (copied in and out), made on first need. */
  private staging: LocalPose | null = null;
  /** The staging pose's byte offsets: translations, rotations, scales. */
  private readonly stagingAt = new Int32Array(3);
  /** Which outputs lie in kernel memory, and where. */
  private locator: PoseLocator | null = null;
  /** Morph weights in kernel memory for outputs whose weights lie outside it (copied in and out), made on first need. */
  private weights: Float32Array | null = null;

  /** Use {@link createSamplingKernel}, which returns null where the module does not compile. */
  constructor(module: WebAssembly.Module, arena: KernelArena | null = null) {
    this.module = module;
    this.shared = arena;
  }

  /** `SamplingBackend.sampleStreams` (src/animation/sampling-context.ts): every channel in the clip's streams, in SIMD lanes. */
  sampleStreams(out: LocalPose, clip: RuntimeClip, clock: Float64Array): boolean {
    let bound = this.current;
    if (bound === null || bound.clip !== clip) bound = this.select(clip);
    // Morph weights: written in place when they lie in kernel memory, else through `weights`, as long as the
    // pose's (copied in and out whole: two `set` calls; a move to a memory of its own keeps it).
    const weighted = clip.weightChannels.count > 0, mw = out.morphWeights!;
    if (weighted && mw.buffer !== this.buffer && (this.weights === null || this.weights.length !== mw.length)) {
      this.makeWeights(mw.length);
      bound = this.current!;
    }
    const locator = this.locator!, offsets = locator.offsets, i = 3 * locator.find(out);
    const direct = offsets[i] >= 0;
    let t = offsets[i], r = offsets[i + 1], s = offsets[i + 2];
    const ot = out.translations, or = out.rotations, os = out.scales;
    if (!direct) {
      const staging = this.staging;
      if (staging === null || staging.translations.length !== ot.length || staging.rotations.length !== or.length) {
        this.makeStaging(ot.length / 3);
        // Weights that were in the memory it left need staging now too (a move keeps the pose's staging).
        if (weighted && mw.buffer !== this.buffer && (this.weights === null || this.weights.length !== mw.length)) this.makeWeights(mw.length);
        bound = this.current!;
      }
      const target = this.staging!;
      target.translations.set(ot);
      target.rotations.set(or);
      target.scales.set(os);
      t = this.stagingAt[0]; r = this.stagingAt[1]; s = this.stagingAt[2];
    }
    const staged = weighted && mw.buffer !== this.buffer ? this.weights! : null;
    if (staged !== null) staged.set(mw);
    const w = staged !== null ? staged.byteOffset : weighted ? mw.byteOffset : -1;
    if (bound.t !== t || bound.r !== r || bound.s !== s || bound.w !== w) this.aim(bound, t, r, s, w);
    const time = clock[0];
    // NaN samples as before the first key, as the portable loops do; a step back starts every cursor over.
    const at = time === time ? time : -Infinity;
    if (at < this.last[0]) {
      const words = this.words, record = bound.block >> 2;
      for (let k = 0; k < STREAMS; k++) words[record + 7 * k + 3] = 0; // (the weights' cursors go back by themselves)
    }
    this.last[0] = at;
    this.time[0] = at;
    this.exports!.sample(this.timeAt, bound.block);
    if (!direct) {
      const target = this.staging!;
      ot.set(target.translations);
      or.set(target.rotations);
      os.set(target.scales);
    }
    if (staged !== null) mw.set(staged);
    return true;
  }

  /** Makes `clip` the one sampled, laying it out first if it is new; its cursors start over. */
  private select(clip: RuntimeClip): BoundClip {
    let bound = this.bound.get(clip);
    if (bound === undefined) bound = this.lay(clip);
    this.current = bound;
    this.last[0] = Infinity;
    return bound;
  }

  /** Lays out `clip` in the arena; when it is full, moves everything to a new memory of its own, twice the size. */
  private lay(clip: RuntimeClip): BoundClip {
    if (this.arena === null) this.use(this.shared ?? privateArena(clipBytes(clip) + 4096));
    let bound = this.tryLay(clip);
    if (bound === null) {
      this.moveOut(clip, 0, 0);
      bound = this.bound.get(clip)!;
    }
    return bound;
  }

  /** Starts over in `arena`: the time slot and the module's instance there (shared with other kernels of the arena). */
  private use(arena: KernelArena): void {
    this.arena = arena;
    this.exports = arena.exportsOf(this.module) as unknown as KernelExports;
    this.buffer = arena.memory.buffer;
    this.locator = new PoseLocator(this.buffer);
    this.words = new Int32Array(this.buffer);
    this.timeAt = arena.allocate(32); // the time, then a sink for padding lanes (a whole quaternion)
    this.time = new Float64Array(this.buffer, this.timeAt, 1);
    this.bound.clear();
    this.current = null;
    this.staging = null;
    this.weights = null;
  }

  /**
   * `clip`'s stream records, caches and output addresses in the arena, its streams' entries and masks shared
   * with every kernel of the arena; null when there is no room.
   */
  private tryLay(clip: RuntimeClip): BoundClip | null {
    const arena = this.arena!, words = this.words;
    const block = arena.allocate(28 * (STREAMS + 1));
    if (block < 0) return null;
    const streams = streamsOf(clip);
    for (let k = 0; k < STREAMS; k++) {
      const stream = streams[k], groups = stream.groupCount;
      const masks = 'steps' in stream ? stream.steps : stream.masks;
      let shared = arena.entries.get(stream);
      if (shared === undefined) {
        shared = arena.allocate(masks.byteLength + stream.entries.byteLength);
        if (shared < 0) return null;
        words.set(masks, shared >> 2);
        new Uint8Array(this.buffer!, shared + masks.byteLength, stream.entries.byteLength).set(new Uint8Array(stream.entries));
        arena.entries.set(stream, shared);
      }
      const cache = arena.allocate(cacheBytes(stream)), outputs = arena.allocate(16 * groups);
      if (cache < 0 || outputs < 0) return null;
      words.set([groups, shared + masks.byteLength, stream.count, 0, cache, outputs, shared], (block >> 2) + 7 * k);
    }
    // Morph weights: the channels' times and values shared; per context a record per channel (output, cursor).
    const weights = clip.weightChannels, channels = weights.count;
    let records = 0;
    if (channels > 0) {
      let data = arena.entries.get(weights);
      if (data === undefined) {
        data = arena.allocate(weights.data.byteLength);
        if (data < 0) return null;
        new Uint8Array(this.buffer!, data, weights.data.byteLength).set(new Uint8Array(weights.data));
        arena.entries.set(weights, data);
      }
      records = arena.allocate(28 * channels);
      if (records < 0) return null;
      for (let c = 0; c < channels; c++) {
        words.set([data + 4 * weights.timesAt[c], weights.keys[c], data + 4 * weights.valuesAt[c], weights.weights[c], weights.modes[c], 0, 0], (records >> 2) + 7 * c);
      }
    }
    words.set([channels, records, 0, 0, 0, 0, 0], (block >> 2) + 7 * STREAMS);
    const bound: BoundClip = { clip, block, t: -1, r: -1, s: -1, w: -1 };
    this.bound.set(clip, bound);
    return bound;
  }

  /**
   * Points `bound`'s output addresses at the pose whose arrays start at byte offsets t, r, s and whose morph
   * weights start at w (padding lanes: the sink).
   */
  private aim(bound: BoundClip, t: number, r: number, s: number, w: number): void {
    const words = this.words, base = [t, r, s, w], sink = this.timeAt + 16;
    const streams = streamsOf(bound.clip);
    for (let k = 0; k < STREAMS; k++) {
      const stream = streams[k], outputs = words[(bound.block >> 2) + 7 * k + 5] >> 2;
      for (let i = 0; i < 4 * stream.groupCount; i++) {
        words[outputs + i] = i < stream.trackCount ? base[stream.paths[i]] + 4 * stream.offsets[i] : sink;
      }
    }
    const weights = bound.clip.weightChannels, records = words[(bound.block >> 2) + 7 * STREAMS + 1] >> 2;
    for (let c = 0; c < weights.count; c++) words[records + 7 * c + 5] = w + 4 * weights.offsets[c];
    bound.t = t; bound.r = r; bound.s = s; bound.w = w;
  }

  /** `count` morph weights in the arena (or, when full, after moving to a memory of its own). */
  private makeWeights(count: number): Float32Array {
    const at = this.arena!.allocate(4 * count);
    if (at < 0) this.moveOut(null, 0, count);
    else this.weights = new Float32Array(this.buffer!, at, count);
    return this.weights!;
  }

  /** A staging pose of `jointCount` joints in the arena (or, when full, after moving to a memory of its own). */
  private makeStaging(jointCount: number): LocalPose {
    const staging = this.arena!.createPose(jointCount);
    if (staging === null) this.moveOut(null, jointCount, 0);
    else this.setStaging(staging);
    return this.staging!;
  }

  private setStaging(staging: LocalPose): void {
    this.staging = staging;
    this.stagingAt[0] = staging.translations.byteOffset;
    this.stagingAt[1] = staging.rotations.byteOffset;
    this.stagingAt[2] = staging.scales.byteOffset;
  }

  /**
   * Moves to a memory of its own, twice the size needed, and lays out again there every clip it has (and
   * `clip`), its staging pose (`jointCount` joints, or as before) and staged morph weights (`weightCount`, or
   * as before); the clip sampled last stays current.
   */
  private moveOut(clip: RuntimeClip | null, jointCount: number, weightCount: number): void {
    const clips = [...this.bound.keys()], current = this.current?.clip;
    if (clip !== null) clips.push(clip);
    const joints = Math.max(jointCount, this.staging ? this.staging.translations.length / 3 : 0);
    const weights = weightCount > 0 ? weightCount : this.weights?.length ?? 0;
    this.use(privateArena(2 * (clips.reduce((sum, c) => sum + clipBytes(c), 0) + 40 * joints + 4 * weights + 4096)));
    for (const c of clips) this.tryLay(c);
    if (joints > 0) this.setStaging(this.arena!.createPose(joints)!);
    if (weights > 0) this.weights = new Float32Array(this.buffer!, this.arena!.allocate(4 * weights), weights);
    if (current) this.current = this.bound.get(current)!;
  }
}

/** One clip laid out for a kernel: its stream records' byte offset, and the pose its output addresses point into. */
interface BoundClip {
  readonly clip: RuntimeClip;
  readonly block: number;
  t: number;
  r: number;
  s: number;
  w: number;
}

/** Stream records per clip, before its morph weights' record (the block's layout in sampling-kernel.as.ts). */
const STREAMS = 4;

/** A clip's streams in the order of its block's records. */
function streamsOf(clip: RuntimeClip): readonly [KeyStream, KeyStream, HermiteStream, HermiteStream] {
  return [clip.vec3Stream, clip.quatStream, clip.vec3HermiteStream, clip.quatHermiteStream];
}

/** Bytes of a context's cache of `stream`: per group 2 + 2c f32x4 (key streams) or 2 + 4c (Hermite streams). */
function cacheBytes(stream: KeyStream | HermiteStream): number {
  return 16 * (2 + ('steps' in stream ? 2 : 4) * stream.components) * stream.groupCount;
}

/** Bytes of `stream`'s masks and entries, laid out once per arena. */
function sharedBytes(stream: KeyStream | HermiteStream): number {
  return ('steps' in stream ? stream.steps : stream.masks).byteLength + stream.entries.byteLength;
}

/** Upper bound of the bytes {@link SamplingKernel} lays out for `clip` (records, caches, outputs, steps, entries, alignment). */
export function clipBytes(clip: RuntimeClip): number {
  let bytes = 28 * (STREAMS + 1) + 16 + clip.weightChannels.data.byteLength + 28 * clip.weightChannels.count + 32;
  for (const stream of streamsOf(clip)) bytes += cacheBytes(stream) + 16 * stream.groupCount + sharedBytes(stream) + 64;
  return bytes;
}

/**
 * The `Animator` options that put its sampling and blending into `kernel`'s arena: a {@link SamplingKernel} per
 * clip player there, the layers' poses made there (`KernelArena.createPose`, else `createLocalPose` once it is
 * full) and a `BlendingKernel` for its blending jobs (crossfades, masked and additive layers), so that clips are
 * sampled and blended in place, into the
 * poses the pose kernel reads. Without an arena (the `'js'` pose
 * kernel, or none set aside): kernels with memories of their own, or none with `backend: 'js'`.
 */
export function animatorSampling(
  kernel: PoseKernel, backend: 'auto' | 'js' = 'auto',
): Required<Pick<AnimatorOptions, 'samplingKernel' | 'createPose' | 'blendingKernel'>> {
  const arena = kernel.arena, options = { backend, arena };
  return {
    blendingKernel: createBlendingKernel(arena, options),
    samplingKernel: () => createSamplingKernel(options),
    createPose: (jointCount, morphWeightCount) => arena?.createPose(jointCount, morphWeightCount) ?? createLocalPose(jointCount, morphWeightCount),
  };
}

/**
 * Bytes of a pose kernel's arena (`PoseKernelOptions.arenaBytes`) for a character playing `clips` on
 * `jointCount` joints: each clip's streams once, caches for two dozen contexts per clip (the animator's slots,
 * a `ClipSample` each), sixteen poses (`KernelArena.createPose`: the animator's layers) and its blending
 * ({@link blendingArenaBytes}). More contexts or other clips still sample correctly, from a memory of their own
 * once the arena is full.
 */
export function samplingArenaBytes(clips: readonly RuntimeClip[], jointCount: number): number {
  let bytes = 4096 + 16 * (40 * jointCount + 48) + blendingArenaBytes(jointCount);
  for (const clip of clips) {
    for (const stream of streamsOf(clip)) {
      bytes += sharedBytes(stream) + 16;
      bytes += 24 * (cacheBytes(stream) + 16 * stream.groupCount + 32);
    }
    bytes += clip.weightChannels.data.byteLength + 16;
    bytes += 24 * (28 * (STREAMS + 1) + 16 + 28 * clip.weightChannels.count + 16 + 4 * clip.requiredMorphWeightCount + 16);
  }
  return bytes;
}

/** An arena in a memory of its own, for a kernel without a pose kernel's (or with a full one). */
function privateArena(bytes: number): KernelArena {
  const size = Math.ceil(bytes / 65536) * 65536;
  return new KernelArena(new WebAssembly.Memory({ initial: size / 65536 }), 0, size);
}

/** The kernel module's exports (byte offsets into its memory; layout in sampling-kernel.as.ts). */
interface KernelExports {
  sample(time: number, block: number): void;
}

const compiled = new EmbeddedModule(SAMPLING_KERNEL_WASM_BASE64);

/**
 * A {@link SamplingKernel} for one `SamplingContext` (`new SamplingContext(0, createSamplingKernel())`), or null
 * with `backend: 'js'` or where the platform cannot compile the module (the portable loops then run).
 */
export function createSamplingKernel(options: SamplingKernelOptions = {}): SamplingKernel | null {
  if (options.backend === 'js') return null;
  const module = compiled.get();
  return module ? new SamplingKernel(module, options.arena ?? null) : null;
}
