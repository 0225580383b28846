import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMLookAtBoneApplier, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';
import { buildAvatarVrm1 } from '../../../../src/procedural/avatar/avatar-vrm1.ts';
import { buildAvatarVrm0 } from '../../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildVrmaClip } from '../../../../src/procedural/avatar/vrma-clip.ts';
import type { VRMAimConstraint, VRMRollConstraint, VRMRotationConstraint } from '@pixiv/three-vrm-node-constraint';
import type { VRMSpringBoneCollider, VRMSpringBoneJoint } from '@pixiv/three-vrm-springbone';
import { AnimationMixer } from 'three';
import {
  AVATAR_COLLIDER_COUNT, AVATAR_SIMULATED_SPRING_JOINT_COUNT, AVATAR_SPRING_JOINT_COUNT,
} from '../../../../src/procedural/avatar/avatar-springs.ts';

// three-vrm (a test-only devDependency) as an independent reader of the generated files: what it finds in them is
// what the issue's reference comparisons will see. Texture-less avatars: node has no image decoder for GLTFLoader.

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

/** `shape:inside` of each collider three-vrm made, counted. */
function shapeCounts(colliders: Iterable<VRMSpringBoneCollider>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const collider of colliders) {
    const shape = collider.shape as { type: string; inside?: boolean };
    const key = `${shape.type}${shape.inside ? ':inside' : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('three-vrm reads the generated avatars\' secondary motion', () => {
  it('VRM 1.0: 61 simulated spring joints from 76 listed, 12 colliders of every shape, the tail in the hips\' space', () => {
    const manager = vrm1.springBoneManager!;
    // 12 hair strands × 4 + a tail of 9 + two ears × 2: three-vrm simulates every listed joint but each chain's last.
    expect(manager.joints.size).toBe(12 * 4 + 9 + 2 * 2);
    expect(manager.joints.size).toBe(AVATAR_SIMULATED_SPRING_JOINT_COUNT);
    expect(AVATAR_SPRING_JOINT_COUNT).toBe(76);
    expect(manager.joints.size).toBeGreaterThanOrEqual(60);
    expect(shapeCounts(manager.colliders)).toEqual({ sphere: 2, 'sphere:inside': 1, capsule: 7, 'capsule:inside': 1, plane: 1 });
    expect([...manager.colliders].length).toBe(AVATAR_COLLIDER_COUNT);
    expect([...manager.colliderGroups].length).toBe(7);
    const joints = [...manager.joints] as VRMSpringBoneJoint[];
    const hips = vrm1.humanoid.getRawBoneNode('hips');
    const centred = joints.filter((joint) => joint.center !== null);
    expect(centred.map((joint) => joint.bone.name)).toEqual(Array.from({ length: 9 }, (_, i) => `tail${i}`));
    for (const joint of centred) expect(joint.center).toBe(hips);
    // Settings vary per spring and along the tail; no spring joint is a humanoid bone.
    expect(new Set(joints.map((joint) => joint.settings.stiffness)).size).toBeGreaterThan(5);
    expect(new Set(joints.map((joint) => joint.settings.hitRadius)).size).toBeGreaterThan(5);
    const humanoidNodes = new Set(Object.values(vrm1.humanoid.humanBones).map((bone) => bone!.node));
    for (const joint of joints) expect(humanoidNodes.has(joint.bone)).toBe(false);
  });

  it('VRM 0.x: every listed joint simulated (leaves with a virtual tail), colliders as spheres only', () => {
    const manager = vrm0.springBoneManager!;
    expect(manager.joints.size).toBe(AVATAR_SPRING_JOINT_COUNT);
    const counts = shapeCounts(manager.colliders);
    expect(Object.keys(counts)).toEqual(['sphere']);
    expect(counts.sphere).toBeGreaterThanOrEqual(10);
    const joints = [...manager.joints] as VRMSpringBoneJoint[];
    expect(joints.filter((joint) => joint.center === vrm0.humanoid.getRawBoneNode('hips')).length).toBe(10);
    expect(joints.filter((joint) => joint.child === null).length).toBe(12 + 1 + 2);
    expect(vrm0.nodeConstraintManager ?? null).toBeNull();
  });

  it('VRM 1.0: six node constraints, per arm a chain roll → rotation → aim', () => {
    const constraints = [...vrm1.nodeConstraintManager!.constraints];
    expect(constraints.length).toBe(6);
    // By their own fields (three-vrm bundles its own copy of the constraint classes).
    const kinds = constraints.map((c) => ('rollAxis' in c ? 'roll' : 'aimAxis' in c ? 'aim' : 'rotation'));
    expect(kinds.sort()).toEqual(['aim', 'aim', 'roll', 'roll', 'rotation', 'rotation']);
    for (const side of ['left', 'right']) {
      const by = (name: string) => constraints.find((c) => c.destination.name === name)!;
      const roll = by(`${side}ForearmTwist`) as VRMRollConstraint;
      const rotation = by(`${side}ElbowCuff`) as VRMRotationConstraint;
      const aim = by(`${side}CuffFin`) as VRMAimConstraint;
      expect(roll.source.name).toBe(`${side}Hand`);
      expect(roll.rollAxis).toBe('X');
      expect(roll.weight).toBeCloseTo(0.6, 9);
      expect(rotation.source).toBe(roll.destination);
      expect(aim.source.name).toBe(`${side}MiddleProximal`);
      expect(aim.destination.parent).toBe(rotation.destination);
      expect(aim.aimAxis).toBe(side === 'left' ? 'PositiveX' : 'NegativeX');
    }
  });

  it('VRM 1.0: turning the hand drives the chain (three-vrm as the reader): twist 0.6 of the roll, cuff half of that, fin aimed', () => {
    const hand = vrm1.humanoid.getRawBoneNode('leftHand')!;
    const twist = vrm1.scene.getObjectByName('leftForearmTwist')!;
    const cuff = vrm1.scene.getObjectByName('leftElbowCuff')!;
    const fin = vrm1.scene.getObjectByName('leftCuffFin')!;
    const finger = vrm1.humanoid.getRawBoneNode('leftMiddleProximal')!;
    const angle = (q: THREE.Quaternion): number => 2 * Math.acos(Math.min(1, Math.abs(q.w)));
    const aimError = (): number => {
      vrm1.scene.updateMatrixWorld(true);
      const from = fin.getWorldPosition(new THREE.Vector3());
      const to = finger.getWorldPosition(new THREE.Vector3()).sub(from).normalize();
      const axis = new THREE.Vector3(1, 0, 0).applyQuaternion(fin.getWorldQuaternion(new THREE.Quaternion()));
      return axis.angleTo(to);
    };
    // At rest every constraint holds its rest rotation.
    vrm1.nodeConstraintManager!.update();
    expect(angle(twist.quaternion)).toBeLessThan(1e-6);
    expect(angle(cuff.quaternion)).toBeLessThan(1e-6);
    expect(angle(fin.quaternion)).toBeLessThan(1e-6);
    // A 50° roll of the hand about X, then a 30° flex about Z.
    hand.quaternion.setFromAxisAngle(new THREE.Vector3(1, 0, 0), 50 * Math.PI / 180);
    vrm1.scene.updateMatrixWorld(true);
    vrm1.nodeConstraintManager!.update();
    expect(angle(twist.quaternion) * 180 / Math.PI).toBeCloseTo(30, 4);
    expect(angle(cuff.quaternion) * 180 / Math.PI).toBeCloseTo(15, 4);
    expect(aimError()).toBeLessThan(1e-6);
    hand.quaternion.multiply(new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 0, 1), 30 * Math.PI / 180));
    vrm1.scene.updateMatrixWorld(true);
    vrm1.nodeConstraintManager!.update();
    expect(angle(fin.quaternion)).toBeGreaterThan(0.05);
    expect(aimError()).toBeLessThan(1e-6);
    hand.quaternion.identity();
    vrm1.scene.updateMatrixWorld(true);
    vrm1.nodeConstraintManager!.update();
  });

  it('the walk clip at 60 Hz: the springs swing, and every collider is touched by a spring that names it', async () => {
    const vrm = await loadVrm(await buildAvatarVrm1({ texture: false }), false);
    const animation = (await parse(await buildVrmaClip())).userData.vrmAnimations[0] as VRMAnimation;
    const mixer = new AnimationMixer(vrm.scene);
    mixer.clipAction(createVRMAnimationClip(animation, vrm)).play();
    const manager = vrm.springBoneManager!;
    const joints = [...manager.joints] as VRMSpringBoneJoint[];
    const nearest = new Map<VRMSpringBoneCollider, number>();
    for (const collider of manager.colliders) nearest.set(collider, Infinity);
    const tail = new THREE.Vector3(), direction = new THREE.Vector3();
    const swing = [0, 0];
    manager.reset();
    for (let k = 1; k <= 216; k++) {
      mixer.setTime(k / 60);
      vrm.update(1 / 60);
      vrm.scene.updateMatrixWorld(true);
      for (const joint of joints) {
        joint.child!.getWorldPosition(tail);
        for (const group of joint.colliderGroups) {
          for (const collider of group.colliders) {
            const distance = collider.shape.calculateCollision(collider.colliderMatrix, tail, joint.settings.hitRadius, direction);
            nearest.set(collider, Math.min(nearest.get(collider)!, distance));
          }
        }
      }
      // How far the springs turn from their rest rotation (the identity): they swing.
      for (const [i, name] of ['hair05_0', 'tail3'].entries()) {
        const q = vrm.scene.getObjectByName(name)!.quaternion;
        swing[i] = Math.max(swing[i], 2 * Math.acos(Math.min(1, Math.abs(q.w))));
      }
    }
    console.log(`walk at 60 Hz: nearest approach per collider ${[...nearest].map(([c, d]) => `${c.parent!.name}/${(c.shape as { type: string }).type} ${d.toFixed(3)}`).join(', ')}; largest turn of hair05_0, tail3 ${swing.map((a) => (a * 180 / Math.PI).toFixed(1)).join('°, ')}°`);
    const untouched = [...nearest].filter(([, d]) => d > 1e-3).map(([c, d]) => `${c.parent!.name}/${(c.shape as { type: string }).type}: ${d.toFixed(3)}`);
    expect(untouched).toEqual([]);
    for (const angle of swing) expect(angle).toBeGreaterThan(5 * Math.PI / 180);
  });
});
