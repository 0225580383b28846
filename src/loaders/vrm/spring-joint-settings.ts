import type { SpringJointAsset } from '../../asset/secondary-motion-asset.ts';
import { direction, nonNegative, unitInterval, vector3 } from './secondary-motion-reading.ts';

/** A spring joint's settings, without its node. */
export type SpringJointSettings = Omit<SpringJointAsset, 'node'>;

/**
 * The settings a file's joint (VRMC_springBone 1.0) or bone group (VRM 0.x) gives, as numbers, each `undefined`
 * when the file leaves it out.
 */
export interface SpringJointSettingsInput {
  readonly hitRadius?: unknown;
  readonly stiffness?: unknown;
  readonly gravityPower?: unknown;
  readonly gravityDir?: unknown;
  readonly dragForce?: unknown;
}

/**
 * VRMC_springBone 1.0's defaults (`springs[].joints[]` in the schema): hitRadius 0, stiffness 1, gravityPower 0,
 * gravityDir (0, −1, 0), dragForce 0.5. three-vrm's joint falls back to dragForce 0.4 instead; Sinew follows the
 * specification for VRM 1.0 files.
 */
export const VRM1_JOINT_DEFAULTS: SpringJointSettings = { hitRadius: 0, stiffness: 1, gravityPower: 0, gravityDir: [0, -1, 0], dragForce: 0.5 };

/**
 * The defaults of a VRM 0.x bone group, which its specification leaves to UniVRM: three-vrm's joint defaults
 * (hitRadius 0, stiffness 1, gravityPower 0, gravityDir (0, −1, 0), dragForce 0.4), so a 0.x file moves as
 * three-vrm moves it.
 */
export const VRM0_JOINT_DEFAULTS: SpringJointSettings = { hitRadius: 0, stiffness: 1, gravityPower: 0, gravityDir: [0, -1, 0], dragForce: 0.4 };

/**
 * A joint's settings with `defaults` for the ones left out: hitRadius, stiffness and gravityPower numbers ≥ 0,
 * dragForce in [0, 1], gravityDir three finite numbers of non-zero length, scaled to unit length. What becomes of
 * a non-unit gravityDir's length is `gravityLength`'s choice: `'direction only'` drops it (VRMC_springBone 1.0
 * calls gravityDir a direction; three-vrm would use the file's vector as is, so there a non-unit one scales the
 * gravity), `'scales power'` multiplies gravityPower by it, so gravityDir · gravityPower is the file's vector
 * times its power, as UniVRM 0.x and three-vrm move a VRM 0.x model.
 *
 * @param where the JSON pointer of the object holding the settings (`/extensions/VRMC_springBone/springs/0/joints/1`)
 * @param key the member name each setting has in the file (VRM 0.x's `stiffiness`), `where/key` in a warning
 * @throws DroppedPart naming the first setting that is NaN, negative, not a number, outside [0, 1] (dragForce) or
 *   a zero-length gravityDir
 */
export function readSpringJointSettings(
  input: SpringJointSettingsInput,
  defaults: SpringJointSettings,
  where: string,
  gravityLength: 'direction only' | 'scales power',
  key: (setting: keyof SpringJointSettingsInput) => string = (setting) => setting,
): SpringJointSettings {
  const at = (setting: keyof SpringJointSettingsInput) => `${where}/${key(setting)}`;
  const hitRadius = nonNegative(input.hitRadius, defaults.hitRadius, at('hitRadius'));
  const stiffness = nonNegative(input.stiffness, defaults.stiffness, at('stiffness'));
  const power = nonNegative(input.gravityPower, defaults.gravityPower, at('gravityPower'));
  const vector = vector3(input.gravityDir, defaults.gravityDir, at('gravityDir'));
  const gravityDir = direction(vector, at('gravityDir'));
  const gravityPower = gravityLength === 'scales power' ? power * Math.hypot(vector[0], vector[1], vector[2]) : power;
  const dragForce = unitInterval(input.dragForce, defaults.dragForce, at('dragForce'));
  return { hitRadius, stiffness, gravityPower, gravityDir, dragForce };
}
