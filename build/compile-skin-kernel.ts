/**
 * The skinning kernel's build (src/skinning/wasm/skin-kernel.as.ts → skin-kernel-binary.ts,
 * build/wasm-kernel.ts); `npm run build:wasm` runs it, tests/unit/skinning/skin-kernel-binary.test.ts fails
 * when the committed binary is not the source's.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeWasmKernel, type WasmKernelSpec } from './wasm-kernel.ts';

const root = resolve(import.meta.dirname, '..');

export const SKIN_KERNEL: WasmKernelSpec = {
  title: 'skinning kernel', constant: 'SKIN_KERNEL_WASM_BASE64', script: 'build/compile-skin-kernel.ts',
  source: resolve(root, 'src/skinning/wasm/skin-kernel.as.ts'), binary: resolve(root, 'src/skinning/wasm/skin-kernel-binary.ts'),
};

if (import.meta.url === pathToFileURL(process.argv[1]).href) await writeWasmKernel(SKIN_KERNEL);
