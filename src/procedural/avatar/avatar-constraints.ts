import type { AimAxis } from '../../asset/secondary-motion-asset.ts';
import type { AvatarExtraJoint } from './avatar-springs.ts';

/**
 * A node constraint of the generated avatar (VRMC_node_constraint 1.0), by joint name: `node` is the destination
 * (an extra joint), `source` a humanoid bone's joint or an extra joint.
 */
export type AvatarConstraint =
  | { readonly kind: 'roll'; readonly node: string; readonly source: string; readonly weight: number; readonly rollAxis: 'X' | 'Y' | 'Z' }
  | { readonly kind: 'aim'; readonly node: string; readonly source: string; readonly weight: number; readonly aimAxis: AimAxis }
  | { readonly kind: 'rotation'; readonly node: string; readonly source: string; readonly weight: number };

const ARM_Y = 1.32;

/** Per side: the bracer's joints on the forearm (a twist band, an elbow cuff, a fin on the cuff). */
function bracerJoints(): AvatarExtraJoint[] {
  const joints: AvatarExtraJoint[] = [];
  for (const [side, s] of [['left', 1], ['right', -1]] as const) {
    joints.push(
      { name: `${side}ForearmTwist`, parent: `${side}LowerArm`, position: [s * 0.54, ARM_Y, 0] },
      { name: `${side}ElbowCuff`, parent: `${side}LowerArm`, position: [s * 0.46, ARM_Y, 0] },
      // On the line from the cuff to the middle finger's base (z 0.01), so that the aim holds at rest.
      { name: `${side}CuffFin`, parent: `${side}ElbowCuff`, position: [s * 0.47, ARM_Y, 0.01] },
    );
  }
  return joints;
}

/** The constraints' destination joints (not humanoid bones), parents first. */
export const AVATAR_CONSTRAINT_JOINTS: readonly AvatarExtraJoint[] = bracerJoints();

/**
 * The generated avatar's node constraints, a chain per arm in evaluation order: the forearm twist band rolls with
 * the hand about X (roll, weight 0.6); the elbow cuff copies the twist band's rotation (rotation, weight 0.5: the
 * roll's destination is its source); the fin on the cuff aims its ±X at the middle finger's base (aim, weight 1,
 * `PositiveX` on the left, `NegativeX` on the right), after its parent the cuff. Each holds its rest rotation while
 * the hands keep theirs (the walk clip turns no hand), so a reader without node constraints poses the clip alike.
 */
export const AVATAR_CONSTRAINTS: readonly AvatarConstraint[] = (['left', 'right'] as const).flatMap((side): AvatarConstraint[] => [
  { kind: 'roll', node: `${side}ForearmTwist`, source: `${side}Hand`, weight: 0.6, rollAxis: 'X' },
  { kind: 'rotation', node: `${side}ElbowCuff`, source: `${side}ForearmTwist`, weight: 0.5 },
  { kind: 'aim', node: `${side}CuffFin`, source: `${side}MiddleProximal`, weight: 1, aimAxis: side === 'left' ? 'PositiveX' : 'NegativeX' },
]);
