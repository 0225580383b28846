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
 * The kernel's memory holds the streams of every clip this context has sampled (copied in the first time), with
 * their cursors' caches, and a pose of the output's size: the output's arrays are copied in, the channels
 * sampled there and the arrays copied back (three `set` calls each way). Allocates nothing per frame, nor when
 * the context goes back to a clip it sampled before; a new clip (or output size) lays all out again in a new
 * memory.
 */
export class SamplingKernel implements SamplingBackend {
  private readonly module: WebAssembly.Module;
  private memory: WebAssembly.Memory | null = null;
  private exports: KernelExports | null = null;
  /** The clips laid out in kernel memory, each at its block's byte offset; the one sampled last. */
  private readonly blocks = new Map<RuntimeClip, number>();
  private clip: RuntimeClip | null = null;
  private block = 0;
  /** The pose in kernel memory, as long as the output's arrays. */
  private translations = new Float32Array(0);
  private rotations = new Float32Array(0);
  private scales = new Float32Array(0);
  /** Kernel memory as i32, for the cursors in the stream records. */
  private words = new Int32Array(0);
  /** `[t]` in kernel memory (byte 0), and the time sampled last (JavaScript side), seconds. */
  private time = new Float64Array(1);
  private readonly last = new Float64Array(1);

  /** Use {@link createSamplingKernel}, which returns null where the module does not compile. */
  constructor(module: WebAssembly.Module) {
    this.module = module;
  }

  sampleStreams(out: LocalPose, clip: RuntimeClip, clock: Float64Array): boolean {
    if (out.translations.length !== this.translations.length || out.rotations.length !== this.rotations.length
      || out.scales.length !== this.scales.length) this.layOut([...this.blocks.keys(), clip], out);
    if (clip !== this.clip) this.select(clip, out);
    const t = clock[0];
    // NaN samples as before the first key, as the portable loops do.
    const time = t === t ? t : -Infinity;
    if (time < this.last[0]) {
      // A step back: both cursors start over (record words 3 and 10).
      const w = this.block >> 2;
      this.words[w + 3] = 0;
      this.words[w + 10] = 0;
    }
    this.last[0] = time;
    this.time[0] = time;
    this.translations.set(out.translations);
    this.rotations.set(out.rotations);
    this.scales.set(out.scales);
    this.exports!.sample(0, this.block);
    out.translations.set(this.translations);
    out.rotations.set(this.rotations);
    out.scales.set(this.scales);
    return true;
  }

  /** Makes `clip` the one sampled, laying it out first if it is new; its cursors start over. */
  private select(clip: RuntimeClip, out: LocalPose): void {
    if (!this.blocks.has(clip)) this.layOut([...this.blocks.keys(), clip], out);
    this.clip = clip;
    this.block = this.blocks.get(clip)!;
    this.last[0] = Infinity;
  }

  /**
   * Lays out a pose of `out`'s size and `clips`' streams in a new kernel memory: the time, the pose (and a
   * sink for padding lanes), then per clip its two stream records and each stream's cache, output addresses,
   * step masks and entries. Called when a clip is new or the output's size changes, not per frame.
   */
  private layOut(clips: readonly RuntimeClip[], out: LocalPose): void {
    const layout = new KernelLayout();
    layout.words(4); // the time, f64
    const t = layout.words(out.translations.length), r = layout.words(out.rotations.length), s = layout.words(out.scales.length);
    const sink = layout.words(4);
    const placed = clips.map((clip) => ({
      clip, block: layout.words(14),
      streams: [clip.vec3Stream, clip.quatStream].map((stream) => ({
        stream, cache: layout.words(4 * (2 + 2 * stream.components) * stream.groupCount),
        outputs: layout.words(4 * stream.groupCount), steps: layout.words(4 * stream.groupCount), entries: layout.words(stream.entries.byteLength >> 2),
      })),
    }));
    this.memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(layout.bytes / 65536)) });
    this.exports = new WebAssembly.Instance(this.module, { env: { memory: this.memory, abort: kernelAbort } }).exports as unknown as KernelExports;
    const buffer = this.memory.buffer;
    this.time = new Float64Array(buffer, 0, 1);
    this.words = new Int32Array(buffer);
    this.translations = new Float32Array(buffer, t, out.translations.length);
    this.rotations = new Float32Array(buffer, r, out.rotations.length);
    this.scales = new Float32Array(buffer, s, out.scales.length);
    const base = [t, r, s];
    this.blocks.clear();
    for (const { clip, block, streams } of placed) {
      streams.forEach(({ stream, cache, outputs, steps, entries }, k) => {
        const groups = stream.groupCount;
        this.words.set([groups, entries, stream.count, 0, cache, outputs, steps], (block >> 2) + 7 * k);
        const addresses = new Int32Array(buffer, outputs, 4 * groups).fill(sink);
        for (let i = 0; i < stream.trackCount; i++) addresses[i] = base[stream.paths[i]] + 4 * stream.offsets[i];
        new Int32Array(buffer, steps, 4 * groups).set(stream.steps);
        new Uint8Array(buffer, entries, stream.entries.byteLength).set(new Uint8Array(stream.entries));
      });
      this.blocks.set(clip, block);
    }
    this.clip = null;
  }
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
  return module ? new SamplingKernel(module) : null;
}
