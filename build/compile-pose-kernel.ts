/**
 * The pose room's kernels' build (build/wasm-kernel.ts): the pose kernel (src/pose/wasm/pose-kernel.as.ts), the
 * sampling kernel (sampling-kernel.as.ts) and the blending kernel (blending-kernel.as.ts), each into its
 * `*-binary.ts` beside it. `npm run build:wasm` runs it; tests/unit/pose/pose-kernel-binary.test.ts fails when a
 * committed binary is not its source's.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileWasmKernel, wasmKernelModuleText, writeWasmKernel, type WasmKernelSpec } from './wasm-kernel.ts';

const root = resolve(import.meta.dirname, '..');
const SCRIPT = 'build/compile-pose-kernel.ts';

export const POSE_KERNEL: WasmKernelSpec = {
  title: 'pose kernel', constant: 'POSE_KERNEL_WASM_BASE64', script: SCRIPT,
  source: resolve(root, 'src/pose/wasm/pose-kernel.as.ts'), binary: resolve(root, 'src/pose/wasm/pose-kernel-binary.ts'),
};
export const SAMPLING_KERNEL: WasmKernelSpec = {
  title: 'sampling kernel', constant: 'SAMPLING_KERNEL_WASM_BASE64', script: SCRIPT,
  source: resolve(root, 'src/pose/wasm/sampling-kernel.as.ts'), binary: resolve(root, 'src/pose/wasm/sampling-kernel-binary.ts'),
};
export const BLENDING_KERNEL: WasmKernelSpec = {
  title: 'blending kernel', constant: 'BLENDING_KERNEL_WASM_BASE64', script: SCRIPT,
  source: resolve(root, 'src/pose/wasm/blending-kernel.as.ts'), binary: resolve(root, 'src/pose/wasm/blending-kernel-binary.ts'),
};
export const SPRING_KERNEL: WasmKernelSpec = {
  title: 'spring kernel', constant: 'SPRING_KERNEL_WASM_BASE64', script: SCRIPT,
  source: resolve(root, 'src/pose/wasm/spring-kernel.as.ts'), binary: resolve(root, 'src/pose/wasm/spring-kernel-binary.ts'),
};
export const KERNELS: readonly WasmKernelSpec[] = [POSE_KERNEL, SAMPLING_KERNEL, BLENDING_KERNEL, SPRING_KERNEL];

/** `kernel` compiled ({@link compileWasmKernel}). */
export function compileKernel(kernel: WasmKernelSpec): Promise<Uint8Array> {
  return compileWasmKernel(kernel);
}

/** The text of `kernel`'s generated module for `binary`. */
export function binaryModuleText(kernel: WasmKernelSpec, binary: Uint8Array): string {
  return wasmKernelModuleText(kernel, binary);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) for (const kernel of KERNELS) await writeWasmKernel(kernel);
