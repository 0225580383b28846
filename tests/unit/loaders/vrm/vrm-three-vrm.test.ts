import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { parseGltf } from '../../../../src/loaders/gltf/parse-gltf.ts';
import { evaluateModel } from '../../helpers/evaluate-model-reference.ts';
import { BODY_NODE, FACE2_NODE, FACE_NODE, smallVrm0, smallVrm1 } from './small-avatar.ts';

/** three-vrm's reading of `glb` (the reference, test-only): the VRM and the glTF parser. */
async function loadWithThreeVrm(glb: Uint8Array): Promise<{ vrm: VRM; parser: any; animations: THREE.AnimationClip[] }> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  const gltf = await new Promise<any>((resolve, reject) => loader.parse(buffer, '', resolve, reject));
  return { vrm: gltf.userData.vrm, parser: gltf.parser, animations: gltf.animations };
}

/** World positions of the skinned `Body` triangle by three.js (bind matrix identity: the glTF skinning rule). */
async function threeBodyPositions(vrm: VRM, parser: any): Promise<number[]> {
  vrm.scene.updateMatrixWorld(true);
  const mesh: THREE.SkinnedMesh = await parser.getDependency('node', BODY_NODE);
  mesh.skeleton.update();
  mesh.bindMatrix.identity();
  mesh.bindMatrixInverse.identity();
  const out: number[] = [];
  const v = new THREE.Vector3();
  for (let i = 0; i < mesh.geometry.getAttribute('position').count; i++) out.push(...mesh.getVertexPosition(i, v).toArray());
  return out;
}

const firstPerson = {
  firstPersonBoneOffset: { x: 0.01, y: 0.08, z: 0.03 }, lookAtTypeName: 'Bone',
  lookAtHorizontalInner: { curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 30, yRange: 8 },
  meshAnnotations: [{ mesh: 1, firstPersonFlag: 'ThirdPersonOnly' }],
};
const blendShapeMaster = {
  blendShapeGroups: [
    { name: 'Joy', presetName: 'joy', binds: [{ mesh: 1, index: 1, weight: 50 }] },
    { name: 'Blink_R', presetName: 'blink_r', binds: [{ mesh: 1, index: 0, weight: 100 }] },
    { name: 'Pout', presetName: 'unknown', binds: [{ mesh: 1, index: 0, weight: 30 }] },
  ],
};

describe('VRM 0.x as three-vrm reads it (the reference)', () => {
  it('after VRMUtils.rotateVRM0, three-vrm\'s skinned vertices equal Sinew\'s, at rest and in the file\'s clip', async () => {
    const glb = smallVrm0({ firstPerson, blendShapeMaster }).glb();
    const asset = await parseGltf('old.vrm', glb);
    // Before the clip's end: three.js's mixer loops, so at its last key it shows the first.
    for (const time of [-1, 0, 0.25, 0.5, 0.75]) {
      const { vrm, parser, animations } = await loadWithThreeVrm(glb);
      VRMUtils.rotateVRM0(vrm);
      if (time >= 0) {
        const mixer = new THREE.AnimationMixer(vrm.scene);
        mixer.clipAction(animations[0]).play();
        mixer.setTime(time);
      }
      const expected = await threeBodyPositions(vrm, parser);
      const body = evaluateModel(asset, time < 0 ? -1 : 0, Math.max(time, 0)).primitives.find((p) => p.node === BODY_NODE)!.positions;
      expect(body).toHaveLength(expected.length);
      body.forEach((x, i) => expect(Math.abs(x - expected[i]), `time ${time} component ${i}`).toBeLessThan(1e-5));
    }
  });

  it('humanoid, expressions, look-at and first person agree with three-vrm\'s', async () => {
    for (const glb of [smallVrm0({ firstPerson, blendShapeMaster }).glb(), smallVrm1({
      expressions: { preset: { happy: { morphTargetBinds: [{ node: FACE2_NODE, index: 1, weight: 0.5 }] } }, custom: { pout: { morphTargetBinds: [{ node: FACE_NODE, index: 0, weight: 0.3 }] } } },
      lookAt: { type: 'bone', offsetFromHeadBone: [0, 0.07, 0.01], rangeMapHorizontalOuter: { inputMaxValue: 45, outputScale: 12 } },
      firstPerson: { meshAnnotations: [{ node: FACE_NODE, type: 'firstPersonOnly' }] },
    }).glb()]) {
      const { vrm, parser } = await loadWithThreeVrm(glb);
      const asset = await parseGltf('a.vrm', glb);
      const avatar = asset.avatar!;
      // Humanoid: the same node for every bone three-vrm maps.
      const nodeOf = (object: THREE.Object3D) => parser.associations.get(object)?.nodes;
      const theirs = Object.fromEntries(Object.entries(vrm.humanoid.humanBones).map(([bone, b]) => [bone, nodeOf(b!.node)]));
      const ours = Object.fromEntries(Object.entries(avatar.humanoid.bones).map(([bone, joint]) => [bone, asset.skeleton.sourceIndices[joint!]]));
      expect(ours).toEqual(theirs);
      // Expressions: the same names, binary flags and morph bind weights.
      const names = vrm.expressionManager!.expressions.map((e) => e.expressionName).sort();
      expect(avatar.expressions.map((e) => e.name).sort()).toEqual(names);
      for (const expression of avatar.expressions) {
        const their = vrm.expressionManager!.getExpression(expression.name)!;
        expect(expression.isBinary).toBe(their.isBinary);
        const weights = (their as any)._binds.map((bind: any) => bind.weight).sort();
        expect(expression.morphTargetBinds.map((b) => b.weight).sort()).toEqual(weights);
      }
      // Look-at: offset, face front and the four range maps.
      const lookAt = vrm.lookAt!;
      expect(avatar.lookAt!.offsetFromHeadBone).toEqual(lookAt.offsetFromHeadBone.toArray());
      expect(avatar.lookAt!.faceFront ?? [0, 0, 1]).toEqual(lookAt.faceFront.toArray());
      const applier = lookAt.applier as any;
      for (const [ours2, theirs2] of [
        [avatar.lookAt!.rangeMapHorizontalInner, applier.rangeMapHorizontalInner], [avatar.lookAt!.rangeMapHorizontalOuter, applier.rangeMapHorizontalOuter],
        [avatar.lookAt!.rangeMapVerticalDown, applier.rangeMapVerticalDown], [avatar.lookAt!.rangeMapVerticalUp, applier.rangeMapVerticalUp],
      ]) expect(ours2).toEqual({ inputMaxValue: theirs2.inputMaxValue, outputScale: theirs2.outputScale });
      // First person: the annotated mesh nodes and their types (three-vrm lists every mesh node, `auto` by default).
      const annotated = vrm.firstPerson!.meshAnnotations.filter((a) => a.type !== 'auto').map((a) => [nodeOf(a.meshes[0].parent?.type === 'Group' ? a.meshes[0].parent! : a.meshes[0]), a.type]);
      expect(avatar.firstPerson.meshAnnotations.map((a) => [asset.skeleton.sourceIndices[a.node], a.type]).sort()).toEqual(annotated.sort());
    }
  });
});
