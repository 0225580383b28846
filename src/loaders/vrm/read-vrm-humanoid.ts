import type { HumanoidBoneName, HumanoidMap } from '../../asset/avatar-asset.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import { isHumanoidBoneName, REQUIRED_HUMANOID_BONES, VRM0_THUMB_NAMES } from './humanoid-bone-names.ts';
import { isIndex, isJsonObject, pointerToken, type VrmReading } from './vrm-reading.ts';

/** One humanoid bone as the file states it, before the map is checked. */
interface BoneEntry {
  readonly bone: HumanoidBoneName;
  readonly node: number;
  /** JSON pointer of the entry's `node`. */
  readonly where: string;
}

/**
 * VRM 1.0 `VRMC_vrm.humanoid.humanBones` (an object, bone name → `{ node }`) → {@link HumanoidMap} (VRMC_vrm-1.0
 * `humanoid.md`). A 1.0-beta file (it has a `leftThumbIntermediate` or `rightThumbIntermediate`) names its
 * thumbs as 0.x does and is renamed (VRM0_THUMB_NAMES), as three-vrm does. A key that is no bone name is ignored
 * with one warning.
 *
 * @param humanoid the extension's `humanoid` value; `where` its JSON pointer (`/extensions/VRMC_vrm/humanoid`)
 * @throws LoadError `HUMANOID_INVALID` (see {@link checkHumanoid}), also when `humanoid` or its `humanBones` is
 *   not an object
 */
export function readVrm1Humanoid(reading: VrmReading, humanoid: unknown, where: string): HumanoidMap {
  const { fileName } = reading;
  if (!isJsonObject(humanoid)) throw new LoadError(fileName, where, 'HUMANOID_INVALID', `is ${quoteValue(humanoid)}, not an object with humanBones`);
  const bones = humanoid.humanBones;
  const bonesWhere = `${where}/humanBones`;
  if (!isJsonObject(bones)) throw new LoadError(fileName, bonesWhere, 'HUMANOID_INVALID', `is ${quoteValue(bones)}, not an object`);
  const beta = bones.leftThumbIntermediate !== undefined || bones.rightThumbIntermediate !== undefined;
  const entries: BoneEntry[] = [];
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(bones)) {
    const name = beta ? VRM0_THUMB_NAMES[key] ?? key : key;
    const entryWhere = `${bonesWhere}/${pointerToken(key)}`;
    if (!isHumanoidBoneName(name)) {
      unknown.push(key);
      continue;
    }
    const node = isJsonObject(value) ? value.node : undefined;
    if (!isIndex(node, reading.jointOfNode.length)) {
      throw new LoadError(fileName, `${entryWhere}/node`, 'HUMANOID_INVALID', `is ${quoteValue(node)}, not a node of the model (${reading.jointOfNode.length}); bone ${name} has no joint`);
    }
    entries.push({ bone: name, node, where: `${entryWhere}/node` });
  }
  if (unknown.length > 0) reading.warnings.push(`${fileName}: ${bonesWhere} names ${unknown.map(quoteValue).join(', ')}, not VRM humanoid bones; ignored`);
  return checkHumanoid(reading, entries, bonesWhere, (bone) => `${bonesWhere}/${bone}`);
}

/**
 * VRM 0.x `VRM.humanoid.humanBones` (an array of `{ bone, node }`) → {@link HumanoidMap}, thumbs renamed to 1.0's
 * (VRM0_THUMB_NAMES). As three-vrm's 0.x loader: an entry without bone or node, with a negative node (exporters
 * write −1 for a bone the rig lacks), or with an unknown bone name is ignored; a bone listed again is ignored
 * after its first entry; one warning for each kind.
 *
 * @param humanoid the extension's `humanoid` value; `where` its JSON pointer (`/extensions/VRM/humanoid`)
 * @throws LoadError `HUMANOID_INVALID` (see {@link checkHumanoid}), also when `humanoid` is not an object or its
 *   `humanBones` not an array, or a node is past the model's nodes
 */
export function readVrm0Humanoid(reading: VrmReading, humanoid: unknown, where: string): HumanoidMap {
  const { fileName, warnings } = reading;
  if (!isJsonObject(humanoid)) throw new LoadError(fileName, where, 'HUMANOID_INVALID', `is ${quoteValue(humanoid)}, not an object with humanBones`);
  const bones = humanoid.humanBones;
  const bonesWhere = `${where}/humanBones`;
  if (!Array.isArray(bones)) throw new LoadError(fileName, bonesWhere, 'HUMANOID_INVALID', `is ${quoteValue(bones)}, not an array`);
  const entries: BoneEntry[] = [];
  const skipped: number[] = [];
  const repeated: string[] = [];
  bones.forEach((entry: unknown, i) => {
    const bone = isJsonObject(entry) ? entry.bone : undefined;
    const node = isJsonObject(entry) ? entry.node : undefined;
    const name = typeof bone === 'string' ? VRM0_THUMB_NAMES[bone] ?? bone : '';
    if (!isHumanoidBoneName(name) || typeof node !== 'number' || node < 0) {
      skipped.push(i);
      return;
    }
    if (!isIndex(node, reading.jointOfNode.length)) {
      throw new LoadError(fileName, `${bonesWhere}/${i}/node`, 'HUMANOID_INVALID', `is ${quoteValue(node)}, not a node of the model (${reading.jointOfNode.length}); bone ${name} has no joint`);
    }
    if (entries.some((e) => e.bone === name)) {
      repeated.push(name);
      return;
    }
    entries.push({ bone: name, node, where: `${bonesWhere}/${i}/node` });
  });
  if (skipped.length > 0) warnings.push(`${fileName}: ${bonesWhere} entries ${skipped.join(', ')} have no known bone or no node; ignored`);
  if (repeated.length > 0) warnings.push(`${fileName}: ${bonesWhere} lists ${repeated.join(', ')} more than once; the first entry is used`);
  return checkHumanoid(reading, entries, bonesWhere, () => bonesWhere);
}

/**
 * The humanoid map of checked entries: every required bone present (REQUIRED_HUMANOID_BONES), no node for two
 * bones (VRMC_vrm-1.0 `humanoid.md`: a node is at most one bone). Joints are skeleton joints (`jointOfNode`).
 *
 * @param missingWhere the JSON pointer a missing bone would have (1.0: `…/humanBones/leftHand`; 0.x: the array)
 * @throws LoadError `HUMANOID_INVALID`: `/extensions/VRMC_vrm/humanoid/humanBones/leftHand is missing: leftHand
 *   is a required humanoid bone`, or `…/humanBones/spine/node is 3, the node of bone hips too`
 */
function checkHumanoid(reading: VrmReading, entries: readonly BoneEntry[], bonesWhere: string, missingWhere: (bone: string) => string): HumanoidMap {
  const { fileName, jointOfNode } = reading;
  const boneOfNode = new Map<number, HumanoidBoneName>();
  const map: Partial<Record<HumanoidBoneName, number>> = {};
  for (const { bone, node, where } of entries) {
    const other = boneOfNode.get(node);
    if (other !== undefined) throw new LoadError(fileName, where, 'HUMANOID_INVALID', `is ${node}, the node of bone ${other} too; bone ${bone} needs a joint of its own`);
    boneOfNode.set(node, bone);
    map[bone] = jointOfNode[node];
  }
  const missing = REQUIRED_HUMANOID_BONES.filter((bone) => map[bone] === undefined);
  if (missing.length > 0) {
    const also = missing.length > 1 ? ` (also missing: ${missing.slice(1).join(', ')})` : '';
    const where = missingWhere(missing[0]);
    const subject = where === bonesWhere ? `lacks ${missing[0]}` : 'is missing';
    throw new LoadError(fileName, where, 'HUMANOID_INVALID', `${subject}: ${missing[0]} is a required humanoid bone${also}`);
  }
  return { bones: map };
}
