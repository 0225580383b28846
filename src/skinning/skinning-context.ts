import type { SkinAsset } from '../asset/model-asset.ts';

/**
 * The caller-owned doubles the CPU skinning loops read, made once per skin (allocate at load, not per frame):
 *
 * - `inverseBinds`: the skin's inverse bind matrices as `computeSkinMatrices` reads them, copied when the
 *   context is made (later changes to the skin's `inverseBindMatrices` are not seen);
 * - `skinMatrices`: scratch where `skinVertices` copies the skinning matrices it is given, once per call;
 * - `dualPalette`: scratch for them in dual quaternion form (the DQS palette,
 *   `computeDualQuaternionPalette`), for dual quaternion skinning;
 * - `origin`: the model origin O the skinning matrices are relative to (`T(−O)·M·B⁻¹`, `AnimatedModel.origin`), so that
 *   `skinVertices` places the share of a vertex that stays at rest (no weight, or weights not summing to 1
 *   under `as-stored` / `rest-remainder`) where the file does: at `p₀ − O`.
 *
 * Both hold each matrix's upper 3×4 rows, 12 doubles per joint (columns 0, 1, 2, then translation): the
 * bottom rows of affine matrices are 0 0 0 1 and are never read, and V8 reads doubles without the conversion
 * each float32 element costs. A context for a joint count alone (a number) serves `skinVertices` only.
 */
export class SkinningContext {
  /** The skin `computeSkinMatrices` may be given with this context, or null for a `skinVertices`-only one. */
  readonly skin: SkinAsset | null;
  /** Joints of the most skinning matrices `skinVertices` accepts with this context (the skin's joint count). */
  readonly jointCount: number;
  /** `Float64Array(12·jointCount)`: upper 3×4 rows of the skin's inverse bind matrices (empty without a skin). */
  readonly inverseBinds: Float64Array;
  /** `Float64Array(12·jointCount)`: upper 3×4 rows of the skinning matrices `skinVertices` is skinning with (scratch). */
  readonly skinMatrices: Float64Array;
  /** `Float64Array(16·jointCount)`: scratch for those matrices in dual quaternion form, the DQS palette (layout in dual-quaternion-palette.ts). */
  readonly dualPalette: Float64Array;
  /** `Float64Array(3)`: the model origin O (model space, the file's units) the skinning matrices are relative to; (0, 0, 0) by default. */
  readonly origin: Float64Array;

  /**
   * @param skin the skin to compute skinning matrices for, or the joint count of the skinning matrices to skin with
   * @param origin the model origin O of the skinning matrices (`AnimatedModel.origin`), copied; default (0, 0, 0)
   */
  constructor(skin: SkinAsset | number, origin?: ArrayLike<number>) {
    this.skin = typeof skin === 'number' ? null : skin;
    this.jointCount = typeof skin === 'number' ? skin : skin.joints.length;
    this.skinMatrices = new Float64Array(12 * this.jointCount);
    this.dualPalette = new Float64Array(16 * this.jointCount);
    this.inverseBinds = new Float64Array(this.skin ? 12 * this.jointCount : 0);
    this.origin = new Float64Array(3);
    if (origin) this.origin.set([origin[0], origin[1], origin[2]]);
    if (this.skin) copyUpper3x4(this.inverseBinds, this.skin.inverseBindMatrices, this.jointCount);
    Object.freeze(this);
  }
}

/**
 * Copies the upper 3×4 rows of `m` column-major 4×4 matrices (`Float32Array(16m)`) into `out`
 * (`Float64Array(≥ 12m)`), 12 per matrix: columns 0, 1, 2, translation. Allocates nothing.
 */
export function copyUpper3x4(out: Float64Array, matrices: Float32Array, m: number): void {
  for (let j = 0; j < m; j++) {
    const s = j << 4, d = (12 * j) | 0;
    out[d] = matrices[s]; out[d + 1] = matrices[s + 1]; out[d + 2] = matrices[s + 2];
    out[d + 3] = matrices[s + 4]; out[d + 4] = matrices[s + 5]; out[d + 5] = matrices[s + 6];
    out[d + 6] = matrices[s + 8]; out[d + 7] = matrices[s + 9]; out[d + 8] = matrices[s + 10];
    out[d + 9] = matrices[s + 12]; out[d + 10] = matrices[s + 13]; out[d + 11] = matrices[s + 14];
  }
}
