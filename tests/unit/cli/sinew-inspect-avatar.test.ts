import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sinew } from './run-sinew.ts';
import { FACE2_NODE, FACE_NODE, nodeOfBone, smallVrm0, smallVrm1 } from '../loaders/vrm/small-avatar.ts';
import { springTree, treeNode } from '../loaders/vrm/spring-tree.ts';

let folder = '';
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'sinew-vrm-'));
  const v1 = smallVrm1({
    meta: { name: 'Small', authors: ['A'], licenseUrl: 'https://vrm.dev/licenses/1.0/', avatarPermission: 'everyone', commercialUsage: 'personalProfit' },
    expressions: { preset: { happy: { morphTargetBinds: [{ node: FACE_NODE, index: 0, weight: 1 }, { node: FACE2_NODE, index: 0, weight: 1 }], overrideBlink: 'block' } }, custom: { wink: { isBinary: true } } },
    lookAt: { type: 'bone' },
    firstPerson: { meshAnnotations: [{ node: FACE_NODE, type: 'thirdPersonOnly' }] },
  });
  v1.json.extensionsUsed.push('VRMC_springBone', 'VRMC_springBone_extended_collider', 'VRMC_node_constraint', 'VRMC_materials_mtoon');
  v1.json.extensions.VRMC_springBone = {
    specVersion: '1.0',
    colliders: [
      { node: nodeOfBone('head'), shape: { sphere: { radius: 0.1 } } },
      { node: nodeOfBone('chest'), shape: { capsule: { radius: 0.1, tail: [0, 0.2, 0] } } },
      { node: nodeOfBone('hips'), shape: { sphere: { radius: 0.1 } }, extensions: { VRMC_springBone_extended_collider: { specVersion: '1.0', shape: { plane: { normal: [0, 1, 0] } } } } },
    ],
    colliderGroups: [{ name: 'body', colliders: [0, 1, 2] }],
    springs: [{
      name: 'ribbon', center: nodeOfBone('hips'), colliderGroups: [0],
      joints: [{ node: nodeOfBone('leftUpperArm') }, { node: nodeOfBone('leftLowerArm') }, { node: nodeOfBone('leftHand') }],
    }],
  };
  v1.json.materials[0].extensions = { VRMC_materials_mtoon: { specVersion: '1.0', outlineWidthMode: 'worldCoordinates', outlineWidthFactor: 0.01 } };
  v1.json.nodes[nodeOfBone('rightLowerArm')].extensions = { VRMC_node_constraint: { specVersion: '1.0', constraint: { roll: { source: nodeOfBone('rightHand'), rollAxis: 'X' } } } };
  writeFileSync(join(folder, 'small.vrm'), v1.glb());
  writeFileSync(join(folder, 'old.vrm'), smallVrm0({ meta: { title: 'Old', licenseName: 'CC_BY' }, materialProperties: [{ name: 'Skin', shader: 'VRM/MToon', floatProperties: { _OutlineWidthMode: 2, _OutlineWidth: 0.5 } }, { name: 'Face', shader: 'VRM_USE_GLTFSHADER' }], blendShapeMaster: { blendShapeGroups: [{ name: 'Joy', presetName: 'joy', binds: [{ mesh: 1, index: 1, weight: 100 }] }] } }).glb());
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sinew inspect avatar.vrm', () => {
  it('--json: the avatar with meta (licence first), humanoid, the bones the rig lacks, expressions, look-at, first person; materials with MToon and outline', async () => {
    const result = await sinew('inspect', join(folder, 'small.vrm'), '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.format).toBe('glb');
    const avatar = report.avatar;
    expect(avatar.specVersion).toBe('1.0');
    expect(Object.keys(avatar.meta).slice(0, 3)).toEqual(['licenseUrl', 'avatarPermission', 'commercialUsage']);
    expect(avatar.meta).toMatchObject({ name: 'Small', authors: ['A'], avatarPermission: 'everyone', commercialUsage: 'personalProfit' });
    expect(avatar.humanoid[0]).toEqual({ bone: 'hips', node: nodeOfBone('hips'), name: 'hips' });
    expect(avatar.humanoid.find((b: { bone: string }) => b.bone === 'leftThumbMetacarpal')).toEqual({ bone: 'leftThumbMetacarpal', node: nodeOfBone('leftThumb1'), name: 'leftThumb1' });
    expect(avatar.humanoid).toHaveLength(21);
    expect(avatar.missingBones).toHaveLength(55 - 21);
    expect(avatar.missingBones).toContain('jaw');
    expect(avatar.missingRequiredBones).toEqual([]);
    expect(avatar.expressions).toEqual([
      { name: 'happy', preset: 'happy', isBinary: false, overrideBlink: 'block', overrideLookAt: 'none', overrideMouth: 'none', morphTargetBinds: 2, materialColorBinds: 0, textureTransformBinds: 0 },
      { name: 'wink', preset: null, isBinary: true, overrideBlink: 'none', overrideLookAt: 'none', overrideMouth: 'none', morphTargetBinds: 0, materialColorBinds: 0, textureTransformBinds: 0 },
    ]);
    expect(avatar.lookAt).toMatchObject({ type: 'bone', offsetFromHeadBone: [0, 0.06, 0], faceFront: [0, 0, 1], rangeMapVerticalUp: { inputMaxValue: 90, outputScale: 10 } });
    expect(avatar.firstPerson).toEqual([{ node: FACE_NODE, name: 'Face', type: 'thirdPersonOnly' }]);
    // MToon is read now: nothing is left for a later version, and the materials say which are MToon.
    expect(avatar.ignoredUntilLater).toEqual([]);
    expect(report.materials).toEqual([
      { name: 'Skin', mtoon: true, outlineWidthMode: 'worldCoordinates' }, { name: 'Face', mtoon: false, outlineWidthMode: null },
    ]);
    expect(report.warnings).toEqual([]);
    expect(report.secondaryMotion).toEqual({
      springBones: {
        joints: 2, colliders: { sphere: 1, capsule: 1, plane: 1, insideSphere: 0, insideCapsule: 0 }, colliderGroups: 1,
        springs: [{ name: 'ribbon', joints: 2, node: nodeOfBone('leftUpperArm'), nodeName: 'leftUpperArm', center: nodeOfBone('hips'), colliderGroups: 1 }],
      },
      nodeConstraints: { roll: 1, aim: 0, rotation: 0 },
    });
    // The triangle's vertices use 1, 2 and 1 of WEIGHTS_0's 4 slots.
    expect(report.meshes[0].primitives[0]).toMatchObject({ influencesPerVertex: 2, influenceSlots: 4 });
  });

  it('text: the licence and permissions before anything else, then the avatar\'s sections, then the model\'s', async () => {
    const result = await sinew('inspect', join(folder, 'small.vrm'));
    expect(result.code).toBe(0);
    const text = result.stdout;
    const blocks = text.split('\n\n');
    expect(blocks[0]).toMatch(/^small\.vrm: binary glTF, Y up, \d+ nodes$/);
    expect(blocks[1].split('\n').slice(0, 4)).toEqual([
      'avatar: VRM 1.0', 'licence: https://vrm.dev/licenses/1.0/', '  avatar permission: everyone', '  commercial usage: personalProfit',
    ]);
    const order = ['licence:', 'meta: Small', 'humanoid (21 bones)', 'expressions (2)', 'look-at: bone', 'first person (1',
      'spring bones: 1 spring, 2 simulated joints, 3 colliders (1 sphere, 1 capsule, 1 plane), 1 collider group', 'node constraints (1): 1 roll, 0 aim, 0 rotation', 'scenes (', 'meshes (', 'materials (2, 1 MToon)'];
    const at = order.map((heading) => text.indexOf(heading));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toMatch(/^hips +1 +hips$/m);
    expect(text).toMatch(new RegExp(`^0 +ribbon +2 +${nodeOfBone('leftUpperArm')} +leftUpperArm +${nodeOfBone('hips')} +1$`, 'm'));
    expect(text).toMatch(/^0 +happy +happy +no +2 +0 +0 +block +none +none$/m);
    expect(text).toMatch(/^bones the rig lacks \(34\): upperChest, jaw, /m);
    expect(text).not.toMatch(/later version/);
    expect(text).toMatch(/^0 +Skin +MToon +worldCoordinates$/m);
    expect(text).toMatch(/^1 +Face +glTF +-$/m);
    // The influences column: what the vertices use (2), not WEIGHTS_0's 4 slots.
    expect(text).toMatch(/^ +0 +Body +0 +TRIANGLES +3 +- +1 +2 +0 +Skin$/m);
  });

  it('a VRM 0.x avatar: converted, its licence as a URL', async () => {
    const result = await sinew('inspect', join(folder, 'old.vrm'), '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    const avatar = report.avatar;
    expect(avatar.specVersion).toBe('0.x');
    expect(avatar.meta).toMatchObject({ name: 'Old', licenseUrl: 'https://creativecommons.org/licenses/by/4.0/', allowRedistribution: true });
    expect(avatar.expressions.map((e: { name: string; morphTargetBinds: number }) => [e.name, e.morphTargetBinds])).toEqual([['happy', 2]]);
    // 0.x MToon converted at load: `_OutlineWidthMode` 2 is screenCoordinates.
    expect(report.materials).toEqual([
      { name: 'Skin', mtoon: true, outlineWidthMode: 'screenCoordinates' }, { name: 'Face', mtoon: false, outlineWidthMode: null },
    ]);
    const text = (await sinew('inspect', join(folder, 'old.vrm'))).stdout;
    expect(text).toMatch(/^avatar: VRM 0\.x \(converted to 1\.0, turned to face \+Z\)$/m);
  });

  it('a glTF that is no avatar, with spring bones: no avatar section, its spring bones and node constraints', async () => {
    const tree = springTree({ VRMC_springBone: { specVersion: '1.0', springs: [{ joints: [{ node: treeNode('tail') }, { node: treeNode('tail1') }, { node: treeNode('tail2') }] }] } });
    writeFileSync(join(folder, 'tree.glb'), tree.glb());
    const report = JSON.parse((await sinew('inspect', join(folder, 'tree.glb'), '--json')).stdout);
    expect(report.avatar).toBeUndefined();
    expect(report.secondaryMotion.springBones.springs).toEqual([{ name: '', joints: 2, node: treeNode('tail'), nodeName: 'tail', center: null, colliderGroups: 0 }]);
    const text = (await sinew('inspect', join(folder, 'tree.glb'))).stdout;
    expect(text).toMatch(/^spring bones: 1 spring, 2 simulated joints, 0 colliders, 0 collider groups$/m);
    expect(text).toMatch(/^node constraints \(0\): 0 roll, 0 aim, 0 rotation$/m);
    expect(text).not.toMatch(/^avatar:/m);
  });

  it('a broken humanoid: exit 1, one line naming the bone and its pointer', async () => {
    const b = smallVrm1();
    delete b.json.extensions.VRMC_vrm.humanoid.humanBones.rightFoot;
    writeFileSync(join(folder, 'broken.vrm'), b.glb());
    const result = await sinew('inspect', join(folder, 'broken.vrm'));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('sinew: broken.vrm: /extensions/VRMC_vrm/humanoid/humanBones/rightFoot is missing: rightFoot is a required humanoid bone\n');
  });
});
