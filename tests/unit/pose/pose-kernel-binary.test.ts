import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { binaryModuleText, compileKernel, KERNELS } from '../../../build/compile-pose-kernel.ts';

describe('kernel binaries', () => {
  for (const kernel of KERNELS) {
    it(`${kernel.binary.slice(kernel.binary.lastIndexOf('/') + 1)} is what its AssemblyScript source compiles to (run \`npm run build:wasm\` after editing it)`, async () => {
      const binary = await compileKernel(kernel);
      expect(readFileSync(kernel.binary, 'utf8')).toBe(binaryModuleText(kernel, binary));
    }, 60_000);
  }
});
