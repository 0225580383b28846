/**
 * The crowd kernel's build (src/crowd/wasm/crowd-kernel.as.ts with the sampling, pose and blending kernels' sources it calls
 * → crowd-kernel-binary.ts, build/wasm-kernel.ts); `npm run build:wasm` runs it,
 * tests/unit/crowd/crowd-kernel-binary.test.ts fails when the committed binary is not the sources'.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeWasmKernel, type WasmKernelSpec } from './wasm-kernel.ts';
import { BLENDING_KERNEL, POSE_KERNEL, SAMPLING_KERNEL } from './compile-pose-kernel.ts';

const root = resolve(import.meta.dirname, '..');

export const CROWD_KERNEL: WasmKernelSpec = {
  title: 'crowd kernel', constant: 'CROWD_KERNEL_WASM_BASE64', script: 'build/compile-crowd-kernel.ts',
  source: resolve(root, 'src/crowd/wasm/crowd-kernel.as.ts'), binary: resolve(root, 'src/crowd/wasm/crowd-kernel-binary.ts'),
  includes: [SAMPLING_KERNEL.source, POSE_KERNEL.source, BLENDING_KERNEL.source],
};

if (import.meta.url === pathToFileURL(process.argv[1]).href) await writeWasmKernel(CROWD_KERNEL);
