import type { KeyStream } from '../animation/key-stream.ts';
import type { RuntimeClip } from '../animation/runtime-clip.ts';
import type { SamplingBackend } from '../animation/sampling-context.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { SAMPLING_KERNEL_WASM_BASE64 } from './wasm/sampling-kernel-binary.ts';
import { EmbeddedModule, kernelAbort, KernelLayout } from './wasm-module.ts';

/** {@link createSamplingKernel} settings: `'auto'` (default) WebAssembly SIMD where it compiles, `'js'` none. */
export interface SamplingKernelOptions {
  readonly backend?: 'auto' | 'js';
}

/**
 * The WebAssembly SIMD back end of a clip's LINEAR and STEP channels (src/pose/wasm/sampling-kernel.as.ts): a
 * {@link SamplingBackend} for one `SamplingContext`, sampling the clip's key streams (`RuntimeClip.vec3Stream`,
 * `quatStream`) as ozz-animation's SamplingJob does (docs/animation-sampling.md) — four tracks per f32x4, keys
 * read through a cursor that moves forward with time (a backward seek starts it over) into a per-track cache
 * of the two keys around the time.
 *
 * Against the portable loops of `sampleClip` (the reference): translations and scales are the same lerp
 * `v_k + s·(v_{k+1} − v_k)` in float32 instead of double (s too: a few float32 ulps); rotations are the
 * shortest-arc normalised lerp `normalize(q_k + s·(±q_{k+1} − q_k))` instead of slerp, as ozz-animation
 * samples. Both are on the great arc from q_k to ±q_{k+1}; nlerp moves along it at a speed that is not
 * constant, off slerp's angle sθ by at most E(θ) = max_s |atan2(s·sin θ, 1 − s + s·cos θ) − sθ| (θ ≤ π/2
 * the angle between the keys as 4-vectors; the rotation differs by 2E), which is zero at s = 0, ½, 1, is
 * θ³/(36√3) to leading order and at most θ³/54 on [0, π/2] (tests/unit/pose/sampling-kernel.test.ts checks
 * the bound against exact slerp and holds every shared clip to it). Keys and holds (before the first key, after the last, STEP) are the keys' values exactly.
 * STEP switches at a key time t_k when float32(t) ≥ t_k (the portable loops compare in double).
 *
 * The kernel's memory holds the bound clip's streams (copied when a clip is first sampled, and again whenever
 * the context samples another clip), the cursors' caches and a pose of the output's size: the output's arrays
 * are copied in, the channels sampled there and the arrays copied back (three `set` calls each way). Allocates
 * nothing per frame; binding a clip larger than any before allocates a new memory.
 */
export class SamplingKernel implements SamplingBackend {
  private readonly module: WebAssembly.Module;
  private memory: WebAssembly.Memory | null = null;
  private exports: KernelExports | null = null;
  private clip: RuntimeClip | null = null;
  private vec3: BoundStream | null = null;
  private quat: BoundStream | null = null;
  /** The pose in kernel memory, as long as the output's arrays. */
  private translations = new Float32Array(0);
  private rotations = new Float32Array(0);
  private scales = new Float32Array(0);
  /** `[t]` in kernel memory (byte 0), and the time sampled last (JavaScript side), seconds. */
  private time = new Float64Array(1);
  private readonly last = new Float64Array(1);

  /** Use {@link createSamplingKernel}, which returns null where the module does not compile. */
  constructor(module: WebAssembly.Module) {
    this.module = module;
  }

  sampleStreams(out: LocalPose, clip: RuntimeClip, clock: Float64Array): boolean {
    if (clip !== this.clip || out.translations.length !== this.translations.length
      || out.rotations.length !== this.rotations.length || out.scales.length !== this.scales.length) this.bind(clip, out);
    const vec3 = this.vec3!, quat = this.quat!, exports = this.exports!;
    const t = clock[0];
    // NaN samples as before the first key, as the portable loops do.
    const time = t === t ? t : -Infinity;
    if (time < this.last[0]) {
      vec3.cursor = 0;
      quat.cursor = 0;
    }
    this.last[0] = time;
    this.time[0] = time;
    this.translations.set(out.translations);
    this.rotations.set(out.rotations);
    this.scales.set(out.scales);
    if (vec3.groups > 0) vec3.cursor = exports.sampleVec3(0, vec3.groups, vec3.stream, vec3.count, vec3.cursor, vec3.cache, vec3.outputs, vec3.steps);
    if (quat.groups > 0) quat.cursor = exports.sampleQuat(0, quat.groups, quat.stream, quat.count, quat.cursor, quat.cache, quat.outputs, quat.steps);
    out.translations.set(this.translations);
    out.rotations.set(this.rotations);
    out.scales.set(this.scales);
    return true;
  }

  /** Lays out `clip`'s streams and a pose of `out`'s size in kernel memory (a new memory when it does not fit). */
  private bind(clip: RuntimeClip, out: LocalPose): void {
    const layout = new KernelLayout();
    layout.words(4); // the time, f64
    const t = layout.words(out.translations.length), r = layout.words(out.rotations.length), s = layout.words(out.scales.length);
    const sink = layout.words(4);
    const place = (stream: KeyStream): BoundStream => ({
      groups: stream.groupCount, count: stream.count, cursor: 0,
      cache: layout.words(4 * (2 + 2 * stream.components) * stream.groupCount),
      outputs: layout.words(4 * stream.groupCount), steps: layout.words(4 * stream.groupCount),
      stream: layout.words((stream.entries.byteLength >> 2)),
    });
    const vec3 = place(clip.vec3Stream), quat = place(clip.quatStream);
    const pages = Math.max(1, Math.ceil(layout.bytes / 65536));
    if (!this.memory || this.memory.buffer.byteLength < layout.bytes) {
      this.memory = new WebAssembly.Memory({ initial: pages });
      this.exports = new WebAssembly.Instance(this.module, { env: { memory: this.memory, abort: kernelAbort } }).exports as unknown as KernelExports;
    }
    const buffer = this.memory.buffer;
    new Uint8Array(buffer).fill(0);
    this.time = new Float64Array(buffer, 0, 1);
    this.translations = new Float32Array(buffer, t, out.translations.length);
    this.rotations = new Float32Array(buffer, r, out.rotations.length);
    this.scales = new Float32Array(buffer, s, out.scales.length);
    const base = [t, r, s];
    for (const [stream, bound] of [[clip.vec3Stream, vec3], [clip.quatStream, quat]] as const) {
      const outputs = new Int32Array(buffer, bound.outputs, 4 * bound.groups).fill(sink);
      for (let i = 0; i < stream.trackCount; i++) outputs[i] = base[stream.paths[i]] + 4 * stream.offsets[i];
      new Int32Array(buffer, bound.steps, 4 * bound.groups).set(stream.steps);
      new Uint8Array(buffer, bound.stream, stream.entries.byteLength).set(new Uint8Array(stream.entries));
    }
    this.vec3 = vec3;
    this.quat = quat;
    this.clip = clip;
    this.last[0] = Infinity; // the first sample starts the cursors over
  }
}

/** Where one bound {@link KeyStream} lives in kernel memory (byte offsets), and its cursor (an entry index). */
interface BoundStream {
  readonly groups: number;
  readonly count: number;
  cursor: number;
  readonly cache: number;
  readonly outputs: number;
  readonly steps: number;
  readonly stream: number;
}

/** The kernel module's exports (byte offsets into its memory; layout in sampling-kernel.as.ts). */
interface KernelExports {
  sampleVec3(time: number, groups: number, stream: number, count: number, cursor: number, cache: number, outputs: number, steps: number): number;
  sampleQuat(time: number, groups: number, stream: number, count: number, cursor: number, cache: number, outputs: number, steps: number): number;
}

const compiled = new EmbeddedModule(SAMPLING_KERNEL_WASM_BASE64);

/**
 * A {@link SamplingKernel} for one `SamplingContext` (`new SamplingContext(0, createSamplingKernel())`), or null
 * with `backend: 'js'` or where the platform cannot compile the module (the portable loops then run).
 */
export function createSamplingKernel(options: SamplingKernelOptions = {}): SamplingKernel | null {
  if (options.backend === 'js') return null;
  const module = compiled.get();
  return module ? new SamplingKernel(module) : null;
}
