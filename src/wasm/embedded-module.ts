/**
 * A WebAssembly module embedded as base64 (`npm run build:wasm`, build/wasm-kernel.ts), compiled on first use —
 * once per realm: the kernels are immutable and small enough for a synchronous compile on a browser's main
 * thread. Every kernel of Sinew (pose, sampling, blending, skinning, crowd) holds one at module level: a cache
 * of an immutable value, filled once, not state a frame changes.
 */
export class EmbeddedModule {
  /**
   * Set once any kernel fails to compile in this realm: every kernel needs WebAssembly with SIMD, so the others
   * would fail alike, and under a Content-Security-Policy without `'wasm-unsafe-eval'` each refused attempt is
   * reported to the page. The first refusal answers for all (one report per page).
   */
  private static refused = false;
  private readonly base64: string;
  private compiled: WebAssembly.Module | null | undefined;

  constructor(base64: string) {
    this.base64 = base64;
  }

  /**
   * The compiled module, or null when this platform cannot compile it: no WebAssembly, no SIMD, or a
   * Content-Security-Policy without `'wasm-unsafe-eval'` (the caller then takes its portable path). After one
   * kernel's refusal, null for every other without trying.
   */
  get(): WebAssembly.Module | null {
    if (this.compiled === undefined && EmbeddedModule.refused) this.compiled = null;
    if (this.compiled === undefined) {
      try {
        const text = atob(this.base64);
        const bytes = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
        this.compiled = new WebAssembly.Module(bytes);
      } catch {
        this.compiled = null;
        EmbeddedModule.refused = true;
      }
    }
    return this.compiled;
  }
}

/**
 * The `env.abort` a kernel instance is given: the kernels call nothing, and AssemblyScript's `--noAssert`
 * leaves its `abort` unreachable, so reaching it is a bug in a kernel.
 * @throws Error, always
 */
export function kernelAbort(): never {
  throw new Error('WebAssembly kernel: abort');
}
