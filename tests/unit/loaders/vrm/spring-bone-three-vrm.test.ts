import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { expectSameJoints, sinewJoints, threeVrmJoints } from './spring-joint-views.ts';
import { nodeOfBone, smallVrm0, smallVrm1 } from './small-avatar.ts';

describe('spring bones as three-vrm\'s loader reads them (the reference)', () => {
  it('VRM 1.0: the same joints, settings, colliders of every shape (extended preferred), centers', async () => {
    const EXT = 'VRMC_springBone_extended_collider';
    const b = smallVrm1();
    b.json.extensionsUsed.push('VRMC_springBone', EXT);
    const settings = (stiffness: number) => ({ hitRadius: 0.02, stiffness, gravityPower: 0.4, gravityDir: [0.6, -0.8, 0], dragForce: 0.3 });
    b.json.extensions.VRMC_springBone = {
      specVersion: '1.0',
      colliders: [
        { node: nodeOfBone('head'), shape: { sphere: { offset: [0, 0.05, 0.01], radius: 0.09 } } },
        { node: nodeOfBone('chest'), shape: { capsule: { offset: [0.1, 0, 0], tail: [-0.1, 0, 0], radius: 0.07 } } },
        { node: nodeOfBone('hips'), shape: { sphere: { radius: 1 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { plane: { offset: [0, -0.1, 0], normal: [0, 0, 2] } } } } },
        { node: nodeOfBone('head'), shape: { sphere: { radius: 1 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { sphere: { offset: [0, 0.1, 0], radius: 0.4, inside: true } } } } },
        { node: nodeOfBone('spine'), shape: { capsule: { radius: 1 } }, extensions: { [EXT]: { specVersion: '1.0', shape: { capsule: { offset: [0, 0, 0], tail: [0, 0.3, 0], radius: 0.5, inside: true } } } } },
      ],
      colliderGroups: [{ name: 'head', colliders: [0, 3] }, { name: 'body', colliders: [1, 2, 4] }],
      springs: [
        { name: 'arm', colliderGroups: [0, 1], joints: [{ node: nodeOfBone('leftUpperArm'), ...settings(0.9) }, { node: nodeOfBone('leftLowerArm'), ...settings(0.7) }, { node: nodeOfBone('leftHand'), ...settings(0.5) }] },
        { name: 'thumb', center: nodeOfBone('hips'), colliderGroups: [1], joints: [{ node: nodeOfBone('leftThumb1'), ...settings(1.5) }, { node: nodeOfBone('leftThumb2'), ...settings(1) }] },
        { name: 'leg', joints: [{ node: nodeOfBone('rightUpperLeg'), ...settings(2) }, { node: nodeOfBone('rightFoot'), ...settings(2) }] },
      ],
    };
    const glb = b.glb();
    const asset = await parseGltf('s.vrm', glb);
    expect(asset.warnings).toEqual([]);
    const three = await threeVrmJoints(glb);
    expect(three).toHaveLength(4);
    expectSameJoints(sinewJoints(asset), three);
  });

  it('VRM 0.x: the same joints from a branching bone group, virtual tails, z-negated collider offsets, settings, gravity of a non-unit gravityDir', async () => {
    const glb = smallVrm0({
      secondaryAnimation: {
        colliderGroups: [
          { node: nodeOfBone('head'), colliders: [{ offset: { x: 0.01, y: 0.05, z: 0.03 }, radius: 0.09 }, { offset: { x: 0, y: 0.1, z: 0 }, radius: 0.02 }] },
          { node: nodeOfBone('chest'), colliders: [{ offset: { x: 0, y: 0, z: -0.04 }, radius: 0.12 }] },
        ],
        boneGroups: [
          // chest branches into neck (first child) and both upper arms.
          { comment: 'upper', stiffiness: 0.8, gravityPower: 0.2, gravityDir: { x: 0, y: -1, z: 0 }, dragForce: 0.35, hitRadius: 0.015, center: -1, colliderGroups: [0, 1], bones: [nodeOfBone('chest')] },
          { comment: 'leg', stiffiness: 1.2, gravityPower: 0.3, gravityDir: { x: 0, y: 0, z: 2 }, dragForce: 0.5, hitRadius: 0.01, center: nodeOfBone('hips'), colliderGroups: [1], bones: [nodeOfBone('leftUpperLeg')] },
        ],
      },
    }).glb();
    const asset = await parseGltf('old.vrm', glb);
    expect(asset.warnings).toEqual([]);
    const three = await threeVrmJoints(glb);
    // chest's subtree: chest, neck, head, leftEye, rightEye, Face, Face2, both arms (3 + 3, thumb 2); the leg: 3.
    expect(three.length).toBeGreaterThan(12);
    expectSameJoints(sinewJoints(asset), three);
    // Springs list a joint's simulated ancestors first.
    const springs = asset.secondaryMotion!.springBone!.springs;
    const seen = new Set<number>();
    for (const spring of springs) {
      const first = spring.joints[0].node;
      const parent = asset.skeleton.parents[first];
      const inGroup = springs.some((s) => s.name === spring.name && s.joints.some((j) => j.node === parent));
      if (inGroup) expect(seen.has(parent), `the spring starting at joint ${first} comes after its parent's`).toBe(true);
      for (const j of spring.joints) seen.add(j.node);
    }
  });
});
