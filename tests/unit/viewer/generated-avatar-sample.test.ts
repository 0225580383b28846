import { describe, expect, it } from 'vitest';
import { sampleModels, sampleShowing } from '../../../src/viewer/sample-models.ts';
import { generatedAvatarFile } from '../../../src/viewer/generated-avatar-sample.ts';
import { AVATAR_EXTRA_JOINTS } from '../../../src/procedural/avatar/avatar-extra-joints.ts';
import { loadModelFromFiles } from '../../../src/loaders/fetch/load-model-from-files.ts';
import { modelFormatOf } from '../../../src/loaders/load-model.ts';

describe('the viewer\'s generated VRM avatar sample', () => {
  it('is offered second, made in the page (no URL), in development and in the built site', () => {
    for (const development of [true, false]) {
      expect(sampleModels(development).candidates[1]).toEqual({ label: 'VRM avatar (generated)', url: null, generated: 'vrm-avatar' });
    }
  });

  it('is the entry the list shows for its file, of either extension, and only for it', () => {
    const { candidates } = sampleModels(true);
    expect(sampleShowing(candidates, 'generated-avatar.glb')?.label).toBe('VRM avatar (generated)');
    expect(sampleShowing(candidates, 'Generated-Avatar.vrm')?.label).toBe('VRM avatar (generated)');
    expect(sampleShowing(candidates, 'octopus (built-in)')?.label).toBe('Octopus (built-in)');
    expect(sampleShowing(candidates, 'Fox.glb')?.label).toBe('Fox.glb');
    expect(sampleShowing(candidates, 'avatar.glb')).toBeUndefined();
    expect(sampleShowing(candidates, 'generated-avatar-toon.vrm')?.label).toBe('VRM avatar, toon (generated)');
  });

  it('has a toon twin third: the same avatar in MToon (VRMC_materials_mtoon on every material)', async () => {
    for (const development of [true, false]) {
      expect(sampleModels(development).candidates[2]).toEqual({ label: 'VRM avatar, toon (generated)', url: null, generated: 'vrm-avatar-toon' });
    }
    const file = await generatedAvatarFile('vrm-avatar-toon');
    expect(file.name).toBe(modelFormatOf('a.vrm') !== null ? 'generated-avatar-toon.vrm' : 'generated-avatar-toon.glb');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true)))) as { materials: { extensions?: Record<string, unknown> }[] };
    expect(json.materials.length).toBe(7);
    for (const material of json.materials) expect(material.extensions?.VRMC_materials_mtoon).toBeDefined();
    const plain = new Uint8Array(await (await generatedAvatarFile()).arrayBuffer());
    expect(new TextDecoder().decode(plain)).not.toContain('VRMC_materials_mtoon');
  });

  it('is a file Sinew opens as a skinned model of 55 humanoid joints and the spring and constraint joints, with the face\'s 18 morph targets', async () => {
    const file = await generatedAvatarFile();
    expect(file.name).toBe(modelFormatOf('a.vrm') !== null ? 'generated-avatar.vrm' : 'generated-avatar.glb');
    const asset = await loadModelFromFiles([file]);
    // The 55 humanoid bones, then the joints the spring chains and the node constraints add (issue 34).
    expect(asset.skins[0].joints.length).toBe(55 + AVATAR_EXTRA_JOINTS.length);
    expect(AVATAR_EXTRA_JOINTS.length).toBeGreaterThan(60);
    expect(asset.secondaryMotion?.springBone?.springs.length).toBeGreaterThan(0);
    expect(asset.meshes.map((mesh) => mesh.name)).toEqual(['Body', 'Face', 'Hair', 'NeckCap']);
    expect(asset.meshes[1].morphTargetCount).toBe(18);
    expect(asset.meshes[1].primitives.every((primitive) => primitive.morphTargets?.positions)).toBe(true);
  });
});
