import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { buildAvatarVrm0 } from '../../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import { expectSameJoints, sinewJoints, threeVrmJoints } from './spring-joint-views.ts';

describe('the generated avatar loads with its spring bones and node constraints, without a warning', () => {
  for (const [version, build] of [['1.0', buildAvatarVrm1], ['0.x', buildAvatarVrm0]] as const) {
    it(`VRM ${version}: springs, colliders of every shape it has, constraints; the same joints as three-vrm's loader`, async () => {
      const glb = await build({ texture: false });
      const asset = await parseGltf('avatar.vrm', glb);
      expect(asset.warnings).toEqual([]);
      const motion = asset.secondaryMotion!;
      const bone = motion.springBone!;
      const joints = sinewJoints(asset);
      // The bench avatar: at least 60 spring joints and 10 colliders.
      expect(joints.length).toBeGreaterThanOrEqual(60);
      expect(bone.colliders.length).toBeGreaterThanOrEqual(10);
      // The generated 1.0 avatar has a constraint chain per arm; VRM 0.x has no constraints.
      if (version === '1.0') expect(motion.nodeConstraints.length).toBeGreaterThan(0);
      expectSameJoints(joints, await threeVrmJoints(glb));
    });
  }
});
