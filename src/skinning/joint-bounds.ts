import { influenceCountOf, type ModelAsset } from '../asset/model-asset.ts';

/**
 * Per-joint bounds of one skin, computed once at load: for skin joint i the axis-aligned box of the bind-pose
 * positions of every vertex that joint i influences (weight ≠ 0), over every primitive drawn with the skin.
 *
 * Why it bounds the skinned mesh: under linear blend skinning with normalised weights (docs/explanation/skinning-formulas.md
 * S0) a vertex lands at `Σ (wᵢ/Σw)·Kᵢ·p₀`, a convex combination of the points `Kᵢ·p₀`; each of those lies in
 * the box `Kᵢ·box_i` (an affine map of a box holds the images of its points), so the vertex lies in the union
 * of those boxes — {@link accumulateSkinBounds}. A vertex without weights stays at `p₀ − O`: {@link rest}.
 */
export interface JointBounds {
  /** `Float32Array(6·m)`: min x, y, z then max x, y, z of skin joint i at `6i`; min > max for a joint that influences no vertex. */
  readonly boxes: Float32Array;
  /** `Float64Array(6)`: the box of the bind-pose positions of vertices without any weight (min > max when none). */
  readonly rest: Float64Array;
}

/**
 * {@link JointBounds} of skin `skin` of `asset`, over the primitives of every mesh instance using that skin.
 * Allocates: meant for load time.
 */
export function computeJointBounds(asset: ModelAsset, skin: number): JointBounds {
  const m = asset.skins[skin].joints.length;
  const boxes = new Float32Array(6 * m);
  for (let i = 0; i < m; i++) boxes.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * i);
  const rest = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  const grow = (box: Float32Array | Float64Array, o: number, p: Float32Array, v: number) => {
    for (let a = 0; a < 3; a++) {
      const x = p[3 * v + a];
      if (x < box[o + a]) box[o + a] = x;
      if (x > box[o + 3 + a]) box[o + 3 + a] = x;
    }
  };
  const meshes = new Set(asset.meshInstances.filter((instance) => instance.skin === skin).map((instance) => instance.mesh));
  for (const mesh of meshes) {
    for (const primitive of asset.meshes[mesh]?.primitives ?? []) {
      if (!primitive.joints || !primitive.weights) continue;
      const c = influenceCountOf(primitive);
      for (let v = 0; v < primitive.vertexCount; v++) {
        let weighted = false;
        for (let k = 0; k < c; k++) {
          const w = primitive.weights[c * v + k];
          if (w === 0) continue;
          weighted = true;
          const joint = primitive.joints[c * v + k];
          if (joint < m) grow(boxes, 6 * joint, primitive.positions, v);
        }
        if (!weighted) grow(rest, 0, primitive.positions, v);
      }
    }
  }
  return { boxes, rest };
}

/** Resets `out` (`Float64Array(6)`, min then max) to the empty box. */
export function emptyBox(out: Float64Array): Float64Array {
  out[0] = out[1] = out[2] = Infinity;
  out[3] = out[4] = out[5] = -Infinity;
  return out;
}

/**
 * Grows `out` (`Float64Array(6)`, min then max) by the box of the skin's vertices under `skinMatrices`: the union
 * over joints of `Kᵢ·box_i` (each by centre and extent: `c' = K·c`, `e' = |K₃ₓ₃|·e`), and the rest box moved
 * by `−origin`. Relative to the skinning matrices' origin, like their output. Allocates nothing.
 * @param skinMatrices `Float32Array(16·m)`, column-major skinning matrices (`computeSkinMatrices`)
 * @param origin `Float64Array(3)` the skinning matrices are relative to, or undefined for (0, 0, 0)
 * @param pad how far morph targets may move a bind-pose vertex (≥ 0, model units; default 0): every box is
 *   grown by it on each side before it is transformed, so the union still holds the morphed vertices
 */
export function accumulateSkinBounds(out: Float64Array, bounds: JointBounds, skinMatrices: Float32Array, origin?: Float64Array, pad = 0): Float64Array {
  const b = bounds.boxes, m = b.length / 6;
  for (let i = 0; i < m; i++) {
    const o = 6 * i;
    if (!(b[o] <= b[o + 3])) continue;
    transformBoxInto(out, b, o, pad, skinMatrices, i << 4);
  }
  const r = bounds.rest;
  if (r[0] <= r[3]) {
    for (let a = 0; a < 3; a++) {
      const o = origin ? origin[a] : 0;
      if (r[a] - o - pad < out[a]) out[a] = r[a] - o - pad;
      if (r[3 + a] - o + pad > out[3 + a]) out[3 + a] = r[3 + a] - o + pad;
    }
  }
  return out;
}

/**
 * Grows `out` (min then max) by the axis-aligned box of the affine image of the box `box[b…b+6)` (min x, y, z
 * then max), grown first by `pad` on each side, under the column-major matrix at `m[o…o+16)` (centre and extent:
 * Arvo, "Transforming axis-aligned bounding boxes", Graphics Gems 1990) — at `out[at…at+6)`. The box comes
 * through an array and an index, not six numbers: doubles passed to a call V8 does not inline are boxed on the
 * heap, once per call. Allocates nothing.
 */
export function transformBoxInto(out: Float64Array, box: ArrayLike<number>, b: number, pad: number, m: ArrayLike<number>, o = 0, at = 0): void {
  const x0 = box[b] - pad, y0 = box[b + 1] - pad, z0 = box[b + 2] - pad, x1 = box[b + 3] + pad, y1 = box[b + 4] + pad, z1 = box[b + 5] + pad;
  const cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1), cz = 0.5 * (z0 + z1);
  const ex = 0.5 * (x1 - x0), ey = 0.5 * (y1 - y0), ez = 0.5 * (z1 - z0);
  for (let a = 0; a < 3; a++) {
    const c = m[o + a] * cx + m[o + 4 + a] * cy + m[o + 8 + a] * cz + m[o + 12 + a];
    const e = Math.abs(m[o + a]) * ex + Math.abs(m[o + 4 + a]) * ey + Math.abs(m[o + 8 + a]) * ez;
    if (c - e < out[at + a]) out[at + a] = c - e;
    if (c + e > out[at + 3 + a]) out[at + 3 + a] = c + e;
  }
}
