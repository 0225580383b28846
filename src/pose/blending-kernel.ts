import type { BlendingBackend, BlendingJob, BlendingLayer } from '../animation/blending-job.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { KernelArena } from './kernel-arena.ts';
import { BLENDING_KERNEL_WASM_BASE64 } from './wasm/blending-kernel-binary.ts';
import { PoseLocator } from './pose-locator.ts';
import { EmbeddedModule } from '../wasm/embedded-module.ts';

/** Normal and additive layers a {@link BlendingKernel} takes in one job (more: the portable loops run). */
export const BLENDING_KERNEL_MAX_LAYERS = 16;

/**
 * The WebAssembly SIMD back end of `blendLayers` (src/pose/wasm/blending-kernel.as.ts): a whole `BlendingJob` —
 * normal layers with their per-joint weights, the rest-pose threshold pass, the normalisation, the additive
 * layers — in one call, on poses in a pose kernel's arena (`PoseKernel.pose`, `KernelArena.createPose`) and
 * per-joint weights there ({@link createJointWeights}): the animator's crossfades, masked layers and additive
 * layers, blended where they were sampled, nothing copied. The formulas are the portable loops'
 * (src/animation/blending-job.ts, after ozz-animation's BlendingJob; docs/explanation/animation-blending.md), in float32
 * where those sum in double: a few float32 ulps apart (tests/unit/pose/blending-kernel.test.ts states and
 * checks the bound). A joint with one input takes it bit for bit, as in the portable loops. Jobs it cannot
 * run — a pose or per-joint weight array outside the arena, fewer than four joints, more than
 * {@link BLENDING_KERNEL_MAX_LAYERS} layers of a kind — are left to the portable loops. Allocates nothing per
 * blend.
 */
export class BlendingKernel implements BlendingBackend {
  private readonly arena: KernelArena;
  /** Which poses lie in the arena's memory (16-byte aligned), and where. */
  private readonly locator: PoseLocator;
  private readonly exports: KernelExports;
  /** The job record handed to the kernel (layout in blending-kernel.as.ts), as words and as floats. */
  private readonly words: Int32Array;
  private readonly floats: Float32Array;
  private readonly jobAt: number;
  /** Per-joint weight arrays seen lately and their byte offsets (−1: not in the memory). */
  private readonly maskArrays: (Float32Array | null)[] = new Array<Float32Array | null>(MASKS).fill(null);
  private readonly maskOffsets = new Int32Array(MASKS);
  private nextMask = 0;

  /** Use {@link createBlendingKernel}. @throws RangeError when the arena has no room for the job record */
  constructor(module: WebAssembly.Module, arena: KernelArena) {
    this.arena = arena;
    this.locator = new PoseLocator(arena.memory.buffer, 2 * BLENDING_KERNEL_MAX_LAYERS + 2);
    this.exports = arena.exportsOf(module) as unknown as KernelExports;
    this.jobAt = arena.allocate(JOB_BYTES);
    if (this.jobAt < 0) throw new RangeError('BlendingKernel: the arena is full');
    this.words = new Int32Array(arena.memory.buffer, this.jobAt, JOB_BYTES >> 2);
    this.floats = new Float32Array(arena.memory.buffer, this.jobAt, JOB_BYTES >> 2);
    this.words[11] = this.jobAt + JOB_BYTES - SCRATCH_BYTES;
  }

  /**
   * `BlendingBackend.blend` (src/animation/blending-job.ts): the job's joints on poses in the arena, in one
   * kernel call; false (nothing written) when a pose or per-joint weight array lies elsewhere, `jointCount`
   * < 4, or a kind of layer counts more than {@link BLENDING_KERNEL_MAX_LAYERS} records with a weight ≠ 0.
   */
  blend(out: LocalPose, job: BlendingJob, jointCount: number): boolean {
    if (jointCount < 4) return false;
    const words = this.words, floats = this.floats, locator = this.locator, offsets = locator.offsets;
    let at = 3 * locator.find(out);
    if (offsets[at] < 0) return false;
    words[0] = jointCount;
    words[3] = offsets[at]; words[4] = offsets[at + 1]; words[5] = offsets[at + 2];
    const rest = job.restPose;
    words[6] = rest !== null ? 1 : 0;
    if (rest !== null) {
      at = 3 * locator.find(rest);
      if (offsets[at] < 0) return false;
      words[7] = offsets[at]; words[8] = offsets[at + 1]; words[9] = offsets[at + 2];
    }
    floats[10] = job.threshold;
    let w = RECORDS;
    const layers = job.layers, layerCount = job.layerCount;
    let normals = 0;
    for (let l = 0; l < layerCount; l++) {
      const layer = layers[l];
      if (layer.weight === 0) continue; // w = 0·mask[j]: no part in any joint (the portable `!(w > 0)`)
      if (normals === BLENDING_KERNEL_MAX_LAYERS || !this.record(w, layer, jointCount)) return false;
      w += 5;
      normals++;
    }
    const additives = job.additiveLayers, additiveCount = job.additiveLayerCount;
    let added = 0;
    for (let l = 0; l < additiveCount; l++) {
      const layer = additives[l];
      if (layer.weight === 0) continue; // a = 0: + 0, ⊙ 1, · identity
      if (added === BLENDING_KERNEL_MAX_LAYERS || !this.record(w, layer, jointCount)) return false;
      at = 3 * locator.find(layer.reference!);
      if (offsets[at] < 0) return false;
      words[w + 5] = offsets[at]; words[w + 6] = offsets[at + 1]; words[w + 7] = offsets[at + 2];
      w += 8;
      added++;
    }
    words[1] = normals;
    words[2] = added;
    this.exports.blend(this.jobAt);
    return true;
  }

  /**
   * `BlendingBackend.createJointWeights`: a `Float32Array(jointCount)` of zeros in the arena, or null when it is
   * full. Allocates (at set-up).
   */
  createJointWeights(jointCount: number): Float32Array | null {
    const at = this.arena.allocate(4 * jointCount);
    return at < 0 ? null : new Float32Array(this.arena.memory.buffer, at, jointCount).fill(0);
  }

  /** Writes a layer's weight, per-joint weights and pose at word `w`; false when they are not in the arena. */
  private record(w: number, layer: BlendingLayer, jointCount: number): boolean {
    const words = this.words, offsets = this.locator.offsets, at = 3 * this.locator.find(layer.pose);
    if (offsets[at] < 0) return false;
    this.floats[w] = layer.weight;
    const mask = layer.jointWeights;
    let maskAt = -1;
    if (mask !== null) {
      maskAt = this.maskOffset(mask);
      if (maskAt < 0 || mask.length < jointCount) return false;
    }
    words[w + 1] = maskAt;
    words[w + 2] = offsets[at]; words[w + 3] = offsets[at + 1]; words[w + 4] = offsets[at + 2];
    return true;
  }

  /** The byte offset of `mask` in the arena's memory, or −1 (remembered: reading `buffer` costs). */
  private maskOffset(mask: Float32Array): number {
    const arrays = this.maskArrays;
    for (let i = 0; i < MASKS; i++) if (arrays[i] === mask) return this.maskOffsets[i];
    const i = this.nextMask;
    this.nextMask = (i + 1) % MASKS;
    arrays[i] = mask;
    this.maskOffsets[i] = mask.buffer === this.arena.memory.buffer && (mask.byteOffset & 3) === 0 ? mask.byteOffset : -1;
    return this.maskOffsets[i];
  }
}

/** The kernel module's exports (a byte offset into the arena's memory; layout in blending-kernel.as.ts). */
interface KernelExports {
  blend(job: number): void;
}

/** Words of the job record before the layer records; the scratch for the last, partial group of four joints. */
const RECORDS = 12;
const SCRATCH_BYTES = 160;
const JOB_BYTES = 4 * (RECORDS + 5 * BLENDING_KERNEL_MAX_LAYERS + 8 * BLENDING_KERNEL_MAX_LAYERS) + SCRATCH_BYTES;
/** Per-joint weight arrays remembered: an animator's layer masks and its complement. */
const MASKS = 8;

const compiled = new EmbeddedModule(BLENDING_KERNEL_WASM_BASE64);

/**
 * Bytes of a pose kernel's arena an animator's blending takes on `jointCount` joints: one {@link BlendingKernel}'s
 * job record, sixteen per-joint weight arrays (its layers' masks, their complements) and four poses (additive
 * reference poses), counted into `samplingArenaBytes` so that blends do not leave the arena for the portable loops.
 */
export function blendingArenaBytes(jointCount: number): number {
  return JOB_BYTES + 16 * (4 * jointCount + 16) + 4 * (40 * jointCount + 48);
}

/**
 * A {@link BlendingKernel} on `arena` (one per animator: it holds its job record), or null without an arena,
 * with `backend: 'js'`, when the arena has no room for the record, or where the module does not compile.
 */
export function createBlendingKernel(arena: KernelArena | null, options: { readonly backend?: 'auto' | 'js' } = {}): BlendingKernel | null {
  if (arena === null || options.backend === 'js' || arena.free < JOB_BYTES) return null;
  const module = compiled.get();
  return module ? new BlendingKernel(module, arena) : null;
}
