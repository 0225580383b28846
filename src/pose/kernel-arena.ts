import type { LocalPose } from '../skeleton/local-pose.ts';
import { kernelAbort } from '../wasm/embedded-module.ts';

/**
 * A region of a `PoseKernel`'s WebAssembly memory set aside for the sampling kernels of the same character
 * (`PoseKernelOptions.arenaBytes`): the key streams of its clips, the sampling contexts' caches, and local poses
 * the animator blends in, so that sampling writes straight into the poses the pose kernel reads and a frame
 * copies nothing between memories. Handed out front to back and never given back (the memory is fixed: its
 * views stay valid for the kernel's life); when it runs out, a sampling kernel falls back to its own memory.
 */
export class KernelArena {
  /** The pose kernel's memory (never grown). */
  readonly memory: WebAssembly.Memory;
  /** Byte offset of the next free byte; `end` is one past the last. */
  private next: number;
  private readonly end: number;
  /** Key streams laid out once per arena, shared by every context that samples them: stream → byte offset. */
  readonly entries = new Map<object, number>();
  /** The kernel modules' instances on this memory, each made once, by the first kernel that needs it. */
  private readonly instances = new Map<WebAssembly.Module, WebAssembly.Exports>();

  /** @param offset, bytes the region, 16-byte aligned */
  constructor(memory: WebAssembly.Memory, offset: number, bytes: number) {
    this.memory = memory;
    this.next = offset;
    this.end = offset + bytes;
  }

  /** The byte offset of `bytes` free bytes (16-byte aligned), or −1 when the arena has no room left. */
  allocate(bytes: number): number {
    const at = this.next, size = (bytes + 15) & ~15;
    if (at + size > this.end) return -1;
    this.next = at + size;
    return at;
  }

  /** The exports of `module` instantiated on this memory (once per module; the kernels import nothing else). */
  exportsOf(module: WebAssembly.Module): WebAssembly.Exports {
    let exports = this.instances.get(module);
    if (exports === undefined) {
      exports = new WebAssembly.Instance(module, { env: { memory: this.memory, abort: kernelAbort } }).exports;
      this.instances.set(module, exports);
    }
    return exports;
  }

  /** Free bytes left. */
  get free(): number {
    return this.end - this.next;
  }

  /**
   * A local pose of `jointCount` joints in the arena (identity rotations, unit scales; morph weights in
   * ordinary memory), or null when there is no room. Allocates its views: at set-up, not per frame.
   */
  createPose(jointCount: number, morphWeightCount = 0): LocalPose | null {
    const at = this.allocate(40 * jointCount + 48);
    if (at < 0) return null;
    const buffer = this.memory.buffer;
    const t = at, r = (t + 12 * jointCount + 15) & ~15, s = (r + 16 * jointCount + 15) & ~15;
    const rotations = new Float32Array(buffer, r, 4 * jointCount);
    for (let i = 3; i < rotations.length; i += 4) rotations[i] = 1;
    return {
      translations: new Float32Array(buffer, t, 3 * jointCount).fill(0), rotations,
      scales: new Float32Array(buffer, s, 3 * jointCount).fill(1), morphWeights: new Float32Array(morphWeightCount),
    };
  }
}
