import type { BlendingBackend, BlendingLayer } from '../animation/blending-job.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { KernelArena } from './kernel-arena.ts';
import { BLENDING_KERNEL_WASM_BASE64 } from './wasm/blending-kernel-binary.ts';
import { PoseLocator } from './pose-locator.ts';
import { EmbeddedModule } from './wasm-module.ts';

/**
 * The WebAssembly SIMD back end of `blendLayers`' two-layer case without per-joint weights
 * (src/pose/wasm/blending-kernel.as.ts), on poses in a pose kernel's arena (`PoseKernel.pose`,
 * `KernelArena.createPose`): the animator's crossfades and unmasked layers, blended where they were sampled,
 * nothing copied. The same formulas as the portable `blendTwo` (src/animation/blending-job.ts; ozz-animation's
 * BlendingJob), in float32 where the portable loop sums in double: a few float32 ulps apart
 * (tests/unit/pose/blending-kernel.test.ts bounds it). Poses elsewhere (or not 16-byte aligned) are left to the
 * portable loop. Allocates nothing per blend.
 */
export class BlendingKernel implements BlendingBackend {
  /** Which poses lie in the arena (16-byte aligned), and where. */
  private readonly locator: PoseLocator;
  private readonly exports: KernelExports;
  /** `[ka, kb]` in the arena, the normalised weights passed to the kernel. */
  private readonly weights: Float64Array;
  private readonly weightsAt: number;

  /** Use {@link createBlendingKernel}. @throws RangeError when the arena has no 16 bytes left */
  constructor(module: WebAssembly.Module, arena: KernelArena) {
    this.locator = new PoseLocator(arena.memory.buffer);
    this.exports = arena.exportsOf(module) as unknown as KernelExports;
    this.weightsAt = arena.allocate(16);
    if (this.weightsAt < 0) throw new RangeError('BlendingKernel: the arena is full');
    this.weights = new Float64Array(arena.memory.buffer, this.weightsAt, 2);
  }

  /** `BlendingBackend.blendTwo` (src/animation/blending-job.ts): the two-layer blend on poses in the arena. */
  blendTwo(out: LocalPose, a: BlendingLayer, b: BlendingLayer, jointCount: number): boolean {
    const locator = this.locator, offsets = locator.offsets;
    const o = 3 * locator.find(out), p = 3 * locator.find(a.pose), q = 3 * locator.find(b.pose);
    if (offsets[o] < 0 || offsets[p] < 0 || offsets[q] < 0) return false;
    const wa = a.weight, wb = b.weight, weights = this.weights;
    weights[0] = wa / (wa + wb);
    weights[1] = wb / (wa + wb);
    this.exports.blendTwo(jointCount, this.weightsAt, offsets[o], offsets[o + 1], offsets[o + 2],
      offsets[p], offsets[p + 1], offsets[p + 2], offsets[q], offsets[q + 1], offsets[q + 2]);
    return true;
  }
}

/** The kernel module's exports (byte offsets into the arena's memory; layout in blending-kernel.as.ts). */
interface KernelExports {
  blendTwo(n: number, weights: number, ot: number, or: number, os: number, at: number, ar: number, as: number, bt: number, br: number, bs: number): void;
}

const compiled = new EmbeddedModule(BLENDING_KERNEL_WASM_BASE64);

/**
 * A {@link BlendingKernel} on `arena` (one per `BlendingJob` or per animator: it holds no state but its
 * weights slot), or null without an arena, with `backend: 'js'`, or where the module does not compile.
 */
export function createBlendingKernel(arena: KernelArena | null, options: { readonly backend?: 'auto' | 'js' } = {}): BlendingKernel | null {
  if (arena === null || options.backend === 'js' || arena.free < 16) return null;
  const module = compiled.get();
  return module ? new BlendingKernel(module, arena) : null;
}
