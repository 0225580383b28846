import type { SpringAsset, SpringBoneAsset, SpringColliderAsset, SpringColliderGroupAsset, Vec3 } from '../../asset/secondary-motion-asset.ts';
import { quoteValue } from '../load-error.ts';
import { isIndex, isJsonObject } from './vrm-reading.ts';
import { arrayOrWarn, droppedParameter, droppingPart, nodeCountOf, nonNegative, type SecondaryMotionReading } from './secondary-motion-reading.ts';
import { readSpringJointSettings, VRM0_JOINT_DEFAULTS, type SpringJointSettings } from './spring-joint-settings.ts';

/** How far a VRM 0.x leaf joint's virtual tail lies from it, metres (three-vrm's and UniVRM's 7 cm). */
export const VRM0_VIRTUAL_TAIL_LENGTH = 0.07;

/**
 * VRM 0.x `extensions.VRM.secondaryAnimation` → {@link SpringBoneAsset}, as three-vrm's VRM 0.x spring bone import
 * reads it:
 * - each collider group (`node`, `colliders[]` of `offset` {x, y, z} and `radius`) gives one sphere collider per
 *   entry on that node, offset (x, y, −z) (0.x stores offsets in Unity's left-handed axes), and a collider group
 *   of them (name '');
 * - each bone group's settings (`stiffiness` [sic], `gravityPower`, `gravityDir` {x, y, z}, `dragForce`,
 *   `hitRadius`; defaults spring-joint-settings.ts `VRM0_JOINT_DEFAULTS`) hold for every joint under each of its
 *   `bones` (roots), with its `center` (−1 or absent: none) and `colliderGroups`; its `comment` names its springs.
 *
 * three-vrm makes every node of a root's subtree a joint whose tail is its first child (glTF `children[0]`), and a
 * leaf's tail a virtual point 7 cm along the leaf's own rest translation, in the leaf's space. Sinew writes the
 * same joints as springs: one per path that follows first children from a start node to a leaf, with that
 * `virtualTail`; every other child starts a spring of its own, listed after the spring holding its parent, so a
 * spring's first joint's simulated ancestors come in earlier springs. Joint settings and tails are what three-vrm
 * gives each joint; only the grouping into chains is Sinew's.
 *
 * The half turn that makes a 0.x model face +Z (turn-vrm0-to-face-z.ts) turns the root joints only: collider
 * offsets and virtual tails are node-local and untouched (a virtual tail is taken from the file's translation,
 * before the turn); `gravityDir` is a world direction and is kept as the file gives it, as three-vrm keeps it after
 * `VRMUtils.rotateVRM0` (which turns the scene, not the gravity). A non-unit gravityDir is scaled to unit length
 * and its length moved into gravityPower, so the gravity (gravityDir · gravityPower) is three-vrm's and UniVRM's.
 *
 * Bad input is one warning each, and the loader goes on: a collider group that is not an object or on a missing
 * node is dropped (references to it are skipped); a collider with a malformed offset or a radius that is NaN,
 * negative or not a number is dropped; a bone group with a bad setting or a `center` that is not a node is
 * dropped; a root that is not a node, and a reference to a collider group the file does not have, are skipped.
 *
 * @param where the JSON pointer of `secondaryAnimation`
 * @returns null when absent, or when nothing of it is usable
 */
export function readVrm0SpringBone(reading: SecondaryMotionReading, secondaryAnimation: unknown, where = '/extensions/VRM/secondaryAnimation'): SpringBoneAsset | null {
  if (secondaryAnimation === undefined) return null;
  const { fileName, warnings } = reading;
  if (!isJsonObject(secondaryAnimation)) {
    warnings.push(`${fileName}: ${where} is ${quoteValue(secondaryAnimation)}, not an object; no spring bones`);
    return null;
  }
  const colliders: SpringColliderAsset[] = [];
  const colliderGroups: SpringColliderGroupAsset[] = [];
  // File collider group index → index in `colliderGroups`, or −1 for a dropped one (already warned about).
  const groupOf = arrayOrWarn(reading, secondaryAnimation.colliderGroups, `${where}/colliderGroups`).map((group, g) => {
    const groupWhere = `${where}/colliderGroups/${g}`;
    const read = droppingPart(reading, 'the collider group is dropped', () => {
      if (!isJsonObject(group)) throw droppedParameter(groupWhere, group, 'an object');
      if (!isIndex(group.node, nodeCountOf(reading))) throw droppedParameter(`${groupWhere}/node`, group.node, 'a node index');
      return { node: reading.jointOfNode[group.node], entries: arrayOrWarn(reading, group.colliders, `${groupWhere}/colliders`) };
    });
    if (read === null) return -1;
    const members: number[] = [];
    read.entries.forEach((entry, c) => {
      const collider = droppingPart(reading, 'the collider is dropped', () => sphereCollider(read.node, entry, `${groupWhere}/colliders/${c}`));
      if (collider === null) return;
      colliders.push(collider);
      members.push(colliders.length - 1);
    });
    colliderGroups.push({ name: '', colliders: members });
    return colliderGroups.length - 1;
  });
  const springs: SpringAsset[] = [];
  arrayOrWarn(reading, secondaryAnimation.boneGroups, `${where}/boneGroups`).forEach((boneGroup, b) => {
    const read = droppingPart(reading, 'the bone group is dropped', () => readBoneGroup(reading, boneGroup, `${where}/boneGroups/${b}`, groupOf));
    if (read !== null) springs.push(...read);
  });
  if (colliders.length === 0 && colliderGroups.length === 0 && springs.length === 0) return null;
  return { colliders, colliderGroups, springs };
}

/** A 0.x `{ x, y, z }` with each part defaulting to 0, as a triple; anything but an object is returned as it is (for the check to name). */
function xyz(value: unknown): unknown {
  if (!isJsonObject(value)) return value;
  return [value.x ?? 0, value.y ?? 0, value.z ?? 0];
}

/** One 0.x collider: a sphere at (x, y, −z) in the group node's space. @throws DroppedPart for a malformed offset or radius */
function sphereCollider(node: number, entry: unknown, where: string): SpringColliderAsset {
  if (!isJsonObject(entry)) throw droppedParameter(where, entry, 'an object');
  const offset = entry.offset === undefined ? [0, 0, 0] : xyz(entry.offset);
  if (!Array.isArray(offset) || !offset.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw droppedParameter(`${where}/offset`, entry.offset, 'an object of finite x, y, z');
  }
  // `|| 0`: three-vrm writes 0, not −0, for a zero z.
  return { node, shape: { kind: 'sphere', offset: [offset[0], offset[1], -offset[2] || 0], radius: nonNegative(entry.radius, 0, `${where}/radius`), inside: false } };
}

/** One bone group's springs. @throws DroppedPart for a bad setting or `center` (the group is dropped) */
function readBoneGroup(reading: SecondaryMotionReading, boneGroup: unknown, where: string, groupOf: readonly number[]): SpringAsset[] {
  if (!isJsonObject(boneGroup)) throw droppedParameter(where, boneGroup, 'an object');
  const settings = readSpringJointSettings({
    hitRadius: boneGroup.hitRadius, stiffness: boneGroup.stiffiness, gravityPower: boneGroup.gravityPower,
    gravityDir: xyz(boneGroup.gravityDir), dragForce: boneGroup.dragForce,
  }, VRM0_JOINT_DEFAULTS, where, 'scales power', (setting) => (setting === 'stiffness' ? 'stiffiness' : setting));
  const nodeCount = nodeCountOf(reading);
  let center = -1;
  if (boneGroup.center !== undefined && boneGroup.center !== -1) {
    if (!isIndex(boneGroup.center, nodeCount)) throw droppedParameter(`${where}/center`, boneGroup.center, 'a node index or -1');
    center = reading.jointOfNode[boneGroup.center];
  }
  const colliderGroups: number[] = [];
  const groupRefs = boneGroup.colliderGroups === undefined ? [] : boneGroup.colliderGroups;
  if (!Array.isArray(groupRefs)) throw droppedParameter(`${where}/colliderGroups`, groupRefs, 'an array');
  groupRefs.forEach((g: unknown, k: number) => {
    if (!isIndex(g, groupOf.length)) reading.warnings.push(`${reading.fileName}: ${where}/colliderGroups/${k} is ${quoteValue(g)}, not a collider group index; skipped`);
    else if (groupOf[g] >= 0) colliderGroups.push(groupOf[g]);
  });
  const roots = boneGroup.bones === undefined ? [] : boneGroup.bones;
  if (!Array.isArray(roots)) throw droppedParameter(`${where}/bones`, roots, 'an array');
  const name = typeof boneGroup.comment === 'string' ? boneGroup.comment : '';
  const springs: SpringAsset[] = [];
  roots.forEach((root: unknown, k: number) => {
    if (!isIndex(root, nodeCount)) {
      reading.warnings.push(`${reading.fileName}: ${where}/bones/${k} is ${quoteValue(root)}, not a node index; skipped`);
      return;
    }
    addChains(reading, root, { name, settings, center, colliderGroups }, springs);
  });
  return springs;
}

/** What every spring of one bone group shares. */
interface BoneGroupShared {
  readonly name: string;
  readonly settings: SpringJointSettings;
  readonly center: number;
  readonly colliderGroups: readonly number[];
}

/**
 * Appends to `springs` the chain from glTF node `start` along first children to a leaf, then (in path order, each
 * node's children in file order) the chains that start at every other child, depth first: a spring comes after
 * the one holding its first joint's parent. An explicit stack, not recursion: a file may branch deeply.
 */
function addChains(reading: SecondaryMotionReading, start: number, shared: BoneGroupShared, springs: SpringAsset[]): void {
  const nodes = reading.json.nodes ?? [];
  const starts = [start];
  while (starts.length > 0) {
    const path: number[] = [];
    for (let node = starts.pop()!; ; node = nodes[node].children![0]) {
      path.push(node);
      if ((nodes[node].children ?? []).length === 0) break;
    }
    springs.push({
      name: shared.name,
      joints: path.map((node) => ({ node: reading.jointOfNode[node], ...shared.settings })),
      colliderGroups: [...shared.colliderGroups],
      center: shared.center,
      virtualTail: virtualTail(reading.restTranslations, reading.jointOfNode[path[path.length - 1]]),
    });
    const branches = path.flatMap((node) => (nodes[node].children ?? []).slice(1));
    for (let k = branches.length - 1; k >= 0; k--) starts.push(branches[k]);
  }
}

/**
 * A 0.x leaf's tail, in its own space: its rest translation scaled to {@link VRM0_VIRTUAL_TAIL_LENGTH}, or
 * (0, 0, 0) for a leaf at its parent's origin (three.js's `normalize` leaves a zero vector zero).
 */
function virtualTail(translations: Float32Array, joint: number): Vec3 {
  const x = translations[3 * joint], y = translations[3 * joint + 1], z = translations[3 * joint + 2];
  const length = Math.hypot(x, y, z);
  if (length === 0) return [0, 0, 0];
  const scale = VRM0_VIRTUAL_TAIL_LENGTH / length;
  return [x * scale, y * scale, z * scale];
}
