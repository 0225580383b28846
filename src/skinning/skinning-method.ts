/**
 * How influence weights are read (docs/explanation/skinning-formulas.md S0, S2). Every path — `skinVertices`, the shader
 * variants, `sinew eval` — applies the same rule; with weights that sum to 1 all four give the same vertices.
 *
 * - `'normalize'` (default, S0): `p = (Σ wᵢKᵢ)·p₀ / Σ wᵢ`; weights need not sum to 1.
 * - `'as-stored'`: `p = (Σ wᵢKᵢ)·p₀`, no division (the glTF 2.0 §3.7.3.3 formula taken literally, which
 *   assumes weights summing to 1): a vertex whose weights sum to s < 1 is pulled toward the origin. Under
 *   DQS only the scale/shear phase goes undivided: the dual quaternion blend is always normalised.
 * - `'rest-remainder'` (S2 difference form): `p = p₀ + Σ wᵢ·(Kᵢp₀ − p₀)`, i.e. the blend
 *   `Σ wᵢKᵢ + (1 − Σ wᵢ)·I`: weight missing from 1 leaves that share of the vertex at rest.
 * - `'implicit-last'` (S2 blend form): the last influence slot's stored weight is ignored and taken as
 *   `1 − Σ` of the others, then `p = (Σ wᵢKᵢ)·p₀`.
 *
 * A vertex whose weights are all 0 keeps `p₀` and `n₀` under `normalize`, `as-stored` (no influence at all:
 * not skinned, as S0 says) and `rest-remainder` (by its formula); under `implicit-last` its last slot gets
 * weight 1.
 */
export type WeightPolicy = 'normalize' | 'as-stored' | 'rest-remainder' | 'implicit-last';

/** Every weight policy, the default first. */
export const WEIGHT_POLICIES: readonly WeightPolicy[] = ['normalize', 'as-stored', 'rest-remainder', 'implicit-last'];

/**
 * How blended influences move a vertex: `'lbs'`, linear blend skinning (docs/explanation/skinning-formulas.md S0), or
 * `'dqs'`, dual quaternion skinning (Kavan, Collins, Žára, O'Sullivan 2008, "Geometric Skinning with
 * Approximate Dual Quaternion Blending"), with joint scale and shear blended linearly first (the paper's
 * two-phase extension; `dual-quaternion-palette.ts`).
 */
export type SkinningMode = 'lbs' | 'dqs';

/** Every skinning mode, the default first. */
export const SKINNING_MODES: readonly SkinningMode[] = ['lbs', 'dqs'];

/** A model's skinning settings, chosen per model at run time. Immutable. */
export interface SkinningMethod {
  readonly skinning: SkinningMode;
  readonly weights: WeightPolicy;
}

/** LBS with normalised weights (docs/explanation/skinning-formulas.md S0). */
export const DEFAULT_SKINNING_METHOD: SkinningMethod = Object.freeze({ skinning: 'lbs', weights: 'normalize' });

/** Reads a weight policy name; null for anything else. */
export function parseWeightPolicy(raw: string): WeightPolicy | null {
  return (WEIGHT_POLICIES as readonly string[]).includes(raw) ? (raw as WeightPolicy) : null;
}

/** Reads a skinning mode name (`lbs`, `dqs`); null for anything else. */
export function parseSkinningMode(raw: string): SkinningMode | null {
  return (SKINNING_MODES as readonly string[]).includes(raw) ? (raw as SkinningMode) : null;
}
