/**
 * three-vrm as the reference for playing a VRMA on an avatar (tests only): its `VRMAnimationLoaderPlugin` reads the
 * VRMA built in code, `createVRMAnimationHumanoidTracks` makes the tracks of a `VRMHumanoid` built over a rig like
 * Sinew's target, an AnimationMixer plays them on the normalized bones and `humanoid.update()` carries them to the
 * raw bones; Sinew's retargeted clip must put each humanoid bone at the same world rotation and the hips at the same
 * world position. VRM 0.x: the same rig turned to face −Z (as a 0.x file is), its tracks made with
 * `metaVersion '0'` and the scene turned by 180° about Y (`VRMUtils.rotateVRM0`), against Sinew on the +Z rig.
 */
import { describe, expect, it } from 'vitest';
import { AnimationClip, AnimationMixer, Group, LoopOnce, Object3D, Quaternion, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMHumanoid } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationHumanoidTracks, type VRMAnimation } from '@pixiv/three-vrm-animation';
import { mat4, quat } from 'gl-matrix';
import type { AvatarAsset } from '../../../src/asset/avatar-asset.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { retargetClipLibrary } from '../../../src/loaders/clip-library.ts';
import { loadClips } from '../../../src/loaders/load-clips.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { localToModel } from '../../../src/skeleton/local-to-model.ts';
import { GltfBuilder } from '../helpers/gltf-builder.ts';
import { axisAngle, buildVrma } from '../loaders/vrma/vrma-builder.ts';

const none = async () => null;

/** The target rig: name, parent index, translation, rotation (x, y, z, w); humanoid bone of each but the Armature. */
const RIG = [
  { name: 'Armature', parent: -1, t: [0, 0, 0], r: [0, 0, 0, 1], bone: null },
  { name: 'Hips', parent: 0, t: [0, 0.9, 0], r: axisAngle([1, 0, 0], 0.4), bone: 'hips' },
  { name: 'Spine', parent: 1, t: [0, 0.15, 0.01], r: axisAngle([0, 0, 1], -0.9), bone: 'spine' },
  { name: 'Head', parent: 2, t: [0.02, 0.4, 0], r: axisAngle([0.6, 0, 0.8], 1.3), bone: 'head' },
  { name: 'LeftUpLeg', parent: 1, t: [0.09, -0.04, 0], r: axisAngle([0, 0, 1], Math.PI), bone: 'leftUpperLeg' },
] as const;

async function sinewTarget() {
  const b = new GltfBuilder();
  Object.assign(b.json, {
    scene: 0, scenes: [{ nodes: [0] }],
    nodes: RIG.map((n, i) => ({ name: n.name, translation: n.t, rotation: n.r, children: RIG.flatMap((c, j) => (c.parent === i ? [j] : [])) })),
  });
  const asset = await loadModel({ name: 'Target.glb', bytes: b.glb() }, none);
  const bones = Object.fromEntries(RIG.filter((n) => n.bone).map((n) => [n.bone, asset.skeleton.names.indexOf(n.name)]));
  return { ...asset, avatar: { humanoid: { bones } } as AvatarAsset };
}

/** three-vrm's side: the rig as Object3Ds under `scene` (Armature turned by `armatureTurn`), its humanoid, the VRMA. */
async function threeSide(bytes: Uint8Array, armatureTurn: number) {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes.slice().buffer, '');
  const animation = (gltf.userData.vrmAnimations as VRMAnimation[])[0];
  const scene = new Group();
  const objects = RIG.map((n) => {
    const o = new Object3D();
    o.name = n.name;
    o.position.fromArray(n.t);
    o.quaternion.fromArray(n.r);
    return o;
  });
  RIG.forEach((n, i) => (n.parent < 0 ? scene : objects[n.parent]).add(objects[i]));
  objects[0].quaternion.setFromAxisAngle(new Vector3(0, 1, 0), armatureTurn);
  scene.updateMatrixWorld(true);
  const humanBones = Object.fromEntries(RIG.flatMap((n, i) => (n.bone ? [[n.bone, { node: objects[i] }]] : [])));
  const humanoid = new VRMHumanoid(humanBones as ConstructorParameters<typeof VRMHumanoid>[0]);
  scene.add(humanoid.normalizedHumanBonesRoot);
  return { animation, scene, humanoid, objects };
}

/** Sinew's target model-space rotation and position of `joint` from model matrices (unit scales). */
function frameOf(model: Float32Array, joint: number) {
  const m = model.subarray(16 * joint, 16 * joint + 16) as unknown as mat4;
  return { q: mat4.getRotation(quat.create(), m), p: [m[12], m[13], m[14]] };
}

/** Angle between two rotations, radians, from the vector part of a⁻¹·b. */
function angleBetween(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const qa = new Quaternion(a[0], a[1], a[2], a[3]).invert(), qb = new Quaternion(b[0], b[1], b[2], b[3]);
  const r = qa.multiply(qb);
  return 2 * Math.atan2(Math.hypot(r.x, r.y, r.z), Math.abs(r.w));
}

describe('a VRMA on an avatar: Sinew against three-vrm', () => {
  for (const version of ['1', '0'] as const) {
    it(`gives each humanoid bone three-vrm's world rotation and the hips its position (VRM ${version === '1' ? '1.0' : '0.x'})`, async () => {
      const bytes = buildVrma();
      const library = await loadClips({ name: 'dance.vrma', bytes }, none);
      const target = await sinewTarget();
      const { clips } = retargetClipLibrary(library, target);
      const runtime = compileClip(clips[0], target.skeleton.jointCount);
      const pose = cloneLocalPose(target.restPose);
      const context = new SamplingContext();
      const model = new Float32Array(16 * target.skeleton.jointCount);

      // VRM 0.x: the file faces −Z (Armature turned by 180°); three-vrm flips the tracks and turns the scene back.
      const three = await threeSide(bytes, version === '0' ? Math.PI : 0);
      const tracks = createVRMAnimationHumanoidTracks(three.animation, three.humanoid, version);
      const clip = new AnimationClip('Clip', three.animation.duration, [...tracks.translation.values(), ...tracks.rotation.values()]);
      const mixer = new AnimationMixer(three.scene);
      // Held at its end, not wrapped to 0 (the last time below is the clip's end).
      const action = mixer.clipAction(clip).setLoop(LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      if (version === '0') three.scene.rotation.y = Math.PI;

      let worst = 0, worstPosition = 0;
      for (const t of [0, 0.2, 0.45, 0.7, 0.95, 1]) {
        sampleClip(pose, runtime, t, context);
        localToModel(model, target.skeleton, pose);
        mixer.setTime(t);
        three.humanoid.update();
        three.scene.updateMatrixWorld(true);
        RIG.forEach((n, i) => {
          if (!n.bone) return;
          const sinew = frameOf(model, target.skeleton.names.indexOf(n.name));
          const q = three.objects[i].getWorldQuaternion(new Quaternion()).toArray();
          worst = Math.max(worst, angleBetween(sinew.q, q));
          if (n.bone === 'hips') {
            const p = three.objects[i].getWorldPosition(new Vector3()).toArray();
            worstPosition = Math.max(worstPosition, ...p.map((v, c) => Math.abs(v - sinew.p[c])));
          }
        });
      }
      expect(worst).toBeLessThan(1e-5);
      expect(worstPosition).toBeLessThan(1e-6);
    });
  }
});
