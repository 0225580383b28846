import type { ModelAsset, PrimitiveAsset } from '../asset/model-asset.ts';

/**
 * A primitive's attributes with its morph targets applied, in caller-owned arrays made once (allocate at load,
 * not per frame): the CPU reference for morph targets, run before skinning on every CPU path (`sinew eval`,
 * bounds, the parity tests), as `shaders/skinned.vert`'s `MORPH_TARGETS` block does on the GPU.
 *
 * {@link apply} writes docs/explanation/skinning-formulas.md M0 — for each vertex and weight wₜ ≠ 0 of the instance,
 * in target order:
 *
 *   `p = p₀ + Σₜ wₜ·Δpₜ`, `n = n₀ + Σₜ wₜ·Δnₜ`, `t.xyz = t₀.xyz + Σₜ wₜ·Δtₜ` (t.w kept)
 *
 * (glTF 2.0 §3.7.2.2 "Morph Targets"), each a float32 sum in that order. Normals and tangents are not
 * renormalised here: skinning (or the renderer) normalises its result, and the direction does not depend on
 * the length. {@link primitive} is the source primitive with these arrays in place of its positions, normals
 * and tangents, so `skinVertices` skins the morphed vertex.
 */
export class MorphedPrimitive {
  readonly source: PrimitiveAsset;
  /** `source` with {@link positions}, {@link normals}, {@link tangents} as its attributes; skin this one. */
  readonly primitive: PrimitiveAsset;
  /** `Float32Array(3·vertexCount)`: morphed positions. */
  readonly positions: Float32Array;
  /** `Float32Array(3·vertexCount)`: morphed (unnormalised) normals. */
  readonly normals: Float32Array;
  /** `Float32Array(4·vertexCount)`: morphed tangents (w kept), or null when the source has none. */
  readonly tangents: Float32Array | null;

  constructor(source: PrimitiveAsset) {
    this.source = source;
    this.positions = source.positions.slice();
    this.normals = source.normals.slice();
    this.tangents = source.tangents ? source.tangents.slice() : null;
    this.primitive = { ...source, positions: this.positions, normals: this.normals, tangents: this.tangents };
  }

  /**
   * Writes the morphed attributes for the weights `weights[offset … offset + n)` (n = the primitive's target
   * count; `PoseBuffers.morphWeights` at the instance's `morphWeightOffset`). Without morph targets it copies
   * the source. Allocates nothing.
   * @returns {@link primitive}
   * @throws RangeError when `weights` holds fewer than `offset + n` entries
   */
  apply(weights: Float32Array, offset: number): PrimitiveAsset {
    const { source } = this;
    this.positions.set(source.positions);
    this.normals.set(source.normals);
    if (this.tangents) this.tangents.set(source.tangents!);
    const targets = source.morphTargets;
    if (!targets) return this.primitive;
    const n = targets.count, vertexCount = source.vertexCount;
    if (!(offset >= 0 && offset + n <= weights.length)) {
      throw new RangeError(`MorphedPrimitive: weights ${offset}…${offset + n - 1} of ${weights.length} do not exist`);
    }
    for (let t = 0; t < n; t++) {
      const w = weights[offset + t];
      if (w === 0) continue;
      const base = 3 * t * vertexCount;
      addScaled(this.positions, 3, targets.positions, base, w, vertexCount);
      addScaled(this.normals, 3, targets.normals, base, w, vertexCount);
      if (this.tangents) addScaled(this.tangents, 4, targets.tangents, base, w, vertexCount);
    }
    return this.primitive;
  }
}

/** `out[stride·v + k] += w · deltas[base + 3v + k]` for k < 3, every vertex; nothing when `deltas` is null. */
function addScaled(out: Float32Array, stride: number, deltas: Float32Array | null, base: number, w: number, vertexCount: number): void {
  if (!deltas) return;
  for (let v = 0; v < vertexCount; v++) {
    const o = stride * v, d = base + 3 * v;
    out[o] += w * deltas[d];
    out[o + 1] += w * deltas[d + 1];
    out[o + 2] += w * deltas[d + 2];
  }
}

/** Morph weights of a model (`LocalPose.morphWeights` length): the end of the last instance's range, 0 without. */
export function morphWeightCount(asset: ModelAsset): number {
  let count = 0;
  for (const instance of asset.meshInstances) {
    const offset = instance.morphWeightOffset ?? -1;
    if (offset >= 0) count = Math.max(count, offset + (asset.meshes[instance.mesh].morphTargetCount ?? 0));
  }
  return count;
}

/**
 * `Int32Array(morphWeightCount(asset))`: the skeleton joint carrying each morph weight (its instance's node),
 * for an `Animator`'s per-joint masks (`AnimatorOptions.morphWeightJoints`).
 */
export function morphWeightJoints(asset: ModelAsset): Int32Array {
  const out = new Int32Array(morphWeightCount(asset));
  for (const instance of asset.meshInstances) {
    const offset = instance.morphWeightOffset ?? -1;
    const n = asset.meshes[instance.mesh].morphTargetCount ?? 0;
    for (let t = 0; offset >= 0 && t < n; t++) out[offset + t] = instance.node;
  }
  return out;
}
