/**
 * Byte offsets for a kernel's arrays in its WebAssembly memory, handed out front to back, each 16-byte aligned
 * (the kernels load and store whole v128s). {@link bytes} is then the memory the kernel needs.
 */
export class KernelLayout {
  /** Bytes laid out so far. */
  bytes = 0;

  /** The byte offset of a new array of `count` 32-bit elements (f32 or i32). */
  words(count: number): number {
    return this.take(4 * count);
  }

  /** The byte offset of a new array of `count` 16-bit elements (u16). */
  halves(count: number): number {
    return this.take(2 * count);
  }

  private take(size: number): number {
    const at = this.bytes;
    this.bytes = (at + size + 15) & ~15;
    return at;
  }
}
