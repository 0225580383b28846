import type { SpringBoneAsset, SpringColliderAsset, SpringColliderGroupAsset, SpringColliderShape, SpringAsset, SpringJointAsset } from '../../asset/secondary-motion-asset.ts';
import { quoteValue } from '../load-error.ts';
import { DroppedPart, isIndex, isJsonObject } from './vrm-reading.ts';
import {
  arrayOrWarn, direction, droppedParameter, droppingPart, isDescendant, nodeCountOf, nonNegative, vector3, type SecondaryMotionReading,
} from './secondary-motion-reading.ts';
import { readSpringJointSettings, VRM1_JOINT_DEFAULTS } from './spring-joint-settings.ts';

/** The `VRMC_springBone.specVersion` values read (three-vrm reads the same two). */
const SPRING_BONE_SPEC_VERSIONS: readonly string[] = ['1.0', '1.0-beta'];

/** The `VRMC_springBone_extended_collider.specVersion` values read (three-vrm reads the same one). */
const EXTENDED_COLLIDER_SPEC_VERSIONS: readonly string[] = ['1.0'];

/** The extension on a collider that gives it a plane, or an inside sphere or capsule. */
export const EXTENDED_COLLIDER = 'VRMC_springBone_extended_collider';

/**
 * The top-level `extensions.VRMC_springBone` (VRMC_springBone 1.0) → {@link SpringBoneAsset}, for any glTF that has
 * it (a VRM 1.0 or not). Node indices become skeleton joints.
 * - colliders: `node` and `shape.sphere` (offset default (0, 0, 0), radius default 0) or `shape.capsule` (also
 *   tail default (0, 0, 0)); a collider's `VRMC_springBone_extended_collider` (specVersion 1.0) shape, when it has
 *   one, wins over the base shape, as three-vrm prefers it: `sphere` and `capsule` with `inside` (default false),
 *   `plane` (offset default (0, 0, 0), normal default (0, 0, 1), scaled to unit length);
 * - colliderGroups: `name` (default '') and `colliders` (indices);
 * - springs: `name`, `joints` (each a descendant of the one before; settings with the specification's defaults,
 *   spring-joint-settings.ts), `colliderGroups`, `center` (default none: −1).
 *
 * Bad input is one warning each (file name, JSON pointer, problem), and the loader goes on:
 * - a collider on a missing node, with no sphere or capsule, or a radius that is NaN, negative or not a number, an
 *   offset / tail / normal that is not three finite numbers, a zero-length normal: the collider is dropped (a group
 *   listing it goes on without it);
 * - a group's reference to a collider the file does not have, or a spring's to a missing collider group: that
 *   reference is skipped (as three-vrm skips it);
 * - a joint on a missing node or not a descendant of the joint before, a bad setting, a missing `center` node, or
 *   fewer than two joints (no simulated joint): the spring is dropped.
 * An extension that is not an object, or whose `specVersion` is not 1.0 or 1.0-beta, is one warning and no springs.
 *
 * @param where the extension's JSON pointer
 * @returns null when the file has no such extension, or nothing of it is usable
 */
export function readSpringBone(reading: SecondaryMotionReading, extension: unknown, where = '/extensions/VRMC_springBone'): SpringBoneAsset | null {
  if (extension === undefined) return null;
  const { fileName, warnings } = reading;
  if (!isJsonObject(extension)) {
    warnings.push(`${fileName}: ${where} is ${quoteValue(extension)}, not an object; no spring bones`);
    return null;
  }
  if (typeof extension.specVersion !== 'string' || !SPRING_BONE_SPEC_VERSIONS.includes(extension.specVersion)) {
    warnings.push(`${fileName}: ${where}/specVersion is ${quoteValue(extension.specVersion)}, not 1.0; no spring bones`);
    return null;
  }
  const collidersJson = arrayOrWarn(reading, extension.colliders, `${where}/colliders`);
  const colliders: SpringColliderAsset[] = [];
  // File collider index → index in `colliders`, or −1 for a dropped one (already warned about).
  const colliderOf = collidersJson.map((collider, i) => {
    const read = droppingPart(reading, 'the collider is dropped', () => readCollider(reading, collider, `${where}/colliders/${i}`));
    if (read === null) return -1;
    colliders.push(read);
    return colliders.length - 1;
  });
  const colliderGroups: SpringColliderGroupAsset[] = arrayOrWarn(reading, extension.colliderGroups, `${where}/colliderGroups`).map((group, g) => {
    const groupWhere = `${where}/colliderGroups/${g}`;
    const name = isJsonObject(group) && typeof group.name === 'string' ? group.name : '';
    const members = isJsonObject(group) ? arrayOrWarn(reading, group.colliders, `${groupWhere}/colliders`) : [];
    if (!isJsonObject(group)) warnings.push(`${fileName}: ${groupWhere} is ${quoteValue(group)}, not an object; the group has no colliders`);
    const indices: number[] = [];
    members.forEach((c, k) => {
      if (!isIndex(c, colliderOf.length)) warnings.push(`${fileName}: ${groupWhere}/colliders/${k} is ${quoteValue(c)}, not a collider index; skipped`);
      else if (colliderOf[c] >= 0) indices.push(colliderOf[c]);
    });
    return { name, colliders: indices };
  });
  const springs: SpringAsset[] = [];
  arrayOrWarn(reading, extension.springs, `${where}/springs`).forEach((spring, s) => {
    const read = droppingPart(reading, 'the spring is dropped', () => readSpring(reading, spring, `${where}/springs/${s}`, colliderGroups.length));
    if (read !== null) springs.push(read);
  });
  if (colliders.length === 0 && colliderGroups.length === 0 && springs.length === 0) return null;
  return { colliders, colliderGroups, springs };
}

/** One `colliders[i]`. @throws DroppedPart for a missing node, no usable shape, or a malformed value */
function readCollider(reading: SecondaryMotionReading, collider: unknown, where: string): SpringColliderAsset {
  if (!isJsonObject(collider)) throw droppedParameter(where, collider, 'an object');
  if (!isIndex(collider.node, nodeCountOf(reading))) throw droppedParameter(`${where}/node`, collider.node, 'a node index');
  const node = reading.jointOfNode[collider.node];
  const extended = isJsonObject(collider.extensions) ? collider.extensions[EXTENDED_COLLIDER] : undefined;
  if (extended !== undefined) {
    const extendedWhere = `${where}/extensions/${EXTENDED_COLLIDER}`;
    if (!isJsonObject(extended) || typeof extended.specVersion !== 'string' || !EXTENDED_COLLIDER_SPEC_VERSIONS.includes(extended.specVersion)) {
      // three-vrm falls back to the base shape the same way.
      const problem = isJsonObject(extended) ? `/specVersion is ${quoteValue(extended.specVersion)}, not 1.0` : ` is ${quoteValue(extended)}, not an object`;
      reading.warnings.push(`${reading.fileName}: ${extendedWhere}${problem}; the base shape is used`);
    } else {
      const shape = readExtendedShape(extended.shape, `${extendedWhere}/shape`);
      if (shape !== null) return { node, shape };
    }
  }
  const shape = collider.shape;
  const shapeWhere = `${where}/shape`;
  if (isJsonObject(shape) && isJsonObject(shape.sphere)) return { node, shape: sphere(shape.sphere, `${shapeWhere}/sphere`, false) };
  if (isJsonObject(shape) && isJsonObject(shape.capsule)) return { node, shape: capsule(shape.capsule, `${shapeWhere}/capsule`, false) };
  throw droppedParameter(shapeWhere, shape, 'a sphere or a capsule');
}

/**
 * A `VRMC_springBone_extended_collider.shape`: sphere, capsule or plane, in three-vrm's order of preference;
 * null when it has none of them (the base shape is used then, as three-vrm does).
 */
function readExtendedShape(shape: unknown, where: string): SpringColliderShape | null {
  if (!isJsonObject(shape)) return null;
  if (isJsonObject(shape.sphere)) return sphere(shape.sphere, `${where}/sphere`, shape.sphere.inside);
  if (isJsonObject(shape.capsule)) return capsule(shape.capsule, `${where}/capsule`, shape.capsule.inside);
  if (isJsonObject(shape.plane)) {
    const offset = vector3(shape.plane.offset, [0, 0, 0], `${where}/plane/offset`);
    const normal = direction(vector3(shape.plane.normal, [0, 0, 1], `${where}/plane/normal`), `${where}/plane/normal`);
    return { kind: 'plane', offset, normal };
  }
  return null;
}

function sphere(s: Record<string, unknown>, where: string, inside: unknown): SpringColliderShape {
  return { kind: 'sphere', offset: vector3(s.offset, [0, 0, 0], `${where}/offset`), radius: nonNegative(s.radius, 0, `${where}/radius`), inside: insideFlag(inside, `${where}/inside`) };
}

function capsule(c: Record<string, unknown>, where: string, inside: unknown): SpringColliderShape {
  return {
    kind: 'capsule', offset: vector3(c.offset, [0, 0, 0], `${where}/offset`), tail: vector3(c.tail, [0, 0, 0], `${where}/tail`),
    radius: nonNegative(c.radius, 0, `${where}/radius`), inside: insideFlag(inside, `${where}/inside`),
  };
}

function insideFlag(inside: unknown, where: string): boolean {
  if (inside === undefined) return false;
  if (typeof inside !== 'boolean') throw droppedParameter(where, inside, 'true or false');
  return inside;
}

/** One `springs[s]`. @throws DroppedPart for anything that drops the spring (readSpringBone lists them) */
function readSpring(reading: SecondaryMotionReading, spring: unknown, where: string, groupCount: number): SpringAsset {
  if (!isJsonObject(spring)) throw droppedParameter(where, spring, 'an object');
  const jointsJson = spring.joints;
  if (!Array.isArray(jointsJson)) throw droppedParameter(`${where}/joints`, jointsJson, 'an array');
  const nodeCount = nodeCountOf(reading);
  const joints: SpringJointAsset[] = jointsJson.map((joint, k) => {
    const jointWhere = `${where}/joints/${k}`;
    if (!isJsonObject(joint)) throw droppedParameter(jointWhere, joint, 'an object');
    if (!isIndex(joint.node, nodeCount)) throw droppedParameter(`${jointWhere}/node`, joint.node, 'a node index');
    return { node: reading.jointOfNode[joint.node], ...readSpringJointSettings(joint, VRM1_JOINT_DEFAULTS, jointWhere, 'direction only') };
  });
  for (let k = 1; k < joints.length; k++) {
    if (!isDescendant(reading.parents, joints[k].node, joints[k - 1].node)) {
      const node = (jointsJson[k] as { node: number }).node, before = (jointsJson[k - 1] as { node: number }).node;
      throw new DroppedPart(`${where}/joints/${k}/node`, `is node ${node}, not a descendant of node ${before} (the joint before)`);
    }
  }
  if (joints.length < 2) throw new DroppedPart(`${where}/joints`, `has ${joints.length} joint${joints.length === 1 ? '' : 's'}; a spring needs a joint and its tail`);
  let center = -1;
  if (spring.center !== undefined) {
    if (!isIndex(spring.center, nodeCount)) throw droppedParameter(`${where}/center`, spring.center, 'a node index');
    center = reading.jointOfNode[spring.center];
  }
  const colliderGroups: number[] = [];
  if (spring.colliderGroups !== undefined) {
    if (!Array.isArray(spring.colliderGroups)) throw droppedParameter(`${where}/colliderGroups`, spring.colliderGroups, 'an array');
    spring.colliderGroups.forEach((g: unknown, k: number) => {
      if (isIndex(g, groupCount)) colliderGroups.push(g);
      else reading.warnings.push(`${reading.fileName}: ${where}/colliderGroups/${k} is ${quoteValue(g)}, not a collider group index; skipped`);
    });
  }
  return { name: typeof spring.name === 'string' ? spring.name : '', joints, colliderGroups, center, virtualTail: null };
}
