/**
 * The same character as three.js sees it, for the benchmark baseline: one `Object3D` (a `Bone` for skin
 * joints) per skeleton joint with the rest pose, parented as in the skeleton; the clips as
 * `AnimationClip`s of `VectorKeyframeTrack` / `QuaternionKeyframeTrack` over the very same key arrays
 * (three.js's own LINEAR / STEP interpolants, GLTFLoader's CUBICSPLINE one); a `Skeleton` over the skin's
 * joints with its inverse bind matrices; and a `SkinnedMesh` for `applyBoneTransform`.
 * The per-frame work three.js does is `AnimationMixer.update` + `updateMatrixWorld` + `Skeleton.update`.
 */
import {
  AnimationClip as ThreeClip, AnimationMixer, Bone, BufferAttribute, BufferGeometry, InterpolateDiscrete, KeyframeTrack,
  Matrix4, MeshBasicMaterial, Object3D, QuaternionKeyframeTrack, Skeleton as ThreeSkeleton, SkinnedMesh, VectorKeyframeTrack,
} from 'three';
import type { AnimationClip } from '../src/asset/animation-clip.ts';
import type { PrimitiveAsset, SkinAsset } from '../src/asset/model-asset.ts';
import type { LocalPose } from '../src/skeleton/local-pose.ts';
import type { Skeleton } from '../src/skeleton/skeleton.ts';
import { gltfCubicSplineFactory } from '../tests/unit/animation/three-oracle.ts';

export interface ThreeRig {
  readonly root: Object3D;
  readonly objects: Object3D[];
  readonly skeleton: ThreeSkeleton;
  readonly mixer: AnimationMixer;
  readonly clips: ThreeClip[];
  readonly mesh: SkinnedMesh | null;
}

const PATHS = { translation: 'position', rotation: 'quaternion', scale: 'scale' } as const;

export async function buildThreeRig(
  skeleton: Skeleton, restPose: LocalPose, skin: SkinAsset, clips: readonly AnimationClip[], primitive: PrimitiveAsset | null,
): Promise<ThreeRig> {
  const skinJoints = new Set(skin.joints);
  const root = new Object3D();
  const objects: Object3D[] = [];
  for (let i = 0; i < skeleton.jointCount; i++) {
    const o = skinJoints.has(i) ? new Bone() : new Object3D();
    o.name = `j${i}`;
    o.position.fromArray(restPose.translations, 3 * i);
    o.quaternion.fromArray(restPose.rotations, 4 * i);
    o.scale.fromArray(restPose.scales, 3 * i);
    const parent = skeleton.parents[i];
    (parent >= 0 ? objects[parent] : root).add(o);
    objects.push(o);
  }
  const cubic = await gltfCubicSplineFactory();
  const threeClips = clips.map((clip) => new ThreeClip(clip.name, clip.duration, clip.channels.map((ch) => {
    if (ch.path === 'weights') throw new Error('three-rig: the bench rig has no morph targets');
    const Track = ch.path === 'rotation' ? QuaternionKeyframeTrack : VectorKeyframeTrack;
    const track: KeyframeTrack = new Track(`j${ch.joint}.${PATHS[ch.path]}`, ch.times as unknown as number[], ch.values as unknown as number[]);
    if (ch.interpolation === 'STEP') track.setInterpolation(InterpolateDiscrete);
    else if (ch.interpolation === 'CUBICSPLINE') (track as unknown as { createInterpolant: unknown }).createInterpolant = cubic;
    else if (ch.interpolation !== 'LINEAR') throw new Error(`three-rig: ${ch.interpolation} has no three.js interpolant`);
    return track;
  })));
  const bones = Array.from(skin.joints, (j) => objects[j] as Bone);
  const inverses = Array.from(skin.joints, (_, i) => new Matrix4().fromArray(skin.inverseBindMatrices, 16 * i));
  const threeSkeleton = new ThreeSkeleton(bones, inverses);
  let mesh: SkinnedMesh | null = null;
  if (primitive) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(primitive.positions, 3));
    geometry.setAttribute('normal', new BufferAttribute(primitive.normals, 3));
    geometry.setAttribute('skinIndex', new BufferAttribute(primitive.joints!, 4));
    geometry.setAttribute('skinWeight', new BufferAttribute(primitive.weights!, 4));
    // Without its index three.js would draw the vertices themselves as a triangle list (drawArrays): other triangles.
    geometry.setIndex(new BufferAttribute(primitive.indices, 1));
    mesh = new SkinnedMesh(geometry, new MeshBasicMaterial());
    root.add(mesh);
    mesh.bind(threeSkeleton, new Matrix4());
  }
  root.updateMatrixWorld(true);
  return { root, objects, skeleton: threeSkeleton, mixer: new AnimationMixer(root), clips: threeClips, mesh };
}
