/**
 * Influences {@link limitInfluences} keeps per vertex. Not a limit of the renderer: Sinew's loaders keep every
 * influence (`PrimitiveAsset.influenceCount` slots; shaders/skinned.vert reads 4 or 8 from attributes and any
 * more from an overflow texture).
 */
export const MAX_INFLUENCES = 4;

/**
 * An optional reduction for callers who want fewer influences (Sinew's loaders do not call it): reduces
 * per-vertex influences of any count to the {@link MAX_INFLUENCES} largest weights, renormalised
 * so the kept weights have the same sum as all of them had (so the division by the weight sum of
 * docs/explanation/skinning-formulas.md S0 gives the renormalised blend). Ties keep the earlier influence. Vertices with ≤ 4 non-zero weights are
 * copied unchanged.
 *
 * @param joints `ArrayLike<number>` of `influenceCount·vertexCount` joint indices (vertex-major)
 * @param weights `ArrayLike<number>` of `influenceCount·vertexCount` weights
 * @returns 4 joints and 4 weights per vertex, and how many vertices lost a non-zero influence
 */
export function limitInfluences(
  joints: ArrayLike<number>,
  weights: ArrayLike<number>,
  influenceCount: number,
  vertexCount: number,
  maxJoint: number,
): { joints: Uint8Array | Uint16Array; weights: Float32Array; truncatedVertices: number } {
  const outJoints = maxJoint < 256 ? new Uint8Array(4 * vertexCount) : new Uint16Array(4 * vertexCount);
  const outWeights = new Float32Array(4 * vertexCount);
  const order = new Int32Array(influenceCount);
  let truncatedVertices = 0;
  for (let v = 0; v < vertexCount; v++) {
    const base = v * influenceCount;
    for (let i = 0; i < influenceCount; i++) order[i] = i;
    // Insertion sort by descending weight: stable, and influenceCount is small.
    for (let i = 1; i < influenceCount; i++) {
      const k = order[i];
      let j = i - 1;
      while (j >= 0 && weights[base + order[j]] < weights[base + k]) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = k;
    }
    let total = 0, kept = 0;
    for (let i = 0; i < influenceCount; i++) total += weights[base + i];
    const keep = Math.min(MAX_INFLUENCES, influenceCount);
    for (let i = 0; i < keep; i++) kept += weights[base + order[i]];
    if (keep < influenceCount && weights[base + order[keep]] > 0) truncatedVertices++;
    const scale = kept > 0 ? total / kept : 1;
    for (let i = 0; i < keep; i++) {
      const w = weights[base + order[i]];
      outWeights[4 * v + i] = w * scale;
      outJoints[4 * v + i] = w > 0 ? joints[base + order[i]] : 0;
    }
  }
  return { joints: outJoints, weights: outWeights, truncatedVertices };
}
