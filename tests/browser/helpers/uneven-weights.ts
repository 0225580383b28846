import { influenceCountOf, type ModelAsset } from '../../../src/asset/model-asset.ts';

/**
 * A copy of `asset` whose skinned primitives' weights are scaled per vertex by 0.6 … 1.3 (cycling), so weight
 * sums differ from 1 and the weight policies of docs/explanation/skinning-formulas.md S0 / S2 give different vertices.
 * Vertices with no weight keep none. Other arrays are shared with `asset`.
 */
export function withUnevenWeights(asset: ModelAsset): ModelAsset {
  const factors = [0.6, 0.8, 1, 1.15, 1.3];
  return {
    ...asset,
    name: `${asset.name}, uneven weights`,
    meshes: asset.meshes.map((mesh) => ({
      ...mesh,
      primitives: mesh.primitives.map((p) => {
        if (!p.weights) return p;
        const weights = p.weights.slice();
        const c = influenceCountOf(p);
        for (let v = 0; v < p.vertexCount; v++) for (let k = 0; k < c; k++) weights[c * v + k] *= factors[v % factors.length];
        return { ...p, weights };
      }),
    })),
  };
}
