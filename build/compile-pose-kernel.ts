/**
 * The pose kernel's build (src/pose/wasm/pose-kernel.as.ts → pose-kernel-binary.ts, build/wasm-kernel.ts);
 * `npm run build:wasm` runs it, tests/unit/pose/pose-kernel-binary.test.ts fails when the committed binary is
 * not the source's.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileWasmKernel, wasmKernelModuleText, writeWasmKernel, type WasmKernelSpec } from './wasm-kernel.ts';

const root = resolve(import.meta.dirname, '..');
export const POSE_KERNEL_SOURCE = resolve(root, 'src/pose/wasm/pose-kernel.as.ts');
export const POSE_KERNEL_BINARY = resolve(root, 'src/pose/wasm/pose-kernel-binary.ts');
const POSE_KERNEL: WasmKernelSpec = {
  title: 'pose kernel', source: POSE_KERNEL_SOURCE, binary: POSE_KERNEL_BINARY, constant: 'POSE_KERNEL_WASM_BASE64',
  script: 'build/compile-pose-kernel.ts',
};

/** The pose kernel compiled ({@link compileWasmKernel}). */
export function compilePoseKernel(): Promise<Uint8Array> {
  return compileWasmKernel(POSE_KERNEL);
}

/** The text of pose-kernel-binary.ts for `binary`. */
export function binaryModuleText(binary: Uint8Array): string {
  return wasmKernelModuleText(POSE_KERNEL, binary);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await writeWasmKernel(POSE_KERNEL);
