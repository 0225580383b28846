import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import type { ModelAsset } from '../../../../src/asset/model-asset.ts';
import { loadErrorOf } from '../../helpers/load-error-of.ts';
import { BONES, FACE2_NODE, FACE_NODE, nodeOfBone, smallAvatar, smallVrm0, smallVrm1 } from './small-avatar.ts';

/** The skeleton joint of glTF node n. */
const jointOf = (asset: ModelAsset, node: number) => [...asset.skeleton.sourceIndices].indexOf(node);

describe('VRM 1.0 (VRMC_vrm)', () => {
  it('reads every meta field as given', async () => {
    const meta = {
      name: 'Small', version: '2', authors: ['A', 'B'], copyrightInformation: '© A', contactInformation: 'a@example.com',
      references: ['https://example.com/ref'], thirdPartyLicenses: 'none', thumbnailImage: 0, licenseUrl: 'https://vrm.dev/licenses/1.0/',
      avatarPermission: 'everyone', allowExcessivelyViolentUsage: true, allowExcessivelySexualUsage: false, commercialUsage: 'corporation',
      allowPoliticalOrReligiousUsage: true, allowAntisocialOrHateUsage: false, creditNotation: 'unnecessary', allowRedistribution: true,
      modification: 'allowModification', otherLicenseUrl: 'https://example.com/other',
    };
    const b = smallVrm1({ meta });
    b.json.images = [{ uri: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4////fwAJ+wP9KobjigAAAABJRU5ErkJggg==' }];
    const asset = await parseGltf('small.vrm', b.glb());
    expect(asset.avatar!.specVersion).toBe('1.0');
    expect(asset.avatar!.meta).toEqual(meta);
    expect(asset.warnings).toEqual([]);
  });

  it('gives VRM 1.0\'s defaults to absent meta fields, and to malformed ones with one warning', async () => {
    const asset = await parseGltf('small.vrm', smallVrm1({ meta: { name: 'S', authors: ['A'], licenseUrl: 'u', commercialUsage: 'everyone', allowRedistribution: 'yes' } }).glb());
    expect(asset.avatar!.meta).toMatchObject({
      name: 'S', authors: ['A'], licenseUrl: 'u', version: '', references: [], thumbnailImage: -1, avatarPermission: 'onlyAuthor',
      commercialUsage: 'personalNonProfit', allowRedistribution: false, modification: 'prohibited', creditNotation: 'required',
    });
    expect(asset.warnings).toEqual(["small.vrm: /extensions/VRMC_vrm/meta fields commercialUsage, allowRedistribution are malformed; VRM 1.0's defaults used"]);
  });

  it('maps every humanoid bone to its node\'s skeleton joint', async () => {
    const asset = await parseGltf('small.vrm', smallVrm1().glb());
    const bones = asset.avatar!.humanoid.bones;
    expect(Object.keys(bones)).toHaveLength(BONES.length);
    for (const [bone] of BONES) {
      const name = bone === 'leftThumb1' ? 'leftThumbMetacarpal' : bone === 'leftThumb2' ? 'leftThumbProximal' : bone;
      const joint = bones[name as keyof typeof bones]!;
      expect(asset.skeleton.sourceIndices[joint]).toBe(nodeOfBone(bone));
      expect(asset.skeleton.names[joint]).toBe(bone);
    }
  });

  it('renames a 1.0-beta file\'s thumbs as 0.x\'s (thumbIntermediate present)', async () => {
    const b = smallVrm1();
    const bones = b.json.extensions.VRMC_vrm.humanoid.humanBones;
    delete bones.leftThumbMetacarpal;
    delete bones.leftThumbProximal;
    bones.leftThumbProximal = { node: nodeOfBone('leftThumb1') };
    bones.leftThumbIntermediate = { node: nodeOfBone('leftThumb2') };
    const asset = await parseGltf('beta.vrm', b.glb());
    expect(asset.avatar!.humanoid.bones.leftThumbMetacarpal).toBe(jointOf(asset, nodeOfBone('leftThumb1')));
    expect(asset.avatar!.humanoid.bones.leftThumbProximal).toBe(jointOf(asset, nodeOfBone('leftThumb2')));
  });

  it('reads preset and custom expressions: morph binds by node, colour and texture binds, overrides', async () => {
    const expressions = {
      preset: {
        happy: { morphTargetBinds: [{ node: FACE_NODE, index: 0, weight: 1 }, { node: FACE2_NODE, index: 1, weight: 0.5 }], overrideBlink: 'block', overrideMouth: 'blend' },
        blink: { isBinary: true, materialColorBinds: [{ material: 1, type: 'emissionColor', targetValue: [1, 0.5, 0.25, 1] }] },
      },
      custom: { wink: { textureTransformBinds: [{ material: 0, scale: [2, 3] }, { material: 1, offset: [0.25, 0.5] }], overrideLookAt: 'block' } },
    };
    const asset = await parseGltf('small.vrm', smallVrm1({ expressions }).glb());
    const face2 = asset.meshInstances.find((m) => m.sourceNode === FACE2_NODE)!;
    expect(face2.morphWeightOffset).toBe(2); // Face's two weights come first
    expect(asset.avatar!.expressions).toEqual([
      { name: 'happy', preset: 'happy', isBinary: false, overrideBlink: 'block', overrideLookAt: 'none', overrideMouth: 'blend',
        morphTargetBinds: [{ morphWeight: 0, weight: 1 }, { morphWeight: 3, weight: 0.5 }], materialColorBinds: [], textureTransformBinds: [] },
      { name: 'blink', preset: 'blink', isBinary: true, overrideBlink: 'none', overrideLookAt: 'none', overrideMouth: 'none',
        morphTargetBinds: [], materialColorBinds: [{ material: 1, type: 'emissionColor', targetValue: [1, 0.5, 0.25, 1] }], textureTransformBinds: [] },
      { name: 'wink', preset: null, isBinary: false, overrideBlink: 'none', overrideLookAt: 'block', overrideMouth: 'none',
        morphTargetBinds: [], materialColorBinds: [],
        textureTransformBinds: [{ material: 0, scale: [2, 3], offset: [0, 0] }, { material: 1, scale: [1, 1], offset: [0.25, 0.5] }] },
    ]);
    expect(asset.warnings).toEqual([]);
  });

  it('reads look-at as given, and the specification\'s defaults', async () => {
    const lookAt = {
      type: 'expression', offsetFromHeadBone: [0, 0.07, 0.02],
      rangeMapHorizontalInner: { inputMaxValue: 40, outputScale: 0.8 }, rangeMapHorizontalOuter: { inputMaxValue: 50 },
      rangeMapVerticalDown: { outputScale: 0.5 },
    };
    const given = await parseGltf('small.vrm', smallVrm1({ lookAt }).glb());
    expect(given.avatar!.lookAt).toEqual({
      type: 'expression', offsetFromHeadBone: [0, 0.07, 0.02],
      rangeMapHorizontalInner: { inputMaxValue: 40, outputScale: 0.8 }, rangeMapHorizontalOuter: { inputMaxValue: 50, outputScale: 1 },
      rangeMapVerticalDown: { inputMaxValue: 90, outputScale: 0.5 }, rangeMapVerticalUp: { inputMaxValue: 90, outputScale: 1 },
    });
    const bone = await parseGltf('small.vrm', smallVrm1({ lookAt: {} }).glb());
    const defaults = { inputMaxValue: 90, outputScale: 10 };
    expect(bone.avatar!.lookAt).toEqual({
      type: 'bone', offsetFromHeadBone: [0, 0.06, 0],
      rangeMapHorizontalInner: defaults, rangeMapHorizontalOuter: defaults, rangeMapVerticalDown: defaults, rangeMapVerticalUp: defaults,
    });
    expect((await parseGltf('small.vrm', smallVrm1().glb())).avatar!.lookAt).toBeNull();
  });

  it('reads first-person annotations by node, as skeleton joints', async () => {
    const firstPerson = { meshAnnotations: [{ node: FACE_NODE, type: 'thirdPersonOnly' }, { node: FACE2_NODE + 1, type: 'both' }] };
    const asset = await parseGltf('small.vrm', smallVrm1({ firstPerson }).glb());
    expect(asset.avatar!.firstPerson.meshAnnotations).toEqual([{ node: jointOf(asset, FACE_NODE), type: 'thirdPersonOnly' }]);
    expect(asset.warnings).toEqual([`small.vrm: /extensions/VRMC_vrm/firstPerson/meshAnnotations/1/node is ${FACE2_NODE + 1}, not a node with a mesh; the first-person annotation is ignored`]);
  });

  it('a plain glTF has no avatar', async () => {
    expect((await parseGltf('small.glb', smallAvatar().glb())).avatar).toBeUndefined();
  });
});

describe('VRM 0.x (VRM), converted to 1.0', () => {
  it('maps meta onto VRM 1.0\'s fields', async () => {
    const b = smallVrm0({
      meta: {
        title: 'Old', version: '0.9', author: 'C', contactInformation: 'c@example.com', reference: 'https://example.com', texture: 0,
        allowedUserName: 'ExplicitlyLicensedPerson', violentUssageName: 'Allow', sexualUssageName: 'Disallow', commercialUssageName: 'Allow',
        licenseName: 'CC_BY_ND', otherLicenseUrl: 'https://example.com/other',
      },
    });
    b.json.images = [{ uri: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4////fwAJ+wP9KobjigAAAABJRU5ErkJggg==' }];
    b.json.textures = [{ source: 0 }];
    const asset = await parseGltf('old.vrm', b.glb());
    expect(asset.avatar!.specVersion).toBe('0.x');
    expect(asset.avatar!.meta).toEqual({
      name: 'Old', version: '0.9', authors: ['C'], copyrightInformation: '', contactInformation: 'c@example.com', references: ['https://example.com'],
      thirdPartyLicenses: '', thumbnailImage: 0, licenseUrl: 'https://creativecommons.org/licenses/by-nd/4.0/',
      avatarPermission: 'onlySeparatelyLicensedPerson', allowExcessivelyViolentUsage: true, allowExcessivelySexualUsage: false,
      commercialUsage: 'corporation', allowPoliticalOrReligiousUsage: false, allowAntisocialOrHateUsage: false, creditNotation: 'required',
      allowRedistribution: true, modification: 'prohibited', otherLicenseUrl: 'https://example.com/other',
    });
    const other = await parseGltf('other.vrm', smallVrm0({ meta: { licenseName: 'Other', otherLicenseUrl: 'https://example.com/l' } }).glb());
    expect(other.avatar!.meta).toMatchObject({ licenseUrl: 'https://example.com/l', allowRedistribution: false, modification: 'prohibited' });
    const cc0 = await parseGltf('cc0.vrm', smallVrm0({ meta: { licenseName: 'CC0' } }).glb());
    expect(cc0.avatar!.meta).toMatchObject({ licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/', creditNotation: 'unnecessary', modification: 'allowModificationRedistribution' });
  });

  it('maps the humanoid, 0.x thumbs one step up to 1.0\'s names', async () => {
    const asset = await parseGltf('old.vrm', smallVrm0().glb());
    const bones = asset.avatar!.humanoid.bones;
    expect(bones.leftThumbMetacarpal).toBe(jointOf(asset, nodeOfBone('leftThumb1')));
    expect(bones.leftThumbProximal).toBe(jointOf(asset, nodeOfBone('leftThumb2')));
    expect(bones.hips).toBe(jointOf(asset, nodeOfBone('hips')));
    expect(Object.keys(bones)).toHaveLength(BONES.length);
  });

  it('converts blend shape groups: preset names, weights /100, every node of a mesh, material values', async () => {
    const blendShapeMaster = {
      blendShapeGroups: [
        { name: 'Joy', presetName: 'joy', binds: [{ mesh: 1, index: 1, weight: 50 }] },
        { name: 'A', presetName: 'a', binds: [{ mesh: 1, index: 0 }], isBinary: true },
        { name: 'Blink_L', presetName: 'blink_l', materialValues: [{ materialName: 'Face', propertyName: '_Color', targetValue: [1, 0, 0, 1] }] },
        { name: 'Scroll', presetName: 'unknown', materialValues: [
          { materialName: 'Skin', propertyName: '_MainTex_ST', targetValue: [2, 0.5, 0.1, 0.2] },
          { materialName: 'Face', propertyName: '_RimColor', targetValue: [0, 1, 0, 1] },
        ] },
      ],
    };
    const asset = await parseGltf('old.vrm', smallVrm0({ blendShapeMaster }).glb());
    const none = { overrideBlink: 'none', overrideLookAt: 'none', overrideMouth: 'none' };
    expect(asset.avatar!.expressions).toEqual([
      { name: 'happy', preset: 'happy', isBinary: false, ...none, morphTargetBinds: [{ morphWeight: 1, weight: 0.5 }, { morphWeight: 3, weight: 0.5 }], materialColorBinds: [], textureTransformBinds: [] },
      { name: 'aa', preset: 'aa', isBinary: true, ...none, morphTargetBinds: [{ morphWeight: 0, weight: 1 }, { morphWeight: 2, weight: 1 }], materialColorBinds: [], textureTransformBinds: [] },
      { name: 'blinkLeft', preset: 'blinkLeft', isBinary: false, ...none, morphTargetBinds: [], materialColorBinds: [{ material: 1, type: 'color', targetValue: [1, 0, 0, 1] }], textureTransformBinds: [] },
      // _MainTex_ST (2, 0.5, 0.1, 0.2): scale (2, 0.5), offset (0.1, 1 − 0.2 − 0.5).
      { name: 'Scroll', preset: null, isBinary: false, ...none, morphTargetBinds: [],
        materialColorBinds: [{ material: 1, type: 'rimColor', targetValue: [0, 1, 0, 1] }],
        textureTransformBinds: [{ material: 0, scale: [2, 0.5], offset: [0.1, 1 - 0.2 - 0.5] }] },
    ]);
    expect(asset.warnings).toEqual([]);
  });

  it('reads look-at from firstPerson: degree maps, offset with z flipped, face front −Z', async () => {
    const firstPerson = {
      firstPersonBone: nodeOfBone('head'), firstPersonBoneOffset: { x: 0.01, y: 0.08, z: 0.03 }, lookAtTypeName: 'BlendShape',
      lookAtHorizontalInner: { curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 30, yRange: 0.9 }, lookAtVerticalUp: { xRange: 20 },
      meshAnnotations: [{ mesh: 1, firstPersonFlag: 'ThirdPersonOnly' }, { mesh: 0, firstPersonFlag: 'Both' }],
    };
    const asset = await parseGltf('old.vrm', smallVrm0({ firstPerson }).glb());
    expect(asset.avatar!.lookAt).toEqual({
      type: 'expression', offsetFromHeadBone: [0.01, 0.08, -0.03], faceFront: [0, 0, -1],
      rangeMapHorizontalInner: { inputMaxValue: 30, outputScale: 0.9 }, rangeMapHorizontalOuter: { inputMaxValue: 90, outputScale: 1 },
      rangeMapVerticalDown: { inputMaxValue: 90, outputScale: 1 }, rangeMapVerticalUp: { inputMaxValue: 20, outputScale: 1 },
    });
    // Mesh 1 is carried by Face and Face2: both annotated.
    expect(asset.avatar!.firstPerson.meshAnnotations).toEqual([
      { node: jointOf(asset, FACE_NODE), type: 'thirdPersonOnly' }, { node: jointOf(asset, FACE2_NODE), type: 'thirdPersonOnly' },
      { node: jointOf(asset, FACE_NODE - 1), type: 'both' },
    ]);
    const bone = await parseGltf('old.vrm', smallVrm0({ firstPerson: { lookAtTypeName: 'Bone' } }).glb());
    expect(bone.avatar!.lookAt).toMatchObject({ type: 'bone', offsetFromHeadBone: [0, 0.06, 0], rangeMapVerticalUp: { inputMaxValue: 90, outputScale: 10 } });
  });

  it('prefers VRMC_vrm when a file has both', async () => {
    const b = smallVrm1();
    b.json.extensions.VRM = smallVrm0().json.extensions.VRM;
    expect((await parseGltf('both.vrm', b.glb())).avatar!.specVersion).toBe('1.0');
  });
});
