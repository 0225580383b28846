import type { SecondaryMotionAsset } from '../../asset/secondary-motion-asset.ts';
import { isJsonObject } from './vrm-reading.ts';
import { readNodeConstraints } from './read-node-constraints.ts';
import { readSpringBone } from './read-spring-bone.ts';
import { readVrm0SpringBone } from './read-spring-bone-vrm0.ts';
import type { SecondaryMotionReading } from './secondary-motion-reading.ts';

/**
 * A glTF's secondary motion ({@link SecondaryMotionAsset}), for any glTF, a VRM or not:
 * - spring bones from the top-level `VRMC_springBone` (read-spring-bone.ts, with its extended colliders); failing
 *   that, from VRM 0.x's `VRM.secondaryAnimation` (read-spring-bone-vrm0.ts) when the file is a VRM 0.x (it has
 *   `VRM` and no `VRMC_vrm`), as three-vrm tries 1.0 first, then 0.x;
 * - node constraints from every node's `VRMC_node_constraint` (read-node-constraints.ts), in evaluation order.
 * Called before a VRM 0.x model is turned to face +Z (read-spring-bone-vrm0.ts says why that is the right space).
 * Bad input is one warning each, never an error (the model works without it).
 *
 * @returns null when the file has neither springs nor constraints (or none survived the checks)
 */
export function readSecondaryMotion(reading: SecondaryMotionReading): SecondaryMotionAsset | null {
  const extensions = isJsonObject(reading.json.extensions) ? reading.json.extensions : {};
  let springBone = readSpringBone(reading, extensions.VRMC_springBone);
  if (springBone === null && extensions.VRMC_springBone === undefined && extensions.VRMC_vrm === undefined && isJsonObject(extensions.VRM)) {
    springBone = readVrm0SpringBone(reading, extensions.VRM.secondaryAnimation);
  }
  const nodeConstraints = readNodeConstraints(reading);
  if (springBone === null && nodeConstraints.length === 0) return null;
  return { springBone, nodeConstraints };
}
