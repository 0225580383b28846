import { InvalidArgumentError } from 'commander';
import type { AnimatedModel } from '../scene/animated-model.ts';
import type { ClipSample } from '../scene/clip-sample.ts';
import type { PoseSource } from '../scene/pose-source.ts';

/** One `--expression NAME=W` of `sinew eval`. */
export interface ExpressionInput {
  /** The expression's name (a VRM 1.0 preset or a custom name, `ViewAvatar.availableExpressions`). */
  readonly name: string;
  /** Its input weight, in [0, 1]. */
  readonly weight: number;
}

/** The avatar inputs `sinew eval` applies on top of the clip (`--expression`, `--look-at`). */
export interface AvatarInputs {
  /** Expression weights, applied in order (a name given twice: the last wins). */
  readonly expressions?: readonly ExpressionInput[];
  /** The point the eyes look at: model space (the file's scene root frame), metres; absent: as the clip poses them. */
  readonly lookAt?: readonly [number, number, number];
}

/**
 * Commander's collector for the repeatable `--expression NAME=W`: one name (no `=`), a weight, a finite number
 * in [0, 1].
 * @throws InvalidArgumentError (a usage error) for any other text
 */
export function parseExpressionInput(value: string, previous: ExpressionInput[] = []): ExpressionInput[] {
  const match = /^([^=]+)=(.*)$/.exec(value.trim());
  if (!match || match[1].trim() === '') throw new InvalidArgumentError('It must be NAME=WEIGHT, e.g. blink=1.');
  const weight = Number(match[2]);
  if (match[2].trim() === '' || !Number.isFinite(weight) || weight < 0 || weight > 1) {
    throw new InvalidArgumentError(`The weight of ${JSON.stringify(match[1].trim())} must be a number from 0 to 1.`);
  }
  return [...previous, { name: match[1].trim(), weight }];
}

/**
 * `--look-at X,Y,Z`: three finite numbers separated by commas (model space, metres).
 * @throws InvalidArgumentError (a usage error) for any other text
 */
export function parseLookAtPoint(value: string): [number, number, number] {
  const parts = value.split(',');
  const numbers = parts.map((part) => (part.trim() === '' ? NaN : Number(part)));
  if (numbers.length !== 3 || !numbers.every(Number.isFinite)) throw new InvalidArgumentError('It must be three numbers X,Y,Z (model space, metres), e.g. 0,1.5,2.');
  return [numbers[0], numbers[1], numbers[2]];
}

/** Whether `inputs` asks for anything of an avatar. */
export function hasAvatarInputs(inputs: AvatarInputs): boolean {
  return (inputs.expressions?.length ?? 0) > 0 || inputs.lookAt !== undefined;
}

/**
 * Readies `animated` to be evaluated at clip sample `sample` (its clip, at its time) with the avatar `inputs` on
 * top, and gives the source to evaluate it with. The clip's expression and look-at tracks are sampled first
 * (`AvatarController.sampleClip`), then each `--expression` replaces its expression's weight (a flag the user
 * gives wins over the clip's track of the same expression; the other tracks still play), then `--look-at` turns
 * the eyes to the point (a look-at track then does nothing: `LookAtTrackSampler`). The returned source writes
 * the clip's pose alone, so `AnimatedModel.evaluate` does not sample the tracks again over the flags (and
 * recomputes every matrix, which one evaluation does anyway).
 * Without inputs, `sample` itself is returned and nothing is touched.
 * @throws Error naming the model when it is not an avatar, has no look-at (for `lookAt`) or no such expression
 */
export function applyAvatarInputs(animated: AnimatedModel, sample: ClipSample, clipIndex: number, inputs: AvatarInputs): PoseSource {
  if (!hasAvatarInputs(inputs)) return sample;
  const name = animated.asset.name, avatar = animated.avatar;
  if (!avatar) throw new Error(`${name}: --expression and --look-at need an avatar (a .vrm file); this model has none`);
  avatar.sampleClip(clipIndex, new Float64Array([sample.time]));
  for (const { name: expression, weight } of inputs.expressions ?? []) {
    try {
      avatar.setExpression(expression, weight);
    } catch (error) {
      throw new Error(`${name}: --expression: ${(error as Error).message}`);
    }
  }
  if (inputs.lookAt) {
    if (!avatar.lookAt) throw new Error(`${name}: --look-at: the avatar has no look-at (or no head bone)`);
    avatar.lookAt.setTarget(inputs.lookAt[0], inputs.lookAt[1], inputs.lookAt[2]);
  }
  return { evaluate: (pose, restPose) => sample.evaluate(pose, restPose) };
}
