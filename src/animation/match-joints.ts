import type { HumanoidBoneName, HumanoidMap } from '../asset/avatar-asset.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';

/**
 * Which source joint drives each target joint ({@link matchJoints}).
 * - `sourceOf`: `Int32Array(target.jointCount)`, per target joint the source joint's index, or −1 (unmatched:
 *   the joint keeps its rest pose).
 * - `matched`: names of the matched target joints, in target order.
 * - `unmatched`: names of the unmatched target joints, in target order (an unnamed joint as `#index`).
 */
export interface JointMatch {
  readonly sourceOf: Int32Array;
  readonly matched: readonly string[];
  readonly unmatched: readonly string[];
}

/**
 * A joint name without its namespace, lower-cased: everything up to the last `:` or `|` dropped
 * (`mixamorig:Hips` → `hips`, `Armature|Hips` → `hips`), as Mixamo, Maya and Blender exporters prefix names.
 */
export function bareJointName(name: string): string {
  const cut = Math.max(name.lastIndexOf(':'), name.lastIndexOf('|'));
  return name.slice(cut + 1).toLowerCase();
}

/** The humanoid maps of both sides of a retargeting ({@link matchJoints}): humanoid bone → joint of each skeleton. */
export interface HumanoidPair {
  readonly source: HumanoidMap;
  readonly target: HumanoidMap;
}

/**
 * Pairs each target joint with a source joint (docs/guide/clips-from-files.md, "How joints match"), by the first
 * rule that gives one:
 * 1. `map[targetName]`: an explicit source joint name (target → source), which overrides the rules below;
 *    a name the source does not have leaves the joint unmatched;
 * 2. with `humanoids`: the target joint is humanoid bone b in `humanoids.target` and `humanoids.source` has b:
 *    b's source joint (a Mixamo `mixamorig:Spine1` drives a VRM's `chest` whatever its name);
 * 3. the same name exactly;
 * 4. the same {@link bareJointName} (case-insensitive, namespace dropped), the first such source joint.
 * Unnamed joints (empty names) match only through `map` or `humanoids`. Linear in the joint counts: set-up,
 * not per frame.
 * @throws RangeError when a humanoid map names a joint its skeleton does not have
 */
export function matchJoints(source: Skeleton, target: Skeleton, map?: Readonly<Record<string, string>>, humanoids?: HumanoidPair): JointMatch {
  const exact = new Map<string, number>();
  const bare = new Map<string, number>();
  source.names.forEach((name, i) => {
    if (name === '') return;
    if (!exact.has(name)) exact.set(name, i);
    const key = bareJointName(name);
    if (key !== '' && !bare.has(key)) bare.set(key, i);
  });
  const byHumanoid = humanoidSources(source, target, humanoids);
  const sourceOf = new Int32Array(target.jointCount).fill(-1);
  const matched: string[] = [];
  const unmatched: string[] = [];
  for (let j = 0; j < target.jointCount; j++) {
    const name = target.names[j] ?? '';
    let s: number | undefined;
    if (map && Object.prototype.hasOwnProperty.call(map, name)) s = exact.get(map[name]);
    else if (byHumanoid[j] >= 0) s = byHumanoid[j];
    else if (name !== '') s = exact.get(name) ?? (bareJointName(name) === '' ? undefined : bare.get(bareJointName(name)));
    if (s === undefined) unmatched.push(name === '' ? `#${j}` : name);
    else {
      sourceOf[j] = s;
      matched.push(name);
    }
  }
  return { sourceOf, matched, unmatched };
}

/** Per target joint, the source joint of the same humanoid bone, or −1 (`Int32Array(target.jointCount)`). */
function humanoidSources(source: Skeleton, target: Skeleton, humanoids: HumanoidPair | undefined): Int32Array {
  const out = new Int32Array(target.jointCount).fill(-1);
  if (!humanoids) return out;
  const check = (side: string, skeleton: Skeleton, bone: string, j: number | undefined): j is number => {
    if (j === undefined) return false;
    if (!Number.isInteger(j) || j < 0 || j >= skeleton.jointCount) throw new RangeError(`${side} humanoid bone "${bone}" names joint ${j}, not a joint of a skeleton of ${skeleton.jointCount}`);
    return true;
  };
  for (const bone of Object.keys(humanoids.target.bones) as HumanoidBoneName[]) {
    const t = humanoids.target.bones[bone], s = humanoids.source.bones[bone];
    if (check('target', target, bone, t) && check('source', source, bone, s)) out[t] = s;
  }
  return out;
}
