import type { Skeleton } from '../skeleton/skeleton.ts';

/** A leg found by {@link findLegs}: skeleton indices of hip, knee and ankle. */
export interface LegJoints {
  side: 'left' | 'right';
  start: number;
  mid: number;
  end: number;
}

/** Words a leg joint's name carries (thigh, shin, knee, foot, ankle, leg, …). */
const LEG_WORD = /thigh|upleg|upperleg|leg|shin|calf|knee|foot|ankle/i;
const LEFT = /left|(^|[^a-z])l([^a-z]|$)/i;
const RIGHT = /right|(^|[^a-z])r([^a-z]|$)/i;
const HEAD = /head/i;
const NOT_HEAD = /end|top|nub|tip/i;
const NECK = /neck/i;
const TRUNK = /neck|spine|chest|torso|back/i;

/**
 * The legs of a skeleton by its joints' names, for set-up (IK demos, foot placement): per side (a name with
 * `left`/`right`, or `L`/`R` standing alone between non-letters: `thigh.L`, `leg_joint_L_1`), the topmost joint
 * whose name has a leg word (thigh, upleg, leg, shin, calf, knee, foot, ankle), its first child with such a name, and
 * that one's — hip, knee, ankle. Finds Fox's hind legs (`b_LeftLeg01_015` → `b_LeftLeg02_016` → `b_LeftFoot01_017`),
 * CesiumMan's and RiggedFigure's (`leg_joint_L_1` → `_2` → `_3`), Bob's (`thigh.L` → `shin.L` → `ankle.L`).
 * @returns the left leg first; an empty list when a side has no such three-joint chain
 */
export function findLegs(skeleton: Skeleton): LegJoints[] {
  const legs: LegJoints[] = [];
  for (const side of ['left', 'right'] as const) {
    const pattern = side === 'left' ? LEFT : RIGHT;
    const candidate = skeleton.names.map((name) => LEG_WORD.test(name) && pattern.test(name));
    const childOf = (j: number): number => skeleton.parents.findIndex((p, c) => p === j && candidate[c]);
    for (let start = 0; start < skeleton.jointCount; start++) {
      const parent = skeleton.parents[start];
      if (!candidate[start] || (parent >= 0 && candidate[parent])) continue;
      const mid = childOf(start);
      const end = mid >= 0 ? childOf(mid) : -1;
      if (end >= 0) {
        legs.push({ side, start, mid, end });
        break;
      }
    }
  }
  return legs.length === 2 ? legs : [];
}

/** The lowest joint that is an ancestor of every joint of `joints` (not one of them), or −1. */
export function commonAncestor(skeleton: Skeleton, joints: readonly number[]): number {
  if (joints.length === 0) return -1;
  const isAncestorOfAll = (a: number): boolean => joints.every((j) => {
    for (let p = skeleton.parents[j]; p >= 0; p = skeleton.parents[p]) if (p === a) return true;
    return false;
  });
  for (let p = skeleton.parents[joints[0]]; p >= 0; p = skeleton.parents[p]) if (isAncestorOfAll(p)) return p;
  return -1;
}

/**
 * A look-at chain by names, top first, the aiming joint last: the first joint named like a head (`head`, not
 * `…end`/`top`/`nub`/`tip`), else the deepest `neck` joint; then up to `extra` ancestors in a row named like the
 * trunk (neck, spine, chest, torso, back). Fox: `b_Spine02_03`, `b_Neck_04`, `b_Head_05`; CesiumMan:
 * `torso_joint_3`, `Skeleton_neck_joint_1`, `Skeleton_neck_joint_2`; Bob: `spine`, `neck`, `head`.
 * @returns skeleton indices, or an empty list when no joint is named like a head or neck, or when none of its
 *   ancestors is (a head with no neck or spine above it is the whole body, as the built-in octopus's root `head`)
 */
export function findLookAtChain(skeleton: Skeleton, extra = 2): number[] {
  const names = skeleton.names;
  let head = names.findIndex((name) => HEAD.test(name) && !NOT_HEAD.test(name));
  if (head < 0) {
    for (let j = 0; j < skeleton.jointCount; j++) if (NECK.test(names[j])) head = j;
  }
  if (head < 0) return [];
  const chain = [head];
  for (let p = skeleton.parents[head]; p >= 0 && chain.length <= extra && TRUNK.test(names[p]); p = skeleton.parents[p]) chain.unshift(p);
  // A head with no neck or spine above it is the whole body (the built-in octopus's root is named head).
  return chain.length >= 2 ? chain : [];
}
