import type { ExpressionAsset } from '../asset/avatar-asset.ts';
import type { ExpressionState } from './expression-state.ts';
import { COLOR_FLOATS_PER_MATERIAL, colorTargetIndex, TEXTURE_TRANSFORM_FLOATS, type MaterialValues } from './material-values.ts';

/**
 * Writes the resolved expression weights (`state.outputWeights`, after `state.resolve()`) into a pose's morph
 * weights and the material values (VRMC_vrm-1.0 `expressions.md` "Expression update algorithm"):
 * - morph target binds: `morphWeights[bind.morphWeight] += w · bind.weight`, added to what the pose holds (the
 *   rest weights, or a clip's), as three-vrm adds its binds. The specification and three-vrm start a bound
 *   target from 0 instead; the two agree whenever the rest weight is 0 and no clip animates the target, which
 *   is how VRM files are made. Not clamped (three-vrm does not clamp either).
 * - material colour binds: `colors += (targetValue − base) · w` per bind ({@link MaterialValues});
 * - texture transform binds: the material's sums W, Σ w·scale, Σ w·offset.
 * `values` is reset first, so it holds this frame's expressions only. Expressions at weight 0 write nothing.
 * Indices are trusted: check them once with {@link checkExpressionBinds}. Allocates nothing.
 * @param morphWeights `LocalPose.morphWeights` of the avatar's pose, instance i's at its `morphWeightOffset`
 * @param values the avatar's material values, or null to skip the material binds
 */
export function applyExpressions(state: ExpressionState, morphWeights: Float32Array | undefined, values: MaterialValues | null): void {
  const expressions = state.expressions, weights = state.outputWeights;
  if (values) values.reset();
  for (let i = 0; i < expressions.length; i++) {
    const w = weights[i];
    if (w === 0) continue;
    const e = expressions[i];
    if (morphWeights) {
      const binds = e.morphTargetBinds;
      for (let b = 0; b < binds.length; b++) morphWeights[binds[b].morphWeight] += w * binds[b].weight;
    }
    if (!values) continue;
    const colors = values.colors, base = values.baseColors;
    const colorBinds = e.materialColorBinds;
    for (let b = 0; b < colorBinds.length; b++) {
      const bind = colorBinds[b], target = bind.targetValue;
      const o = COLOR_FLOATS_PER_MATERIAL * bind.material + 4 * colorTargetIndex(bind.type);
      colors[o] += (target[0] - base[o]) * w;
      colors[o + 1] += (target[1] - base[o + 1]) * w;
      colors[o + 2] += (target[2] - base[o + 2]) * w;
      colors[o + 3] += (target[3] - base[o + 3]) * w;
      values.driven[bind.material] = 1;
    }
    const transforms = values.textureTransforms, uvBinds = e.textureTransformBinds;
    for (let b = 0; b < uvBinds.length; b++) {
      const bind = uvBinds[b], o = TEXTURE_TRANSFORM_FLOATS * bind.material;
      transforms[o] += w;
      transforms[o + 1] += w * bind.scale[0];
      transforms[o + 2] += w * bind.scale[1];
      transforms[o + 3] += w * bind.offset[0];
      transforms[o + 4] += w * bind.offset[1];
      values.driven[bind.material] = 1;
    }
  }
}

/**
 * Checks every bind of `expressions` against the model it drives: morph weight indices in
 * [0, morphWeightCount), material indices in [0, materialCount), colour targets known, numbers finite.
 * @throws RangeError naming the expression, the bind (`morphTargetBinds/2`) and the problem
 */
export function checkExpressionBinds(expressions: readonly ExpressionAsset[], morphWeightCount: number, materialCount: number): void {
  for (const e of expressions) {
    const fail = (where: string, problem: string): never => {
      throw new RangeError(`expression "${e.name}" ${where}: ${problem}`);
    };
    e.morphTargetBinds.forEach((bind, b) => {
      if (!(Number.isInteger(bind.morphWeight) && bind.morphWeight >= 0 && bind.morphWeight < morphWeightCount)) {
        fail(`morphTargetBinds/${b}`, `morph weight ${bind.morphWeight} is not one of the model's ${morphWeightCount}`);
      }
      if (!Number.isFinite(bind.weight)) fail(`morphTargetBinds/${b}`, `weight ${bind.weight} is not finite`);
    });
    e.materialColorBinds.forEach((bind, b) => {
      if (!(Number.isInteger(bind.material) && bind.material >= 0 && bind.material < materialCount)) {
        fail(`materialColorBinds/${b}`, `material ${bind.material} is not one of the model's ${materialCount}`);
      }
      if (colorTargetIndex(bind.type) < 0) fail(`materialColorBinds/${b}`, `unknown colour type ${JSON.stringify(bind.type)}`);
      if (bind.targetValue.length !== 4 || !bind.targetValue.every(Number.isFinite)) fail(`materialColorBinds/${b}`, 'targetValue is not 4 finite numbers');
    });
    e.textureTransformBinds.forEach((bind, b) => {
      if (!(Number.isInteger(bind.material) && bind.material >= 0 && bind.material < materialCount)) {
        fail(`textureTransformBinds/${b}`, `material ${bind.material} is not one of the model's ${materialCount}`);
      }
      if (![...bind.scale, ...bind.offset].every(Number.isFinite)) fail(`textureTransformBinds/${b}`, 'scale or offset is not finite');
    });
  }
}
