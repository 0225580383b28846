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

/**
 * Pairs each target joint with a source joint by name (docs/guide/clips-from-files.md), by the first rule
 * that gives one:
 * 1. `map[targetName]`: an explicit source joint name (target → source), which overrides both rules below;
 *    a name the source does not have leaves the joint unmatched;
 * 2. the same name exactly;
 * 3. the same {@link bareJointName} (case-insensitive, namespace dropped), the first such source joint.
 * Unnamed joints (empty names) match only through `map`. Linear in the joint counts: set-up, not per frame.
 */
export function matchJoints(source: Skeleton, target: Skeleton, map?: Readonly<Record<string, string>>): JointMatch {
  const exact = new Map<string, number>();
  const bare = new Map<string, number>();
  source.names.forEach((name, i) => {
    if (name === '') return;
    if (!exact.has(name)) exact.set(name, i);
    const key = bareJointName(name);
    if (key !== '' && !bare.has(key)) bare.set(key, i);
  });
  const sourceOf = new Int32Array(target.jointCount).fill(-1);
  const matched: string[] = [];
  const unmatched: string[] = [];
  for (let j = 0; j < target.jointCount; j++) {
    const name = target.names[j] ?? '';
    let s: number | undefined;
    if (map && Object.prototype.hasOwnProperty.call(map, name)) s = exact.get(map[name]);
    else if (name !== '') s = exact.get(name) ?? (bareJointName(name) === '' ? undefined : bare.get(bareJointName(name)));
    if (s === undefined) unmatched.push(name === '' ? `#${j}` : name);
    else {
      sourceOf[j] = s;
      matched.push(name);
    }
  }
  return { sourceOf, matched, unmatched };
}
