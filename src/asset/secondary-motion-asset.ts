/**
 * A model's secondary motion, as its file declares it: spring bones (VRMC_springBone 1.0, its extended colliders,
 * VRM 0.x `secondaryAnimation` converted) and node constraints (VRMC_node_constraint 1.0). Read by the loader
 * into {@link ModelAsset.secondaryMotion}; run each frame as pose jobs after the clip, the blending and the
 * avatar's expressions and before the matrix stages (constraints first, then springs), so the GPU palette and the
 * CPU reference see one pose. Joint and node indices are skeleton joint indices (every glTF node is a joint of
 * `ModelAsset.skeleton`). Lengths are in the model's units (metres for glTF and VRM), seconds for time.
 *
 * @see ModelAsset.secondaryMotion
 */
export interface SecondaryMotionAsset {
  /** The spring bones, or null when the file has none (or none survived the loader's checks). */
  readonly springBone: SpringBoneAsset | null;
  /**
   * The node constraints in evaluation order: every constraint's source (and, for aim and rotation, the
   * source's ancestors) before the constraint that reads it, so one pass in this order is what VRMC_node_constraint
   * 1.0 ("Order of evaluation") asks. A cycle was broken by the loader (one warning). Empty when none.
   */
  readonly nodeConstraints: readonly NodeConstraintAsset[];
}

/** VRMC_springBone 1.0: colliders, collider groups and springs (chains of joints). */
export interface SpringBoneAsset {
  readonly colliders: readonly SpringColliderAsset[];
  readonly colliderGroups: readonly SpringColliderGroupAsset[];
  /** The springs, in file order (VRMC_springBone 1.0 `springs`). */
  readonly springs: readonly SpringAsset[];
}

/**
 * A collider: a shape attached to a node, in that node's space (`offset`, `tail`, `normal` are node-local
 * coordinates; `radius` in world units, not scaled by the node's scale, as three-vrm 3.5.5 reads it).
 */
export interface SpringColliderAsset {
  /** Joint index of the node the shape moves with. */
  readonly node: number;
  readonly shape: SpringColliderShape;
}

/**
 * A collider's shape. `sphere` and `capsule` come from VRMC_springBone 1.0 (`inside` false); `plane` and the
 * `inside` forms come from VRMC_springBone_extended_collider 1.0, which a reader prefers over the base shape
 * when the file gives both. A capsule is the segment `offset`–`tail` swept by `radius`; a plane is the half-space
 * on the negative side of `normal` through `offset` (a joint is pushed out along `normal`).
 */
export type SpringColliderShape =
  | { readonly kind: 'sphere'; readonly offset: Vec3; readonly radius: number; readonly inside: boolean }
  | { readonly kind: 'capsule'; readonly offset: Vec3; readonly tail: Vec3; readonly radius: number; readonly inside: boolean }
  | { readonly kind: 'plane'; readonly offset: Vec3; readonly normal: Vec3 };

/** A named set of colliders (indices into {@link SpringBoneAsset.colliders}). */
export interface SpringColliderGroupAsset {
  readonly name: string;
  readonly colliders: readonly number[];
}

/**
 * A spring: a chain of joints, each the child (a descendant) of the one before. Every joint but the last is
 * simulated with its own settings; the last is the chain's tail (its settings unused), as VRMC_springBone 1.0
 * `springs[].joints` defines. A VRM 0.x bone group becomes one spring per chain: the group's root to each leaf, the
 * leaf followed by a virtual tail at 7 cm along the leaf's own offset (`virtualTail`), as three-vrm builds it.
 */
export interface SpringAsset {
  readonly name: string;
  /** The chain, parents first; at least two entries, or one with {@link virtualTail}. */
  readonly joints: readonly SpringJointAsset[];
  /** Indices into {@link SpringBoneAsset.colliderGroups} whose colliders this spring's joints collide with. */
  readonly colliderGroups: readonly number[];
  /** Joint index of the `center` node whose space the tails are kept in, or −1 (the model's world space). */
  readonly center: number;
  /**
   * For a chain whose last simulated joint has no tail joint (VRM 0.x leaves): the tail in that joint's local
   * space, or null when the last entry of {@link joints} is the tail.
   */
  readonly virtualTail: Vec3 | null;
}

/** One joint of a spring with its settings (VRMC_springBone 1.0 `springs[].joints[]`, defaults applied). */
export interface SpringJointAsset {
  readonly node: number;
  /** Radius of the joint's tail sphere for collisions, node units (default 0). */
  readonly hitRadius: number;
  /** Pull back to the rest direction, per second (default 1). */
  readonly stiffness: number;
  /** Gravity's strength, units per second (default 0). */
  readonly gravityPower: number;
  /** Gravity's direction in world space, unit length (default (0, −1, 0)). */
  readonly gravityDir: Vec3;
  /** Velocity damping in [0, 1] (default 0.5; VRM 0.x's `dragForce` as is). */
  readonly dragForce: number;
}

/**
 * A node constraint (VRMC_node_constraint 1.0): the destination node's rotation driven by a source node.
 * - `roll`: the source's rotation about `rollAxis`, relative to its rest, applied about the destination's same axis;
 * - `aim`: the destination's `aimAxis` turned toward the source's world position;
 * - `rotation`: the source's rotation relative to its rest, applied to the destination's rest.
 * Each blends from the destination's rest rotation by `weight` in [0, 1].
 */
export type NodeConstraintAsset =
  | { readonly kind: 'roll'; readonly node: number; readonly source: number; readonly weight: number; readonly rollAxis: 'X' | 'Y' | 'Z' }
  | { readonly kind: 'aim'; readonly node: number; readonly source: number; readonly weight: number; readonly aimAxis: AimAxis }
  | { readonly kind: 'rotation'; readonly node: number; readonly source: number; readonly weight: number };

/** VRMC_node_constraint 1.0 `aim.aimAxis`. */
export type AimAxis = 'PositiveX' | 'NegativeX' | 'PositiveY' | 'NegativeY' | 'PositiveZ' | 'NegativeZ';

/** A 3-vector `[x, y, z]`. */
export type Vec3 = readonly [number, number, number];

/**
 * The joints a model's secondary motion drives: every joint of every spring (the tails included: they ride on the
 * joints before them) and every node constraint's destination. Retargeting does not count these as joints a clip
 * leaves at rest (`retargetClipLibrary`'s unmatched-joints warning): a humanoid clip is not meant to animate hair.
 * @returns joint indices, ascending
 */
export function secondaryMotionJoints(motion: SecondaryMotionAsset | undefined): number[] {
  const joints = new Set<number>();
  for (const spring of motion?.springBone?.springs ?? []) for (const joint of spring.joints) joints.add(joint.node);
  for (const constraint of motion?.nodeConstraints ?? []) joints.add(constraint.node);
  return [...joints].sort((a, b) => a - b);
}
