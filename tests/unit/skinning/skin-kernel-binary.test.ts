import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SKIN_KERNEL } from '../../../build/compile-skin-kernel.ts';
import { compileWasmKernel, wasmKernelModuleText } from '../../../build/wasm-kernel.ts';

describe('skinning kernel binary', () => {
  it('is what the AssemblyScript source compiles to (run `npm run build:wasm` after editing skin-kernel.as.ts)', async () => {
    const binary = await compileWasmKernel(SKIN_KERNEL);
    expect(readFileSync(SKIN_KERNEL.binary, 'utf8')).toBe(wasmKernelModuleText(SKIN_KERNEL, binary));
  }, 60_000);
});
