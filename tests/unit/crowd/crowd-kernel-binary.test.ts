import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CROWD_KERNEL } from '../../../build/compile-crowd-kernel.ts';
import { compileWasmKernel, wasmKernelModuleText } from '../../../build/wasm-kernel.ts';

describe('crowd kernel binary', () => {
  it('is what the AssemblyScript sources compile to (run `npm run build:wasm` after editing crowd-kernel.as.ts or the pose room kernels it calls)', async () => {
    const binary = await compileWasmKernel(CROWD_KERNEL);
    expect(readFileSync(CROWD_KERNEL.binary, 'utf8')).toBe(wasmKernelModuleText(CROWD_KERNEL, binary));
  }, 60_000);
});
