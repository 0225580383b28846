/**
 * A WebAssembly module embedded as base64 (`npm run build:wasm`), compiled on first use — once per realm: the
 * module is immutable and small enough for a synchronous compile on a browser's main thread.
 */
export class EmbeddedModule {
  private readonly base64: string;
  private compiled: WebAssembly.Module | null | undefined;

  constructor(base64: string) {
    this.base64 = base64;
  }

  /** The compiled module, or null when this platform cannot compile it (no WebAssembly, no SIMD, a CSP without `'wasm-unsafe-eval'`). */
  get(): WebAssembly.Module | null {
    if (this.compiled === undefined) {
      try {
        const text = atob(this.base64);
        const bytes = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
        this.compiled = new WebAssembly.Module(bytes);
      } catch {
        this.compiled = null;
      }
    }
    return this.compiled;
  }
}

/** The kernels call nothing; AssemblyScript's import is there for `abort`, which `--noAssert` leaves unreachable. */
export function kernelAbort(): never {
  throw new Error('WebAssembly kernel: abort');
}

/** Byte offsets for a kernel's arrays in its memory, each 16-byte aligned (kernels load and store whole v128s). */
export class KernelLayout {
  bytes = 0;
  /** The byte offset of a new array of `count` 32-bit elements (f32 or i32). */
  words(count: number): number {
    const at = this.bytes;
    this.bytes = (at + 4 * count + 15) & ~15;
    return at;
  }
}
