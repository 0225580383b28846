import type { ExpressionAsset, ExpressionOverride } from '../asset/avatar-asset.ts';

/**
 * Which procedural group a preset expression belongs to (VRMC_vrm-1.0 `expressions.md` "Procedural override"):
 * 0 none, 1 blink, 2 look-at, 3 mouth (lip sync).
 */
export const ExpressionGroup = { None: 0, Blink: 1, LookAt: 2, Mouth: 3 } as const;
/** One of the {@link ExpressionGroup} values. */
export type ExpressionGroup = (typeof ExpressionGroup)[keyof typeof ExpressionGroup];

/** The presets each override acts on (VRMC_vrm-1.0 `expressions.md`, the table of "Procedural override"). */
const GROUP_OF: Readonly<Record<string, ExpressionGroup>> = {
  blink: ExpressionGroup.Blink, blinkLeft: ExpressionGroup.Blink, blinkRight: ExpressionGroup.Blink,
  lookUp: ExpressionGroup.LookAt, lookDown: ExpressionGroup.LookAt, lookLeft: ExpressionGroup.LookAt, lookRight: ExpressionGroup.LookAt,
  aa: ExpressionGroup.Mouth, ih: ExpressionGroup.Mouth, ou: ExpressionGroup.Mouth, ee: ExpressionGroup.Mouth, oh: ExpressionGroup.Mouth,
};

/** The procedural group of an expression name (the preset names of {@link GROUP_OF}; custom names: none). */
export function expressionGroupOf(name: string): ExpressionGroup {
  return Object.prototype.hasOwnProperty.call(GROUP_OF, name) ? GROUP_OF[name] : ExpressionGroup.None;
}

/**
 * The weights of an avatar's expressions: what the caller (or a clip's expression tracks, look-at, auto-blink)
 * sets, and what they resolve to once `isBinary` and the overrides are applied ({@link resolve}). Caller-owned,
 * one per avatar instance; made once, allocates nothing after.
 *
 * Resolution follows VRMC_vrm-1.0 `expressions.md`, as three-vrm's expression manager computes it:
 * - an expression's output is its weight, or for `isBinary` 1 above 0.5 and 0 otherwise;
 * - each active expression with `overrideBlink` / `overrideLookAt` / `overrideMouth` takes an amount from its
 *   group's multiplier: `block` 1 when its output is above 0, `blend` its output; the multiplier is
 *   `max(0, 1 − Σ amounts)`;
 * - a blink, look-at or mouth preset is multiplied by its group's multiplier; a binary one that ends below 1
 *   is 0 (the specification's "completely suppressed").
 *
 * Where the two differ Sinew follows the specification: an expression's override of its own group is ignored
 * ("settings for the same kind are treated as invalid"), where three-vrm lets `blink` with `overrideBlink`
 * suppress itself.
 */
export class ExpressionState {
  /** The avatar's expressions (`AvatarAsset.expressions`), in file order: index i is expression i everywhere here. */
  readonly expressions: readonly ExpressionAsset[];
  /** `Float32Array(n)`: the input weight of each expression, in [0, 1]. */
  readonly weights: Float32Array;
  /** `Float32Array(n)`: each expression's weight after `isBinary` and the overrides, as of the last {@link resolve}. */
  readonly outputWeights: Float32Array;
  /** `Uint8Array(n)`: each expression's {@link ExpressionGroup}. */
  readonly groups: Uint8Array;
  /**
   * `Float64Array(4)`: the multiplier of each {@link ExpressionGroup} (index 0, none, is always 1) as of the last
   * {@link resolve}; the look-at multiplier also scales bone look-at (`LookAtController`).
   */
  readonly multipliers = new Float64Array([1, 1, 1, 1]);
  private readonly indexByName = new Map<string, number>();

  /** @throws Error when two expressions share a name (the loader makes names unique) */
  constructor(expressions: readonly ExpressionAsset[]) {
    this.expressions = expressions;
    const n = expressions.length;
    this.weights = new Float32Array(n);
    this.outputWeights = new Float32Array(n);
    this.groups = new Uint8Array(n);
    expressions.forEach((expression, i) => {
      if (this.indexByName.has(expression.name)) throw new Error(`expression "${expression.name}" appears twice`);
      this.indexByName.set(expression.name, i);
      this.groups[i] = expressionGroupOf(expression.name);
    });
  }

  /** The expressions' names, in order. */
  get names(): string[] {
    return this.expressions.map((e) => e.name);
  }

  /** Index of the expression named `name` (preset or custom), or −1. */
  indexOf(name: string): number {
    return this.indexByName.get(name) ?? -1;
  }

  /**
   * Sets expression `name`'s input weight, clamped to [0, 1] as the specification asks ("Expression control").
   * @throws RangeError naming the expression when the avatar has none so named, or the weight is not finite
   */
  setExpression(name: string, weight: number): void {
    this.setWeight(this.checkedIndex(name), weight);
  }

  /**
   * Expression `name`'s input weight, in [0, 1].
   * @throws RangeError naming the expression when the avatar has none so named
   */
  getExpression(name: string): number {
    return this.weights[this.checkedIndex(name)];
  }

  /**
   * Sets expression `index`'s input weight, clamped to [0, 1]. Allocates nothing (per-frame writers use this).
   * @throws RangeError for an index out of range or a weight that is not finite
   */
  setWeight(index: number, weight: number): void {
    if (!(index >= 0 && index < this.weights.length)) throw new RangeError(`expression ${index} does not exist (${this.weights.length} expressions)`);
    if (!Number.isFinite(weight)) throw new RangeError(`expression "${this.expressions[index].name}": weight ${weight} is not a finite number`);
    this.weights[index] = weight < 0 ? 0 : weight > 1 ? 1 : weight;
  }

  /** Sets every input weight to 0. */
  reset(): void {
    this.weights.fill(0);
  }

  /** Fills {@link outputWeights} and {@link multipliers} from {@link weights} (the rules of the class comment). Allocates nothing. */
  resolve(): void {
    const expressions = this.expressions, weights = this.weights, out = this.outputWeights, groups = this.groups;
    const n = expressions.length, m = this.multipliers;
    let blink = 0, lookAt = 0, mouth = 0;
    for (let i = 0; i < n; i++) {
      const e = expressions[i];
      const w = e.isBinary ? (weights[i] > 0.5 ? 1 : 0) : weights[i];
      out[i] = w;
      const g = groups[i];
      if (g !== ExpressionGroup.Blink) blink += overrideAmount(e.overrideBlink, w);
      if (g !== ExpressionGroup.LookAt) lookAt += overrideAmount(e.overrideLookAt, w);
      if (g !== ExpressionGroup.Mouth) mouth += overrideAmount(e.overrideMouth, w);
    }
    m[0] = 1;
    m[ExpressionGroup.Blink] = blink >= 1 ? 0 : 1 - blink;
    m[ExpressionGroup.LookAt] = lookAt >= 1 ? 0 : 1 - lookAt;
    m[ExpressionGroup.Mouth] = mouth >= 1 ? 0 : 1 - mouth;
    for (let i = 0; i < n; i++) {
      const g = groups[i];
      if (g === ExpressionGroup.None) continue;
      const w = out[i] * m[g];
      out[i] = expressions[i].isBinary && w < 1 ? 0 : w;
    }
  }

  private checkedIndex(name: string): number {
    const index = this.indexOf(name);
    if (index < 0) {
      const known = this.expressions.map((e) => e.name);
      throw new RangeError(`no expression ${JSON.stringify(name)} (${known.length} expressions${known.length ? `: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}` : ''})`);
    }
    return index;
  }
}

/** How much an expression of output weight `w` takes from a group's multiplier (three-vrm's override amount). */
function overrideAmount(override: ExpressionOverride, w: number): number {
  return override === 'block' ? (w > 0 ? 1 : 0) : override === 'blend' ? w : 0;
}
