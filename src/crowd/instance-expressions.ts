import type { AvatarController } from '../avatar/avatar-controller.ts';

/**
 * A crowd's per-instance expression weights, for a crowd of one avatar (`ModelAsset.avatar`): instance k's input
 * weights (VRMC_vrm-1.0 `expressions.md`: before `isBinary` and the overrides resolve them) in row k. The crowd's
 * one evaluator has one `AvatarController`; {@link load} puts an instance's row into it before that instance is
 * evaluated, so its expressions resolve and write morph weights as a single model's do, and the instance's
 * block carries them. Caller-owned; allocates nothing after construction.
 */
export class InstanceExpressions {
  /** The expression names, file order (`ExpressionState.names`): column e of a row. */
  readonly names: readonly string[];
  /** `Float32Array(capacity·names.length)`: instance k's input weight of expression e at `k·names.length + e`, in [0, 1]. */
  readonly weights: Float32Array;

  /** @param avatar the crowd evaluator's avatar; @param capacity the crowd's instances */
  constructor(private readonly avatar: AvatarController, capacity: number) {
    this.names = avatar.expressions.names;
    this.weights = new Float32Array(capacity * this.names.length);
  }

  /**
   * Sets instance k's weight of expression `name` (clamped to [0, 1], as `AvatarController.setExpression`).
   * @throws RangeError naming the expression when there is none so named, or the weight is not finite
   */
  set(k: number, name: string, weight: number): void {
    const e = this.indexOf(name);
    if (!Number.isFinite(weight)) throw new RangeError(`expression ${JSON.stringify(name)}: weight ${weight} is not a finite number`);
    this.weights[k * this.names.length + e] = Math.min(1, Math.max(0, weight));
  }

  /** Instance k's weight of expression `name`. @throws RangeError when there is none so named */
  get(k: number, name: string): number {
    return this.weights[k * this.names.length + this.indexOf(name)];
  }

  /** Instance k's row to zeros (a new instance: every expression at 0). */
  clear(k: number): void {
    const n = this.names.length;
    this.weights.fill(0, k * n, k * n + n);
  }

  /** Whether instances j and k have the same weights (so one evaluation serves both). */
  same(j: number, k: number): boolean {
    const n = this.names.length, w = this.weights;
    for (let e = 0; e < n; e++) if (w[j * n + e] !== w[k * n + e]) return false;
    return true;
  }

  /** Puts instance k's row into the evaluator's avatar as its input weights. Allocates nothing. */
  load(k: number): void {
    const n = this.names.length;
    this.avatar.expressions.weights.set(this.weights.subarray(k * n, k * n + n));
  }

  /** Sets every input weight of the evaluator's avatar to 0 (what baking sees: the clips' own expression tracks alone). */
  unload(): void {
    this.avatar.expressions.weights.fill(0);
  }

  private indexOf(name: string): number {
    const e = this.names.indexOf(name);
    if (e < 0) {
      const known = this.names;
      throw new RangeError(`no expression ${JSON.stringify(name)} (${known.length} expressions${known.length ? `: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}` : ''})`);
    }
    return e;
  }
}
