import { quat } from 'gl-matrix';
import type { HumanoidBoneName } from '../../../src/asset/avatar-asset.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';
import { createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { HUMANOID_BONES, humanoidParentOf } from '../../../src/humanoid/humanoid-bones.ts';
import { quatConjugateMultiplyAt, quatConjugateRotateAt } from '../../../src/math/quaternion.ts';

/** A seeded generator (mulberry32), so a failure repeats. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomRotation(next: () => number): number[] {
  const q = quat.normalize(quat.create(), [next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5]);
  return [q[0], q[1], q[2], q[3]];
}

/** A bone's rest offset from its humanoid parent in model space (metres; +X is the avatar's left, it faces +Z). */
function offsetOf(bone: string): [number, number, number] {
  const side = bone.startsWith('left') ? 1 : bone.startsWith('right') ? -1 : 0;
  const part = bone.replace(/^(left|right)/, '');
  const fingerZ: Record<string, number> = { Thumb: 0.04, Index: 0.02, Middle: 0, Ring: -0.02, Little: -0.04 };
  const finger = /^(Thumb|Index|Middle|Ring|Little)/.exec(part);
  if (finger) return /Metacarpal|^(Index|Middle|Ring|Little)Proximal/.test(part) ? [side * 0.08, 0, fingerZ[finger[1]]] : [side * 0.03, 0, 0];
  const table: Record<string, [number, number, number]> = {
    hips: [0, 1, 0], spine: [0, 0.1, 0], chest: [0, 0.12, 0], upperChest: [0, 0.12, 0], neck: [0, 0.12, 0], head: [0, 0.1, 0],
    Eye: [side * 0.03, 0.06, 0.08], jaw: [0, -0.02, 0.05],
    UpperLeg: [side * 0.1, -0.05, 0], LowerLeg: [0, -0.42, 0], Foot: [0, -0.42, 0], Toes: [0, -0.05, 0.12],
    Shoulder: [side * 0.04, 0.08, 0], UpperArm: [side * 0.1, 0, 0], LowerArm: [side * 0.26, 0, 0], Hand: [side * 0.24, 0, 0],
  };
  return table[part];
}

/** A synthetic humanoid rig ({@link syntheticHumanoid}). */
export interface SyntheticHumanoid {
  readonly skeleton: Skeleton;
  readonly restPose: LocalPose;
  /** Humanoid bone → joint, the bones named. */
  readonly bones: Partial<Record<HumanoidBoneName, number>>;
  /** Per joint, its rest model rotation (x, y, z, w). */
  readonly modelRotations: number[][];
  /** Per joint, its rest model position. */
  readonly modelPositions: number[][];
}

/**
 * A humanoid rig: a root `Armature` (turned and moved), then every bone `nameOf` names (null: the rig lacks it; its
 * children hang from the nearest named humanoid ancestor) in HUMANOID_BONES order, at a T-pose's positions times
 * `scale`, each joint's rest model rotation random (seeded): the same body in rig-specific joint frames. With
 * `twist`, an unnamed-in-the-table joint `<name>_twist` sits between each upper arm and its lower arm.
 */
export function syntheticHumanoid(nameOf: (bone: HumanoidBoneName) => string | null, seed: number, options: { scale?: number; twist?: boolean } = {}): SyntheticHumanoid {
  const next = random(seed);
  const scale = options.scale ?? 1;
  const names = ['Armature'], parents = [-1];
  const modelRotations = [randomRotation(next)], modelPositions = [[0.1, 0, -0.2]];
  const bones: Partial<Record<HumanoidBoneName, number>> = {};
  for (const { name } of HUMANOID_BONES) {
    const joint = nameOf(name);
    if (joint === null) continue;
    const parentBone = humanoidParentOf(name, bones);
    let parent = parentBone === null ? 0 : bones[parentBone]!;
    const o = offsetOf(name), base = modelPositions[parent];
    const position = [base[0] + scale * o[0], base[1] + scale * o[1], base[2] + scale * o[2]];
    if (options.twist && /LowerArm$/.test(name)) {
      names.push(`${names[parent]}_twist`); parents.push(parent);
      modelRotations.push(randomRotation(next));
      const p = modelPositions[parent];
      modelPositions.push([(p[0] + position[0]) / 2, (p[1] + position[1]) / 2, (p[2] + position[2]) / 2]);
      parent = names.length - 1;
    }
    bones[name] = names.length;
    names.push(joint); parents.push(parent);
    modelRotations.push(randomRotation(next));
    modelPositions.push(position);
  }
  const n = names.length;
  const restPose = createLocalPose(n);
  const d = new Float64Array(4);
  for (let j = 0; j < n; j++) {
    const p = parents[j];
    if (p < 0) {
      restPose.rotations.set(modelRotations[j], 4 * j);
      restPose.translations.set(modelPositions[j], 3 * j);
      continue;
    }
    quatConjugateMultiplyAt(d, 0, modelRotations[p], 0, modelRotations[j], 0);
    restPose.rotations.set(d, 4 * j);
    const q = modelPositions[j], r = modelPositions[p];
    quatConjugateRotateAt(d, 0, modelRotations[p], 0, [q[0] - r[0], q[1] - r[1], q[2] - r[2]], 0);
    restPose.translations.set(d.subarray(0, 3), 3 * j);
  }
  const skeleton: Skeleton = { jointCount: n, names, parents: Int32Array.from(parents), sourceIndices: Int32Array.from(names, (_, i) => i) };
  return { skeleton, restPose, bones, modelRotations, modelPositions };
}

/** VRM's own names, capitalised (`Hips`, `LeftUpperArm`, `LeftThumbMetacarpal`): the `Hips/Spine/…` convention. */
export const humanoidNames = (bone: HumanoidBoneName): string => bone[0].toUpperCase() + bone.slice(1);
