/**
 * What a WebAssembly kernel of Sinew needs around its module: compiling the committed base64 binary, laying
 * out its arrays in the instance's own memory, and the `abort` import AssemblyScript declares. Used by
 * `SkinningKernel`; `PoseKernel` keeps an equivalent copy of its own (src/pose/pose-kernel.ts) for now.
 */

/**
 * The module `base64` encodes, compiled synchronously (the kernels are small enough for a browser's main
 * thread), or null when this platform cannot compile it: no WebAssembly, no SIMD, or a
 * Content-Security-Policy without `'wasm-unsafe-eval'`. Allocates; call once per realm and keep the result.
 */
export function compileBase64Module(base64: string): WebAssembly.Module | null {
  try {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return new WebAssembly.Module(bytes);
  } catch {
    return null;
  }
}

/** Byte offsets for a kernel's arrays in its memory, each 16-byte aligned (kernels load and store whole v128s). */
export class WasmLayout {
  /** Bytes laid out so far: the memory needs at least this many. */
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

/**
 * The `env.abort` a kernel instance is given: the kernels call nothing, and AssemblyScript's `--noAssert`
 * leaves its `abort` unreachable, so reaching it is a bug in the kernel.
 * @throws Error naming the kernel, always
 */
export function unreachableAbort(kernel: string): never {
  throw new Error(`${kernel}: abort`);
}
