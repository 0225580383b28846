import { influenceCountOf, type ModelAsset } from '../asset/model-asset.ts';

/** The part of a `SurfaceHit` (pick-model.ts) the weights are read from. */
export interface HitLocation {
  /** Index into `asset.meshInstances`. */
  readonly meshInstance: number;
  /** The primitive's index in its mesh (the file's: `primitive.sourceIndex`). */
  readonly primitive: number;
  /** `Float64Array(3)`: barycentric weights over {@link vertexIndices}. */
  readonly barycentric: Float64Array;
  /** `Uint32Array(3)`: the hit triangle's vertex indices in the primitive. */
  readonly vertexIndices: Uint32Array;
}

/**
 * The influences at a surface hit: each skeleton joint weighting the hit triangle's vertices, with its weight
 * blended across the triangle by the hit's barycentric weights (`Σₖ bₖ·w_{k,j}`, the weight the GPU would
 * interpolate at that point), divided by the blended sum so the weights add up to 1 (docs/explanation/skinning-formulas.md
 * S0, the `normalize` reading). Written into caller-owned arrays, heaviest first; allocates nothing.
 *
 * A rigid mesh (or a skinned one whose vertices here carry no weight) gives its node with weight 1.
 * @param joints `Int32Array` of at least 3·influenceCount (12 for 4 influences): skeleton joint indices
 * @param weights `Float64Array` of the same length: their weights, in [0, 1] for non-negative stored weights
 * @returns how many entries were written (≥ 1)
 * @throws RangeError when the arrays are too short for the hit primitive's influences
 */
export function blendHitWeights(asset: ModelAsset, hit: HitLocation, joints: Int32Array, weights: Float64Array): number {
  const instance = asset.meshInstances[hit.meshInstance];
  const primitives = asset.meshes[instance.mesh].primitives;
  let primitive = primitives[0];
  for (let p = 0; p < primitives.length; p++) if ((primitives[p].sourceIndex ?? p) === hit.primitive) { primitive = primitives[p]; break; }
  if (instance.skin < 0 || !primitive.joints || !primitive.weights) {
    joints[0] = instance.node; weights[0] = 1;
    return 1;
  }
  const c = influenceCountOf(primitive), skinJoints = asset.skins[instance.skin].joints;
  if (joints.length < 3 * c || weights.length < 3 * c) throw new RangeError(`blendHitWeights: ${3 * c} entries needed for ${c} influences per vertex`);
  let n = 0, total = 0;
  for (let k = 0; k < 3; k++) {
    const b = hit.barycentric[k], v = hit.vertexIndices[k];
    for (let s = 0; s < c; s++) {
      const w = primitive.weights[c * v + s];
      if (w === 0) continue;
      const joint = skinJoints[primitive.joints[c * v + s]];
      let i = 0;
      while (i < n && joints[i] !== joint) i++;
      if (i === n) { joints[n] = joint; weights[n] = 0; n++; }
      weights[i] += b * w;
      total += b * w;
    }
  }
  if (n === 0 || !(total !== 0)) {
    joints[0] = instance.node; weights[0] = 1;
    return 1;
  }
  for (let i = 0; i < n; i++) weights[i] /= total;
  // Heaviest first (a stable insertion sort, a dozen entries at most): ties keep the order first met, vertex by
  // vertex and slot by slot.
  for (let i = 1; i < n; i++) {
    const j = joints[i], w = weights[i];
    let k = i - 1;
    while (k >= 0 && weights[k] < w) { joints[k + 1] = joints[k]; weights[k + 1] = weights[k]; k--; }
    joints[k + 1] = j; weights[k + 1] = w;
  }
  return n;
}
