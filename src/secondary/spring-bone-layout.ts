import type { SpringBoneAsset } from '../asset/secondary-motion-asset.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import type { Skeleton } from '../skeleton/skeleton.ts';
import { multiplyTrsAt } from './secondary-math.ts';

/** Collider shape codes in {@link SpringBoneLayout.colliderKinds}. */
export const COLLIDER_SPHERE = 0;
export const COLLIDER_CAPSULE = 1;
export const COLLIDER_PLANE = 2;

/**
 * A {@link SpringBoneAsset} compiled once for a skeleton and its rest pose into flat arrays: what `SpringBoneJob`
 * (and the WebAssembly kernel) read each frame. J simulated joints ("entries": springs in file order, each spring's
 * joints parents first, the tail joint not counted), S springs, C colliders, n skeleton joints.
 *
 * The rest-pose values are three-vrm's `setInitState` (VRMSpringBoneJoint): the initial local rotation and matrix,
 * the child's initial local position (the tail joint's rest translation, or the spring's virtual tail) and the
 * bone axis (that position normalised).
 */
export interface SpringBoneLayout {
  readonly jointCount: number;
  readonly springCount: number;
  /** `Int32Array(J)`: the skeleton joint entry e simulates. */
  readonly nodes: Int32Array;
  /** `Int32Array(J)`: the joint whose position is entry e's tail (the next joint of its spring), −1 for a virtual tail. */
  readonly children: Int32Array;
  /** `Int32Array(J)`: the spring's `center` joint, −1 for world space. */
  readonly centers: Int32Array;
  /** `Int32Array(S)`: each spring's first entry (its chain root, what a teleport is measured on). */
  readonly springRoots: Int32Array;
  /**
   * `Float64Array(8J)` at 8e: hitRadius, stiffness, gravityPower, gravityDir x, y, z, dragForce, 0
   * (VRMC_springBone 1.0 `springs[].joints[]`).
   */
  readonly settings: Float64Array;
  /** `Float64Array(4J)`: the initial (rest) local rotation (x, y, z, w). */
  readonly initialRotations: Float64Array;
  /** `Float64Array(16J)`: the initial (rest) local matrix T·R·S, column-major. */
  readonly initialMatrices: Float64Array;
  /** `Float64Array(3J)`: the child's initial position in the joint's local space. */
  readonly childPositions: Float64Array;
  /** `Float64Array(3J)`: the bone axis, {@link childPositions} normalised (zero stays zero, as three.js's `normalize`). */
  readonly boneAxes: Float64Array;
  /** `Float64Array(3J)`: the bone axis through the initial local matrix, normalised (its parent-space rest direction). */
  readonly restAxes: Float64Array;
  /** Entry e's colliders are `colliderLists[colliderStarts[e] … colliderStarts[e+1])`, collider-group order. */
  readonly colliderStarts: Int32Array;
  readonly colliderLists: Int32Array;
  /** `Int32Array(C)`: the joint each collider moves with. */
  readonly colliderNodes: Int32Array;
  /** `Uint8Array(C)`: {@link COLLIDER_SPHERE}, {@link COLLIDER_CAPSULE} or {@link COLLIDER_PLANE}. */
  readonly colliderKinds: Uint8Array;
  /** `Uint8Array(C)`: 1 for the extended collider's inside sphere or capsule. */
  readonly colliderInside: Uint8Array;
  /** `Float64Array(3C)`: the shape's offset in its node's space. */
  readonly colliderOffsets: Float64Array;
  /** `Float64Array(3C)`: a capsule's tail or a plane's normal in its node's space (zero for a sphere). */
  readonly colliderVectors: Float64Array;
  /** `Float64Array(C)`: the radius (node units, not scaled, as three-vrm 3.5.5's shapes), 0 for a plane. */
  readonly colliderRadii: Float64Array;
  /**
   * `Int32Array(J)`: the order the entries are simulated in, three-vrm's (VRMSpringBoneManager `_sortJoints`): each
   * entry after the entries on its parent's ancestors and on its colliders' nodes' ancestors (a cycle is left
   * where it was found, as three-vrm's "Circular dependency" warning leaves it).
   */
  readonly order: Int32Array;
  /** `Int32Array`: every joint whose matrix the simulation reads (ancestors of the joints, tails, colliders, centers), ascending. */
  readonly needed: Int32Array;
  /**
   * After entry e has moved its joint, the needed joints to recompute from their parents, ascending:
   * `refresh[refreshStarts[e] … refreshStarts[e+1])`, the joint's needed descendants not at or under another
   * simulated joint (three-vrm's `traverseChildrenUntilConditionMet` after each joint).
   */
  readonly refreshStarts: Int32Array;
  readonly refresh: Int32Array;
}

/**
 * Compiles `springBone` for `skeleton` with its rest pose `restPose`.
 * @throws RangeError naming the spring, joint or collider when a joint index is out of the skeleton's range or a
 *   spring has too few joints (the loader drops such entries with a warning; this is for hand-made assets)
 */
export function compileSpringBoneLayout(springBone: SpringBoneAsset, skeleton: Skeleton, restPose: LocalPose): SpringBoneLayout {
  const n = skeleton.jointCount, parents = skeleton.parents;
  const checkJoint = (j: number, what: string): void => {
    if (!Number.isInteger(j) || j < 0 || j >= n) throw new RangeError(`SpringBoneJob: ${what} is joint ${j}, outside the skeleton's ${n} joints`);
  };
  const C = springBone.colliders.length;
  const colliderNodes = new Int32Array(C), colliderKinds = new Uint8Array(C), colliderInside = new Uint8Array(C);
  const colliderOffsets = new Float64Array(3 * C), colliderVectors = new Float64Array(3 * C), colliderRadii = new Float64Array(C);
  springBone.colliders.forEach((collider, c) => {
    checkJoint(collider.node, `collider ${c}'s node`);
    colliderNodes[c] = collider.node;
    const shape = collider.shape;
    colliderOffsets.set(shape.offset, 3 * c);
    if (shape.kind === 'sphere') {
      colliderKinds[c] = COLLIDER_SPHERE; colliderRadii[c] = shape.radius; colliderInside[c] = shape.inside ? 1 : 0;
    } else if (shape.kind === 'capsule') {
      colliderKinds[c] = COLLIDER_CAPSULE; colliderRadii[c] = shape.radius; colliderInside[c] = shape.inside ? 1 : 0;
      colliderVectors.set(shape.tail, 3 * c);
    } else {
      colliderKinds[c] = COLLIDER_PLANE; colliderVectors.set(shape.normal, 3 * c);
    }
  });

  const nodes: number[] = [], children: number[] = [], centers: number[] = [], springOf: number[] = [], colliderOf: number[][] = [];
  const springRoots = new Int32Array(springBone.springs.length);
  const settings: number[] = [], childPositions: number[] = [];
  springBone.springs.forEach((spring, s) => {
    const joints = spring.joints, simulated = spring.virtualTail ? joints.length : joints.length - 1;
    if (simulated < 1) throw new RangeError(`SpringBoneJob: spring ${s} (${spring.name}) has ${joints.length} joints and no virtual tail`);
    if (spring.center !== -1) checkJoint(spring.center, `spring ${s}'s center`);
    const colliders: number[] = [];
    for (const g of spring.colliderGroups) {
      const group = springBone.colliderGroups[g];
      if (!group) throw new RangeError(`SpringBoneJob: spring ${s} names collider group ${g} of ${springBone.colliderGroups.length}`);
      for (const c of group.colliders) {
        if (!(c >= 0 && c < C)) throw new RangeError(`SpringBoneJob: collider group ${g} names collider ${c} of ${C}`);
        colliders.push(c);
      }
    }
    springRoots[s] = nodes.length;
    for (let k = 0; k < simulated; k++) {
      const joint = joints[k], child = k + 1 < joints.length ? joints[k + 1].node : -1;
      checkJoint(joint.node, `spring ${s} joint ${k}`);
      if (child >= 0) checkJoint(child, `spring ${s} joint ${k + 1}`);
      nodes.push(joint.node); children.push(child); centers.push(spring.center); springOf.push(s); colliderOf.push(colliders);
      settings.push(joint.hitRadius, joint.stiffness, joint.gravityPower, joint.gravityDir[0], joint.gravityDir[1], joint.gravityDir[2], joint.dragForce, 0);
      if (child >= 0) childPositions.push(restPose.translations[3 * child], restPose.translations[3 * child + 1], restPose.translations[3 * child + 2]);
      else childPositions.push(...(spring.virtualTail ?? [0, 0, 0]));
    }
  });
  const J = nodes.length;
  const initialRotations = new Float64Array(4 * J), initialMatrices = new Float64Array(16 * J);
  const boneAxes = new Float64Array(3 * J), restAxes = new Float64Array(3 * J);
  for (let e = 0; e < J; e++) {
    const j = nodes[e];
    for (let k = 0; k < 4; k++) initialRotations[4 * e + k] = restPose.rotations[4 * j + k];
    multiplyTrsAt(initialMatrices, 16 * e, null, 0, restPose.translations, 3 * j, restPose.rotations, 4 * j, restPose.scales, 3 * j);
    const x = childPositions[3 * e], y = childPositions[3 * e + 1], z = childPositions[3 * e + 2];
    const l = Math.sqrt(x * x + y * y + z * z) || 1;
    boneAxes[3 * e] = x / l; boneAxes[3 * e + 1] = y / l; boneAxes[3 * e + 2] = z / l;
    const m = initialMatrices, o = 16 * e, ax = boneAxes[3 * e], ay = boneAxes[3 * e + 1], az = boneAxes[3 * e + 2];
    const rx = m[o] * ax + m[o + 4] * ay + m[o + 8] * az, ry = m[o + 1] * ax + m[o + 5] * ay + m[o + 9] * az, rz = m[o + 2] * ax + m[o + 6] * ay + m[o + 10] * az;
    const rl = Math.sqrt(rx * rx + ry * ry + rz * rz) || 1;
    restAxes[3 * e] = rx / rl; restAxes[3 * e + 1] = ry / rl; restAxes[3 * e + 2] = rz / rl;
  }

  // Simulation order: three-vrm's depth-first insertion over each joint's dependencies (its parent's ancestors and
  // its colliders' nodes' ancestors, root first), in the order the joints were added.
  const entriesOf = new Map<number, number[]>();
  for (let e = 0; e < J; e++) {
    const list = entriesOf.get(nodes[e]);
    if (list) list.push(e); else entriesOf.set(nodes[e], [e]);
  }
  const ancestorsFromRoot = (j: number): number[] => {
    const path: number[] = [];
    for (let a = j; a >= 0; a = parents[a]) path.unshift(a);
    return path;
  };
  const tried = new Uint8Array(J), done = new Uint8Array(J), order: number[] = [];
  const insert = (e: number): void => {
    if (done[e] || tried[e]) return;
    tried[e] = 1;
    const deps: number[] = [];
    if (parents[nodes[e]] >= 0) deps.push(parents[nodes[e]]);
    for (const c of colliderOf[e]) deps.push(colliderNodes[c]);
    for (const dep of deps) for (const a of ancestorsFromRoot(dep)) for (const other of entriesOf.get(a) ?? []) insert(other);
    order.push(e);
    done[e] = 1;
  };
  for (let e = 0; e < J; e++) insert(e);

  const isNeeded = new Uint8Array(n), isSimulated = new Uint8Array(n);
  const need = (j: number): void => { for (let a = j; a >= 0 && !isNeeded[a]; a = parents[a]) isNeeded[a] = 1; };
  for (let e = 0; e < J; e++) { need(nodes[e]); if (children[e] >= 0) need(children[e]); if (centers[e] >= 0) need(centers[e]); isSimulated[nodes[e]] = 1; }
  for (let c = 0; c < C; c++) need(colliderNodes[c]);
  const needed: number[] = [];
  for (let j = 0; j < n; j++) if (isNeeded[j]) needed.push(j);

  const refreshStarts = new Int32Array(J + 1), refresh: number[] = [];
  for (let e = 0; e < J; e++) {
    refreshStarts[e] = refresh.length;
    for (const m of needed) {
      if (m <= nodes[e] || isSimulated[m]) continue;
      let a = parents[m];
      while (a >= 0 && a !== nodes[e] && !isSimulated[a]) a = parents[a];
      if (a === nodes[e]) refresh.push(m);
    }
  }
  refreshStarts[J] = refresh.length;

  const colliderStarts = new Int32Array(J + 1), colliderLists: number[] = [];
  for (let e = 0; e < J; e++) { colliderStarts[e] = colliderLists.length; colliderLists.push(...colliderOf[e]); }
  colliderStarts[J] = colliderLists.length;

  return {
    jointCount: J, springCount: springBone.springs.length,
    nodes: Int32Array.from(nodes), children: Int32Array.from(children), centers: Int32Array.from(centers), springRoots,
    settings: Float64Array.from(settings), initialRotations, initialMatrices,
    childPositions: Float64Array.from(childPositions), boneAxes, restAxes,
    colliderStarts, colliderLists: Int32Array.from(colliderLists),
    colliderNodes, colliderKinds, colliderInside, colliderOffsets, colliderVectors, colliderRadii,
    order: Int32Array.from(order), needed: Int32Array.from(needed), refreshStarts, refresh: Int32Array.from(refresh),
  };
}
