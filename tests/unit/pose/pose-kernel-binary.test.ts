import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { binaryModuleText, compilePoseKernel, POSE_KERNEL_BINARY } from '../../../build/compile-pose-kernel.ts';

describe('pose kernel binary', () => {
  it('is what the AssemblyScript source compiles to (run `npm run build:wasm` after editing pose-kernel.as.ts)', async () => {
    const binary = await compilePoseKernel();
    expect(readFileSync(POSE_KERNEL_BINARY, 'utf8')).toBe(binaryModuleText(binary));
  }, 60_000);
});
