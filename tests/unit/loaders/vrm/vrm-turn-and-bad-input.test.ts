import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { loadModel } from '../../../../src/loaders/load-model.ts';
import { NEUTRAL_IMAGE_PNG } from '../../../../src/loaders/gltf/gltf-resources.ts';
import { evaluateModel } from '../../helpers/evaluate-model-reference.ts';
import { loadErrorOf } from '../../helpers/load-error-of.ts';
import { FACE_NODE, nodeOfBone, smallAvatar, smallVrm0, smallVrm1 } from './small-avatar.ts';

describe('VRM 0.x faces −Z: turned half a turn about Y at load', () => {
  it('every vertex (skinned and rigid, at rest and in the clip) is the 1.0 file\'s with x and z negated', async () => {
    const v1 = await parseGltf('a.vrm', smallVrm1().glb());
    const v0 = await parseGltf('a.vrm', smallVrm0().glb());
    for (const [clip, time] of [[-1, 0], [0, 0], [0, 0.5], [0, 1]] as const) {
      const a = evaluateModel(v1, clip, time), b = evaluateModel(v0, clip, time);
      expect(b.primitives.map((p) => p.node)).toEqual(a.primitives.map((p) => p.node));
      a.primitives.forEach((primitive, i) => {
        const turned = b.primitives[i].positions;
        primitive.positions.forEach((x, k) => {
          const expected = k % 3 === 1 ? x : -x;
          expect(Math.abs(turned[k] - expected), `clip ${clip} t ${time} primitive ${i} component ${k}`).toBeLessThan(1e-6);
        });
      });
    }
    // The test means something: the model is off the Y axis, so the turn moves it.
    const body = evaluateModel(v1, -1, 0).primitives[0].positions;
    expect(Math.abs(body[0]) + Math.abs(body[2])).toBeGreaterThan(0.1);
  });

  it('a plain glTF and a VRM 1.0 file are not turned', async () => {
    const plain = evaluateModel(await parseGltf('a.glb', smallAvatar().glb()), 0, 0.5);
    const v1 = evaluateModel(await parseGltf('a.vrm', smallVrm1().glb()), 0, 0.5);
    expect(v1.primitives).toEqual(plain.primitives);
  });
});

describe('a broken humanoid: one HUMANOID_INVALID naming the bone and its JSON pointer', () => {
  const bad = async (name: string, bytes: Uint8Array) => {
    const error = await loadErrorOf(parseGltf(name, bytes));
    return [error.code, error.where, error.message];
  };

  it('VRM 1.0: a required bone missing, a node for two bones, a node not in the model', async () => {
    const missing = smallVrm1();
    delete missing.json.extensions.VRMC_vrm.humanoid.humanBones.leftHand;
    expect(await bad('m.vrm', missing.glb())).toEqual(['HUMANOID_INVALID', '/extensions/VRMC_vrm/humanoid/humanBones/leftHand',
      'm.vrm: /extensions/VRMC_vrm/humanoid/humanBones/leftHand is missing: leftHand is a required humanoid bone']);

    const twice = smallVrm1();
    twice.json.extensions.VRMC_vrm.humanoid.humanBones.spine = { node: nodeOfBone('hips') };
    expect(await bad('t.vrm', twice.glb())).toEqual(['HUMANOID_INVALID', '/extensions/VRMC_vrm/humanoid/humanBones/spine/node',
      `t.vrm: /extensions/VRMC_vrm/humanoid/humanBones/spine/node is ${nodeOfBone('hips')}, the node of bone hips too; bone spine needs a joint of its own`]);

    const outside = smallVrm1();
    outside.json.extensions.VRMC_vrm.humanoid.humanBones.leftHand = { node: 99 };
    const nodeCount = outside.json.nodes.length;
    expect(await bad('o.vrm', outside.glb())).toEqual(['HUMANOID_INVALID', '/extensions/VRMC_vrm/humanoid/humanBones/leftHand/node',
      `o.vrm: /extensions/VRMC_vrm/humanoid/humanBones/leftHand/node is 99, not a node of the model (${nodeCount}); bone leftHand has no joint`]);

    const none = smallVrm1();
    delete none.json.extensions.VRMC_vrm.humanoid;
    expect((await bad('n.vrm', none.glb())).slice(0, 2)).toEqual(['HUMANOID_INVALID', '/extensions/VRMC_vrm/humanoid']);
  });

  it('VRM 0.x: a required bone missing, a node for two bones, a node past the model\'s', async () => {
    const missing = smallVrm0();
    const bones = missing.json.extensions.VRM.humanoid.humanBones;
    bones.splice(bones.findIndex((b: { bone: string }) => b.bone === 'head'), 1);
    expect(await bad('m.vrm', missing.glb())).toEqual(['HUMANOID_INVALID', '/extensions/VRM/humanoid/humanBones',
      'm.vrm: /extensions/VRM/humanoid/humanBones lacks head: head is a required humanoid bone']);

    const twice = smallVrm0();
    const neck = twice.json.extensions.VRM.humanoid.humanBones.findIndex((b: { bone: string }) => b.bone === 'neck');
    twice.json.extensions.VRM.humanoid.humanBones[neck].node = nodeOfBone('head');
    const [code, where] = await bad('t.vrm', twice.glb());
    expect([code, where]).toEqual(['HUMANOID_INVALID', `/extensions/VRM/humanoid/humanBones/${neck + 1}/node`]);

    const outside = smallVrm0();
    outside.json.extensions.VRM.humanoid.humanBones[2].node = 1000;
    expect((await bad('o.vrm', outside.glb())).slice(0, 2)).toEqual(['HUMANOID_INVALID', '/extensions/VRM/humanoid/humanBones/2/node']);
  });

  it('an extension that is not an object is TYPE_MISMATCH; an unknown VRMC_vrm specVersion is not read, with a warning', async () => {
    const notObject = smallVrm1();
    notObject.json.extensions.VRMC_vrm = [1];
    expect((await bad('x.vrm', notObject.glb())).slice(0, 2)).toEqual(['TYPE_MISMATCH', '/extensions/VRMC_vrm']);
    const future = smallVrm1();
    future.json.extensions.VRMC_vrm.specVersion = '2.0';
    const asset = await parseGltf('f.vrm', future.glb());
    expect(asset.avatar).toBeUndefined();
    expect(asset.warnings).toEqual(['f.vrm: /extensions/VRMC_vrm/specVersion is "2.0", not 1.0; the avatar is not read']);
  });

  it('VRM 0.x: a bone listed twice or without a node (−1) is ignored with a warning, as three-vrm does', async () => {
    const b = smallVrm0();
    b.json.extensions.VRM.humanoid.humanBones.push({ bone: 'hips', node: nodeOfBone('spine') }, { bone: 'jaw', node: -1 });
    const asset = await parseGltf('w.vrm', b.glb());
    expect(asset.skeleton.names[asset.avatar!.humanoid.bones.hips!]).toBe('hips');
    expect(asset.avatar!.humanoid.bones.jaw).toBeUndefined();
    expect(asset.warnings).toEqual([
      `w.vrm: /extensions/VRM/humanoid/humanBones entries ${b.json.extensions.VRM.humanoid.humanBones.length - 1} have no known bone or no node; ignored`,
      'w.vrm: /extensions/VRM/humanoid/humanBones lists hips more than once; the first entry is used',
    ]);
  });
});

describe('a malformed expression or look-at: dropped with one warning each, the avatar still loads', () => {
  it('VRM 1.0 expressions', async () => {
    const expressions = {
      preset: {
        happy: { morphTargetBinds: [{ node: FACE_NODE, index: 5, weight: 1 }] },
        sad: { materialColorBinds: [{ material: 7, type: 'color', targetValue: [1, 1, 1, 1] }] },
        angry: { overrideBlink: 'sometimes' },
        surprised: { morphTargetBinds: [{ node: FACE_NODE, index: 1, weight: 1 }] },
        smirk: {},
      },
      custom: { blink: {}, ok: { morphTargetBinds: [{ node: nodeOfBone('hips'), index: 0, weight: 1 }] } },
    };
    const asset = await parseGltf('e.vrm', smallVrm1({ expressions }).glb());
    expect(asset.avatar!.expressions.map((e) => e.name)).toEqual(['surprised']);
    const at = '/extensions/VRMC_vrm/expressions';
    expect(asset.warnings).toEqual([
      `e.vrm: ${at}/preset/happy/morphTargetBinds/0/index is 5, not a morph target of node ${FACE_NODE}'s mesh (it has 2); expression "happy" dropped`,
      `e.vrm: ${at}/preset/sad/materialColorBinds/0/material is 7, not a material index (the file has 2); expression "sad" dropped`,
      `e.vrm: ${at}/preset/angry/overrideBlink is "sometimes", not none, block or blend; expression "angry" dropped`,
      `e.vrm: ${at}/preset/smirk is not a VRM 1.0 expression preset; expression "smirk" dropped`,
      `e.vrm: ${at}/custom/blink has a preset's name, which a custom expression may not have; expression "blink" dropped`,
      `e.vrm: ${at}/custom/ok/morphTargetBinds/0/node is ${nodeOfBone('hips')}, a node without a mesh with morph targets; expression "ok" dropped`,
    ]);
    expect(asset.avatar!.humanoid.bones.hips).toBeDefined();
  });

  it('VRM 0.x blend shape groups', async () => {
    const blendShapeMaster = {
      blendShapeGroups: [
        { name: 'A', presetName: 'a', binds: [{ mesh: 3, index: 0, weight: 100 }] },
        { name: 'Joy', presetName: 'joy', binds: [{ mesh: 1, index: 0, weight: 'lots' }] },
        { name: 'Fun', presetName: 'fun', materialValues: [{ materialName: 'Hair', propertyName: '_Color', targetValue: [1, 1, 1, 1] }] },
        { presetName: 'unknown' },
        { name: 'O', presetName: 'o', binds: [{ mesh: 1, index: 1, weight: 100 }] },
        { name: 'O again', presetName: 'o' },
      ],
    };
    const asset = await parseGltf('e.vrm', smallVrm0({ blendShapeMaster }).glb());
    expect(asset.avatar!.expressions.map((e) => e.name)).toEqual(['oh']);
    const at = '/extensions/VRM/blendShapeMaster/blendShapeGroups';
    expect(asset.warnings).toEqual([
      `e.vrm: ${at}/0/binds/0/mesh is 3, not a mesh index (the file has 2); expression "aa" dropped`,
      `e.vrm: ${at}/1/binds/0/weight is "lots", not a finite number; expression "happy" dropped`,
      `e.vrm: ${at}/2/materialValues/0/materialName is "Hair", not the name of a material; expression "relaxed" dropped`,
      `e.vrm: ${at}/3 has no name and no preset; expression 3 dropped`,
      `e.vrm: ${at}/5 is a second expression named "oh"; expression "oh" dropped`,
    ]);
  });

  it('look-at, 1.0 and 0.x', async () => {
    const v1 = await parseGltf('l.vrm', smallVrm1({ lookAt: { type: 'bone', rangeMapVerticalUp: { inputMaxValue: 0, outputScale: 10 } } }).glb());
    expect(v1.avatar!.lookAt).toBeNull();
    expect(v1.warnings).toEqual(['l.vrm: /extensions/VRMC_vrm/lookAt/rangeMapVerticalUp/inputMaxValue is 0, not a positive number of degrees; the look-at is dropped']);
    const offset = await parseGltf('l.vrm', smallVrm1({ lookAt: { offsetFromHeadBone: [0, 1] } }).glb());
    expect(offset.warnings).toEqual(['l.vrm: /extensions/VRMC_vrm/lookAt/offsetFromHeadBone is [0,1], not three finite numbers; the look-at is dropped']);
    const v0 = await parseGltf('l.vrm', smallVrm0({ firstPerson: { firstPersonBoneOffset: { x: 0, y: 'up', z: 0 } } }).glb());
    expect(v0.avatar!.lookAt).toBeNull();
    expect(v0.warnings).toEqual(['l.vrm: /extensions/VRM/firstPerson/firstPersonBoneOffset/y is "up", not a finite number; the look-at is dropped']);
    const curve = await parseGltf('l.vrm', smallVrm0({ firstPerson: { lookAtHorizontalOuter: { curve: [0, 0, 0, 2, 1, 1, 2, 0] } } }).glb());
    expect(curve.avatar!.lookAt).not.toBeNull();
    expect(curve.warnings).toEqual(['l.vrm: /extensions/VRM/firstPerson/lookAtHorizontalOuter/curve is not the linear curve; read as linear']);
  });
});

describe('VRM extensions: all read, no "later version" warning', () => {
  it('MToon (1.0) and materialProperties (0.x) are read like spring bones and constraints; only unknown extensions are named', async () => {
    const v1 = smallVrm1();
    v1.json.extensionsUsed.push('VRMC_springBone', 'VRMC_springBone_extended_collider', 'VRMC_node_constraint', 'VRMC_materials_mtoon', 'KHR_materials_variants');
    v1.json.extensions.VRMC_springBone = { specVersion: '1.0', springs: [{ joints: [{ node: nodeOfBone('neck') }, { node: nodeOfBone('head') }] }] };
    v1.json.materials[0].extensions = { VRMC_materials_mtoon: { specVersion: '1.0' } };
    const a = await parseGltf('s.vrm', v1.glb());
    expect(a.warnings).toEqual(['s.vrm: uses extension "KHR_materials_variants", not required; ignored']);
    expect(a.materials[0].mtoon).toBeDefined();
    expect(a.materials[1].mtoon).toBeUndefined();
    expect(a.secondaryMotion!.springBone!.springs).toHaveLength(1);
    const v0 = smallVrm0({
      secondaryAnimation: { boneGroups: [{ bones: [nodeOfBone('leftThumb1')] }], colliderGroups: [] },
      materialProperties: [{ name: 'Skin', shader: 'VRM/MToon' }, { name: 'Face', shader: 'VRM_USE_GLTFSHADER' }],
    });
    const b = await parseGltf('s.vrm', v0.glb());
    expect(b.warnings).toEqual([]);
    expect(b.materials[0].mtoon?.v0CompatShade).toBe(true);
    expect(b.materials[1].mtoon).toBeUndefined();
    expect(b.secondaryMotion!.springBone!.springs).toHaveLength(1);
    const plain = smallVrm0({ secondaryAnimation: { boneGroups: [], colliderGroups: [] }, materialProperties: [{ name: 'Skin', shader: 'VRM_USE_GLTFSHADER' }] });
    const c = await parseGltf('s.vrm', plain.glb());
    expect(c.warnings).toEqual([]);
    expect(c.secondaryMotion).toBeUndefined();
  });
});

describe('the .vrm door and a missing external image', () => {
  it('loadModel reads a .vrm as a GLB with its avatar', async () => {
    const asset = await loadModel({ name: 'Small.VRM', bytes: smallVrm1().glb() }, async () => null);
    expect(asset.avatar!.meta.name).toBe('Small');
  });

  it('an external image that is missing loads as a neutral white texture, with one warning', async () => {
    const b = smallAvatar();
    b.json.images = [{ uri: 'skin.png' }, { uri: 'face.jpg', mimeType: 'image/jpeg' }];
    b.json.textures = [{ source: 0 }, { source: 1 }];
    b.json.materials[0].pbrMetallicRoughness = { baseColorTexture: { index: 0 } };
    b.json.materials[1].pbrMetallicRoughness = { baseColorTexture: { index: 1 } };
    const asked: string[] = [];
    const asset = await loadModel({ name: 'a.gltf', bytes: b.gltf() }, async (name) => {
      asked.push(name);
      return null;
    });
    expect(asked.sort()).toEqual(['face.jpg', 'skin.png']);
    expect(asset.warnings).toEqual(['a.gltf: /images 0, 1 name external files "skin.png", "face.jpg", not supplied; drawn as a neutral white texture']);
    expect(asset.images.map((image) => image.mimeType)).toEqual(['image/png', 'image/png']);
    expect(asset.materials.map((m) => m.baseColorTexture)).toEqual([0, 1]);
    for (const image of asset.images) {
      expect([...image.data]).toEqual([...NEUTRAL_IMAGE_PNG]);
      // The stand-in is one opaque white RGBA pixel: IDAT after the 8-byte signature and the 25-byte IHDR chunk.
      const idatLength = new DataView(image.data.buffer, image.data.byteOffset).getUint32(33);
      const pixel = inflateSync(image.data.subarray(41, 41 + idatLength));
      expect([...pixel]).toEqual([0, 255, 255, 255, 255]); // filter byte 0, then R G B A
    }
    // A missing buffer still fails: the geometry cannot be drawn without it.
    const error = await loadErrorOf(loadModel({ name: 'b.gltf', bytes: smallAvatar().gltf('b.bin') }, async () => null));
    expect([error.code, error.where]).toEqual(['FILE_NOT_FOUND', '/buffers/0']);
  });
});
