import { quat } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import type { SpringAsset, SpringBoneAsset, SpringColliderAsset, SpringJointAsset } from '../../../src/asset/secondary-motion-asset.ts';
import { createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

/**
 * A hand-built rig: root (0) → base (1) at (0, 1, 0) → h1 (2), h2 (3), tip (4), each 0.1 along +x of the one before
 * (a horizontal hair chain), and root → body (5) at (0, 0.6, 0) turned a quarter turn about +y (colliders ride on it:
 * body-local (a, b, c) is world (c, 0.6 + b, −a)).
 */
export function hairRig(): { skeleton: Skeleton; rest: LocalPose } {
  const names = ['root', 'base', 'h1', 'h2', 'tip', 'body'];
  const skeleton: Skeleton = { jointCount: 6, names, parents: Int32Array.from([-1, 0, 1, 2, 3, 0]), sourceIndices: Int32Array.from([0, 1, 2, 3, 4, 5]) };
  const rest = createLocalPose(6);
  rest.translations.set([0, 1, 0], 3);
  rest.translations.set([0.1, 0, 0], 6);
  rest.translations.set([0.1, 0, 0], 9);
  rest.translations.set([0.1, 0, 0], 12);
  rest.translations.set([0, 0.6, 0], 15);
  rest.rotations.set(quat.setAxisAngle(quat.create(), [0, 1, 0], Math.PI / 2), 20);
  return { skeleton, rest };
}

/** A spring joint with defaults and `fields`. */
export function joint(node: number, fields: Partial<SpringJointAsset> = {}): SpringJointAsset {
  return { node, hitRadius: 0, stiffness: 0, gravityPower: 1, gravityDir: [0, -1, 0], dragForce: 0.4, ...fields };
}

/** A spring over `nodes` (the last the tail) with the same joint settings. */
export function spring(nodes: number[], fields: Partial<SpringJointAsset> = {}, extra: Partial<SpringAsset> = {}): SpringAsset {
  return { name: 'hair', joints: nodes.map((n) => joint(n, fields)), colliderGroups: [], center: -1, virtualTail: null, ...extra };
}

/** Spring bones with `springs` and colliders (one group per collider, group i = collider i). */
export function springBone(springs: SpringAsset[], colliders: SpringColliderAsset[] = []): SpringBoneAsset {
  return { colliders, colliderGroups: colliders.map((_, i) => ({ name: `g${i}`, colliders: [i] })), springs };
}

/** Model-space position of every joint of the pose, [x, y, z] each. */
export function positions(skeleton: Skeleton, pose: LocalPose): number[][] {
  const m = localToModel(new Float32Array(16 * skeleton.jointCount), skeleton, pose);
  return Array.from({ length: skeleton.jointCount }, (_, j) => [m[16 * j + 12], m[16 * j + 13], m[16 * j + 14]]);
}

/** A minimal model asset (no meshes) with `secondaryMotion`. */
export function modelAsset(skeleton: Skeleton, rest: LocalPose, secondaryMotion: ModelAsset['secondaryMotion']): ModelAsset {
  return {
    name: 'hair.glb', skeleton, restPose: rest, meshes: [], skins: [], meshInstances: [], materials: [], images: [], clips: [],
    upAxis: 'y', warnings: [], secondaryMotion,
  } as unknown as ModelAsset;
}

export const dist = (a: number[], b: number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
