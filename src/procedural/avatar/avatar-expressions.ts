import type { ExpressionOverride, ExpressionPreset } from '../../asset/avatar-asset.ts';
import type { AvatarMaterialName } from './avatar-geometry.ts';
import type { FaceMorphTarget } from './avatar-morphs.ts';

/**
 * One expression of the generated avatar, independent of the VRM version the writers put it in: the morph targets
 * of the `Face` mesh it drives, the material colours and texture transforms, and its flags
 * (VRMC_vrm-1.0 `expressions.md`).
 */
export interface AvatarExpression {
  readonly name: string;
  /** The VRM 1.0 preset, or null for a custom expression. */
  readonly preset: ExpressionPreset | null;
  /** Face morph target → its weight at expression weight 1, in [0, 1]. */
  readonly morphs: readonly (readonly [FaceMorphTarget, number])[];
  /** Base colour (`color`) targets, linear RGBA. */
  readonly colors: readonly { readonly material: AvatarMaterialName; readonly targetValue: readonly [number, number, number, number] }[];
  readonly textureTransforms: readonly { readonly material: AvatarMaterialName; readonly scale: readonly [number, number]; readonly offset: readonly [number, number] }[];
  readonly isBinary: boolean;
  readonly overrideBlink: ExpressionOverride;
  readonly overrideLookAt: ExpressionOverride;
  readonly overrideMouth: ExpressionOverride;
}

const expression = (name: string, preset: ExpressionPreset | null, morphs: AvatarExpression['morphs'], more: Partial<AvatarExpression> = {}): AvatarExpression => ({
  name, preset, morphs, colors: [], textureTransforms: [], isBinary: false,
  overrideBlink: 'none', overrideLookAt: 'none', overrideMouth: 'none', ...more,
});

/**
 * The generated avatar's expressions: every VRM 1.0 preset but `neutral`, and the custom `cheekPuff`.
 * - `blink` is binary; `happy` blends blink and mouth down, `angry` blocks blink and tints the cheeks red (a
 *   `color` bind), `sad` blends look-at, `surprised` blocks all three;
 * - `cheekPuff` (custom) puffs the cheeks and shifts and stretches the cheek texture (a texture transform bind).
 */
export const AVATAR_EXPRESSIONS: readonly AvatarExpression[] = [
  expression('happy', 'happy', [['happy', 1]], { overrideBlink: 'blend', overrideMouth: 'blend' }),
  expression('angry', 'angry', [['angry', 1]], { overrideBlink: 'block', colors: [{ material: 'Cheek', targetValue: [0.9, 0.05, 0.03, 1] }] }),
  expression('sad', 'sad', [['sad', 1]], { overrideLookAt: 'blend' }),
  expression('relaxed', 'relaxed', [['relaxed', 1]]),
  expression('surprised', 'surprised', [['surprised', 1]], { overrideBlink: 'block', overrideLookAt: 'block', overrideMouth: 'block' }),
  expression('aa', 'aa', [['aa', 1]]),
  expression('ih', 'ih', [['ih', 1]]),
  expression('ou', 'ou', [['ou', 1]]),
  expression('ee', 'ee', [['ee', 1]]),
  expression('oh', 'oh', [['oh', 1]]),
  expression('blink', 'blink', [['blink', 1]], { isBinary: true }),
  expression('blinkLeft', 'blinkLeft', [['blinkLeft', 1]]),
  expression('blinkRight', 'blinkRight', [['blinkRight', 1]]),
  expression('lookUp', 'lookUp', [['lookUp', 1]]),
  expression('lookDown', 'lookDown', [['lookDown', 1]]),
  expression('lookLeft', 'lookLeft', [['lookLeft', 1]]),
  expression('lookRight', 'lookRight', [['lookRight', 1]]),
  expression('cheekPuff', null, [['cheekPuff', 1], ['happy', 0.25]], {
    textureTransforms: [{ material: 'Cheek', scale: [2, 1], offset: [0.25, 0.5] }],
  }),
];
