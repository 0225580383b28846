import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { createJointChain } from './joint-chain.ts';

/**
 * The 32-joint curling chain of {@link createJointChain} with `influenceCount` (8, 12, …; a multiple of 4)
 * influences on every vertex instead of 3: ring r's slot k names joint clamp(r + k − c/2, 0, 31) with weight
 * ∝ 1 / (1 + |k − c/2|), normalised to 1 and then scaled by 0.7 … 1.3 per ring (so the weight policies
 * differ); slot r mod c has weight 0 on joint 0 (an empty slot among the used ones, in the overflow for c > 8
 * on some rings). Tests that every slot is skinned on both paths (attributes for 8, overflow texture beyond).
 */
export function createWideChain(influenceCount: number): ModelAsset {
  const chain = createJointChain(32);
  const jointCount = 32, c = influenceCount;
  const p = chain.meshes[0].primitives[0];
  const joints = new Uint16Array(c * p.vertexCount);
  const weights = new Float32Array(c * p.vertexCount);
  for (let v = 0; v < p.vertexCount; v++) {
    const r = Math.floor(v / 4);
    const kernel = Array.from({ length: c }, (_, k) => (k === r % c ? 0 : 1 / (1 + Math.abs(k - c / 2))));
    const total = kernel.reduce((a, b) => a + b, 0);
    const scale = 0.7 + 0.15 * (r % 5);
    for (let k = 0; k < c; k++) {
      joints[c * v + k] = kernel[k] === 0 ? 0 : Math.min(jointCount - 1, Math.max(0, r + k - c / 2));
      weights[c * v + k] = (kernel[k] / total) * scale;
    }
  }
  return {
    ...chain,
    name: `wide-chain-32 (generated, ${c} influences)`,
    meshes: [{ ...chain.meshes[0], primitives: [{ ...p, influenceCount: c, joints, weights }] }],
  };
}
