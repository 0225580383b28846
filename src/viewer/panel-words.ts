import type { PalettePath } from '../gpu/passes/renderer.ts';
import type { PoseKernelBackend } from '../pose/pose-kernel.ts';
import type { WeightPolicy } from '../skinning/skinning-method.ts';

/** Plain words for each pose kernel backend. */
export const POSE_KERNEL_WORDS: Readonly<Record<PoseKernelBackend, string>> = {
  'wasm-simd': 'WebAssembly SIMD',
  js: 'portable JavaScript',
};

/** Plain words for each palette path: how the joint matrices reach the shader. */
export const PALETTE_PATH_WORDS: Readonly<Record<PalettePath, string>> = {
  uniform: 'joint matrices as shader constants (uniform array)',
  ubo: 'joint matrices in a uniform buffer',
  texture: 'joint matrices in a float texture',
};

/** The weight policy in plain words. */
export function weightPolicyWords(policy: WeightPolicy): string {
  switch (policy) {
    case 'normalize': return 'divided by their sum';
    case 'as-stored': return 'as stored';
    case 'rest-remainder': return 'missing share stays at rest';
    case 'implicit-last': return 'last = 1 − the others';
  }
}
