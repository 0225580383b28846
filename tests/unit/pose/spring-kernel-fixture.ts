import type { SpringBoneAsset, SpringJointAsset } from '../../../src/asset/secondary-motion-asset.ts';
import { createLocalPose, type LocalPose } from '../../../src/skeleton/local-pose.ts';
import type { Skeleton } from '../../../src/skeleton/skeleton.ts';

/**
 * A hand-built rig for the spring kernel's tests: a root and hips, a four-joint chain (A) and a three-joint chain
 * whose middle link has a node between it and its tail (B, in the hips' center space), a one-joint chain with a
 * virtual tail (C), a chain hanging below chain A's second joint (D: it must run after A), and colliders of every
 * shape — sphere, capsule, plane, inside sphere, inside capsule — on a body node, in two collider groups.
 */
export function springRig(): { skeleton: Skeleton; rest: LocalPose; asset: SpringBoneAsset } {
  // 0 root, 1 hips, 2 body, 3–6 A, 7 B0, 8 B1, 9 between, 10 B tail, 11 C, 12–13 D
  const parents = Int32Array.from([-1, 0, 1, 1, 3, 4, 5, 1, 7, 8, 9, 1, 4, 12]);
  const n = parents.length;
  const skeleton: Skeleton = { jointCount: n, names: Array.from({ length: n }, (_, i) => `j${i}`), parents, sourceIndices: Int32Array.from(parents, (_, i) => i) };
  const rest = createLocalPose(n);
  const t: [number, number, number][] = [
    [0, 0, 0], [0, 1, 0], [0, 0.3, 0], [0.1, 0.5, 0], [0.02, -0.1, 0.01], [0, -0.1, 0.02], [0.01, -0.1, 0],
    [-0.1, 0.5, 0.05], [0, -0.12, 0], [0, -0.05, 0.01], [0.01, -0.06, 0], [0, 0.6, -0.1], [0.05, 0, 0.02], [0.05, -0.05, 0],
  ];
  t.forEach((v, i) => rest.translations.set(v, 3 * i));
  const q = (i: number, x: number, y: number, z: number, w: number): void => {
    const l = Math.hypot(x, y, z, w);
    rest.rotations.set([x / l, y / l, z / l, w / l], 4 * i);
  };
  q(4, 0.1, 0, 0.05, 1); q(8, 0, 0.2, 0, 1); q(9, 0.1, 0, 0, 1); q(12, 0, 0, 0.3, 1);
  rest.scales.set([1.1, 1.1, 1.1], 3 * 7);
  const joint = (node: number, k: Partial<SpringJointAsset> = {}): SpringJointAsset => ({
    node, hitRadius: 0.02, stiffness: 1, gravityPower: 0.5, gravityDir: [0, -1, 0], dragForce: 0.4, ...k,
  });
  const asset: SpringBoneAsset = {
    colliders: [
      { node: 2, shape: { kind: 'sphere', offset: [0.05, 0.1, 0], radius: 0.12, inside: false } },
      { node: 2, shape: { kind: 'capsule', offset: [0.1, 0.2, 0], tail: [0.1, -0.1, 0.05], radius: 0.05, inside: false } },
      { node: 2, shape: { kind: 'plane', offset: [0, -0.1, 0], normal: [0, 1, 0.2] } },
      { node: 1, shape: { kind: 'sphere', offset: [0, 0.6, 0], radius: 0.5, inside: true } },
      { node: 1, shape: { kind: 'capsule', offset: [0, 0.2, 0], tail: [0, 0.9, 0], radius: 0.45, inside: true } },
    ],
    colliderGroups: [{ name: 'body', colliders: [0, 1, 2] }, { name: 'inside', colliders: [3, 4] }],
    springs: [
      { name: 'A', joints: [joint(3, { stiffness: 0.8 }), joint(4, { gravityDir: [0.3, -0.9, 0.1], gravityPower: 1 }), joint(5, { dragForce: 0.6 }), joint(6)], colliderGroups: [0, 1], center: -1, virtualTail: null },
      { name: 'B', joints: [joint(7, { stiffness: 2 }), joint(8, { hitRadius: 0.05 }), joint(10)], colliderGroups: [0], center: 1, virtualTail: null },
      { name: 'C', joints: [joint(11, { gravityPower: 2, dragForce: 0.2 })], colliderGroups: [1], center: -1, virtualTail: [0, 0.07, 0] },
      { name: 'D', joints: [joint(12), joint(13)], colliderGroups: [1, 0], center: -1, virtualTail: null },
    ],
  };
  return { skeleton, rest, asset };
}

/** The rig's pose at time t (seconds): the root walks and turns, the hips sway and bob, the body leans. */
export function posRig(pose: LocalPose, rest: LocalPose, t: number): void {
  pose.translations.set(rest.translations);
  pose.rotations.set(rest.rotations);
  pose.scales.set(rest.scales);
  pose.translations.set([0.8 * t, 0.05 * Math.sin(9 * t), 0.3 * Math.sin(2 * t)], 0);
  const a = 0.6 * Math.sin(1.5 * t), b = 0.4 * Math.sin(7 * t), c = 0.3 * Math.cos(5 * t);
  pose.rotations.set([0, Math.sin(a / 2), 0, Math.cos(a / 2)], 0);
  pose.rotations.set([Math.sin(b / 2), 0, 0, Math.cos(b / 2)], 4);
  pose.rotations.set([0, 0, Math.sin(c / 2), Math.cos(c / 2)], 8);
}
