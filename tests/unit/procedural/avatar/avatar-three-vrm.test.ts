import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMLookAtBoneApplier, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildAvatarVrm0 } from '../../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildVrmaClip } from '../../../../src/procedural/avatar/vrma-clip.ts';

// three-vrm (a test-only devDependency) as an independent reader of the generated files: what it finds in them is
// what the reference comparisons will see. Texture-less avatars: node has no image decoder for GLTFLoader.

const loader = new GLTFLoader();
loader.register((parser) => new VRMLoaderPlugin(parser));
loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
const parse = (bytes: Uint8Array) => loader.parseAsync(bytes.slice().buffer, '');

async function loadVrm(bytes: Uint8Array, turn: boolean): Promise<VRM> {
  const vrm = (await parse(bytes)).userData.vrm as VRM;
  if (turn) VRMUtils.rotateVRM0(vrm);
  vrm.scene.updateMatrixWorld(true);
  return vrm;
}

const vrm1 = await loadVrm(await buildAvatarVrm1({ texture: false }), false);
const vrm0 = await loadVrm(await buildAvatarVrm0({ texture: false }), true);

describe('three-vrm reads the generated avatars', () => {
  it('finds the meta, all 55 humanoid bones, 18 expressions, bone look-at and four first-person annotations in both versions', () => {
    expect(vrm1.meta.metaVersion).toBe('1');
    expect(vrm0.meta.metaVersion).toBe('0');
    for (const vrm of [vrm1, vrm0]) {
      expect(Object.keys(vrm.humanoid.humanBones).length).toBe(55);
      expect(vrm.expressionManager!.expressions.length).toBe(18);
      expect(vrm.lookAt!.applier).toBeInstanceOf(VRMLookAtBoneApplier);
      expect(vrm.firstPerson!.meshAnnotations.map((a) => a.type).sort()).toEqual(['auto', 'both', 'firstPersonOnly', 'thirdPersonOnly']);
    }
  });

  it('the 0.x avatar, turned by rotateVRM0, has every joint where the 1.0 avatar has it', () => {
    const a = new THREE.Vector3(), b = new THREE.Vector3();
    for (const name of Object.keys(vrm1.humanoid.humanBones) as (keyof typeof vrm1.humanoid.humanBones)[]) {
      vrm1.humanoid.getRawBoneNode(name)!.getWorldPosition(a);
      vrm0.humanoid.getRawBoneNode(name)!.getWorldPosition(b);
      expect(a.distanceTo(b), name).toBeLessThan(1e-6);
    }
    // The left eye is on the avatar's left (+X) and in front (+Z) once turned.
    vrm0.humanoid.getRawBoneNode('leftEye')!.getWorldPosition(b);
    expect(b.x).toBeGreaterThan(0.02);
    expect(b.z).toBeGreaterThan(0.05);
  });

  it('its expressions drive morph weights and the cheek colour', () => {
    for (const vrm of [vrm1, vrm0]) {
      const face = vrm.scene.getObjectByName('Face')!;
      const meshes: THREE.Mesh[] = [];
      face.traverse((object) => { if ((object as THREE.Mesh).isMesh) meshes.push(object as THREE.Mesh); });
      const cheek = meshes.map((m) => m.material as THREE.MeshStandardMaterial).find((m) => m.name === 'Cheek')!;
      const before = cheek.color.clone();
      vrm.expressionManager!.setValue('aa', 1);
      vrm.expressionManager!.setValue('angry', 1);
      vrm.expressionManager!.update();
      expect(Math.max(...meshes[0].morphTargetInfluences!)).toBe(1);
      expect(cheek.color.equals(before)).toBe(false);
      expect(cheek.color.r).toBeCloseTo(0.9, 5);
      vrm.expressionManager!.setValue('aa', 0);
      vrm.expressionManager!.setValue('angry', 0);
      vrm.expressionManager!.update();
    }
  });

  it('plays the VRMA clip: humanoid, expression and look-at tracks', async () => {
    const animation = (await parse(await buildVrmaClip())).userData.vrmAnimations[0] as VRMAnimation;
    const proxy = new VRMLookAtQuaternionProxy(vrm1.lookAt!);
    proxy.name = 'VRMLookAtQuaternionProxy';
    vrm1.scene.add(proxy);
    const clip = createVRMAnimationClip(animation, vrm1);
    expect(clip.duration).toBeCloseTo(3.6, 5);
    const names = clip.tracks.map((track) => track.name);
    expect(names).toContain('Normalized_hips.position');
    expect(names).toContain('Normalized_leftUpperLeg.quaternion');
    expect(names.filter((name) => name.endsWith('.weight')).length).toBe(3);
    expect(names.some((name) => name.startsWith('VRMLookAtQuaternionProxy'))).toBe(true);
  });
});
