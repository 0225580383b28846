import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VRMHumanBoneParentMap } from '@pixiv/three-vrm';
import { HUMANOID_BONES, HUMANOID_BONE_NAMES, humanoidBoneIndex, humanoidParentOf } from '../../../src/humanoid/humanoid-bones.ts';

// The published schema type (VRMC_vrm-1.0 humanoid.md's bone list) read as text: an expectation independent of
// the table's own construction.
const require = createRequire(import.meta.url);
const typesDir = dirname(require.resolve('@pixiv/types-vrmc-vrm-1.0/package.json'));
const schemaNames = [...readFileSync(join(typesDir, 'types/HumanoidHumanBoneName.d.ts'), 'utf8').matchAll(/'(\w+)'/g)].map((m) => m[1]);

describe('HUMANOID_BONES', () => {
  it('holds the 55 bones of the VRM 1.0 schema, each once', () => {
    expect(schemaNames.length).toBe(55);
    expect(HUMANOID_BONES.length).toBe(55);
    expect(new Set(HUMANOID_BONE_NAMES).size).toBe(55);
    expect([...HUMANOID_BONE_NAMES].sort()).toEqual([...schemaNames].sort());
  });

  it('requires the 15 bones VRMC_vrm-1.0 humanoid.md requires, no others', () => {
    const required = HUMANOID_BONES.filter((b) => b.required).map((b) => b.name).sort();
    expect(required).toEqual([
      'head', 'hips', 'leftFoot', 'leftHand', 'leftLowerArm', 'leftLowerLeg', 'leftUpperArm', 'leftUpperLeg',
      'rightFoot', 'rightHand', 'rightLowerArm', 'rightLowerLeg', 'rightUpperArm', 'rightUpperLeg', 'spine',
    ]);
  });

  it('gives each bone the parent three-vrm gives it, parents first', () => {
    for (const [i, bone] of HUMANOID_BONES.entries()) {
      expect(bone.parent, bone.name).toBe((VRMHumanBoneParentMap as Record<string, string | null>)[bone.name]);
      if (bone.parent !== null) expect(humanoidBoneIndex(bone.parent)).toBeLessThan(i);
      expect(humanoidBoneIndex(bone.name)).toBe(i);
    }
    expect(humanoidBoneIndex('leftThumbIntermediate')).toBe(-1);
  });

  it('humanoidParentOf skips absent optional bones', () => {
    expect(humanoidParentOf('neck', { hips: 0, spine: 1, chest: 2 })).toBe('chest');
    expect(humanoidParentOf('leftUpperArm', { hips: 0, spine: 1 })).toBe('spine');
    expect(humanoidParentOf('leftIndexDistal', { leftHand: 9 })).toBe('leftHand');
    expect(humanoidParentOf('hips', { hips: 0 })).toBe(null);
  });
});
