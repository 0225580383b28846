import type { HumanoidBoneName, HumanoidMap } from '../asset/avatar-asset.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { HUMANOID_BONES, humanoidParentOf } from './humanoid-bones.ts';
import { HUMANOID_RIG_NAMES, humanoidNameKey, type HumanoidRigNames } from './humanoid-rig-names.ts';

/**
 * What {@link matchHumanoid} found: the humanoid map, the rig family whose names gave it (`mixamo`, `unreal`,
 * `rigify`, `vroid`, `character-creator`, `humanoid-names`; null when no joint is named as a humanoid bone), and
 * the required humanoid bones (`HUMANOID_BONES`) it lacks, in table order.
 */
export interface HumanoidMatch {
  readonly humanoid: HumanoidMap;
  readonly rig: string | null;
  readonly missingRequired: HumanoidBoneName[];
}

/**
 * The humanoid bones of a rig that is not a VRM, by its joints' names (docs/guide/clips-from-files.md, "Humanoid
 * bones"): each rig family of `HUMANOID_RIG_NAMES` (Mixamo, Unreal mannequin, Blender Rigify, VRoid, Character
 * Creator, VRM's own names) is tried on the joint names' keys (`humanoidNameKey`: namespace dropped, lower case,
 * no `_ - .` or spaces); a bone takes the first joint with one of its keys (after one of the family's prefixes)
 * not taken by an earlier bone; a bone whose joint does not lie below the joint of its nearest found humanoid
 * parent is dropped (a name that happens to match elsewhere). The family finding the most required bones wins,
 * then the most bones, then the earlier in the table. A model with `ModelAsset.avatar` has its map already
 * (its file's); this is for the others. Set-up, not per frame: allocates.
 */
export function matchHumanoid(skeleton: Skeleton): HumanoidMatch {
  const joints = new Map<string, number>();
  skeleton.names.forEach((name, j) => {
    const key = humanoidNameKey(name);
    if (key !== '' && !joints.has(key)) joints.set(key, j);
  });
  let best: { bones: Partial<Record<HumanoidBoneName, number>>; rig: string; required: number; total: number } | null = null;
  for (const rig of HUMANOID_RIG_NAMES) {
    const bones = bonesOf(rig, joints, skeleton);
    let required = 0, total = 0;
    for (const b of HUMANOID_BONES) {
      if (bones[b.name] === undefined) continue;
      total++;
      if (b.required) required++;
    }
    if (total > 0 && (best === null || required > best.required || (required === best.required && total > best.total))) {
      best = { bones, rig: rig.rig, required, total };
    }
  }
  const bones = best?.bones ?? {};
  const missingRequired = HUMANOID_BONES.filter((b) => b.required && bones[b.name] === undefined).map((b) => b.name);
  return { humanoid: { bones }, rig: best?.rig ?? null, missingRequired };
}

/** One rig family's humanoid bones in `skeleton` ({@link matchHumanoid}'s rules). */
function bonesOf(rig: HumanoidRigNames, joints: Map<string, number>, skeleton: Skeleton): Partial<Record<HumanoidBoneName, number>> {
  const bones: Partial<Record<HumanoidBoneName, number>> = {};
  const taken = new Set<number>();
  for (const { name } of HUMANOID_BONES) {
    let found: number | undefined;
    for (const key of rig.bones[name] ?? []) {
      for (const prefix of rig.prefixes) {
        const j = joints.get(prefix + key);
        if (j !== undefined && !taken.has(j)) { found = j; break; }
      }
      if (found !== undefined) break;
    }
    if (found === undefined) continue;
    // HUMANOID_BONES lists parents first: the nearest found humanoid parent is decided already.
    const parent = humanoidParentOf(name, bones);
    if (parent !== null && !isBelow(skeleton, found, bones[parent]!)) continue;
    bones[name] = found;
    taken.add(found);
  }
  return bones;
}

/** Whether `joint` is a strict descendant of `ancestor`. */
function isBelow(skeleton: Skeleton, joint: number, ancestor: number): boolean {
  for (let p = skeleton.parents[joint]; p >= 0; p = skeleton.parents[p]) if (p === ancestor) return true;
  return false;
}
