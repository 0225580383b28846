/**
 * three-vrm as the reference for the generated avatars (tests only; three.js never enters src/): both readers load
 * the same GLB bytes, and the skinned vertices of every primitive are compared, keyed by glTF mesh and primitive.
 *
 * - three's side: `GLTFLoader` + `VRMLoaderPlugin` (+ `VRMAnimationLoaderPlugin`), `VRMUtils.rotateVRM0` for a 0.x
 *   file, then per vertex `SkinnedMesh.getVertexPosition` (morph targets, then `applyBoneTransform`) with the bind
 *   matrix set to identity: the glTF rule `Σ w · jointWorld · inverseBind · v`, in world space.
 * - Sinew's side: `loadModel` (0.x turned at load), an `AnimatedModel` evaluated by the caller, then the CPU
 *   reference `skinVertices` over the morphed primitive (`MorphedPrimitive`), plus the model's origin: model space,
 *   which is three's world space (the scene at the origin).
 *
 * The generated avatars are read without their cheek texture (`texture: false`): node has no image decoder for
 * GLTFLoader, and the texture moves no vertex.
 */
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, type VRMAnimation } from '@pixiv/three-vrm-animation';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import type { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { buildAvatarVrm0 } from '../../../src/procedural/avatar/avatar-vrm0.ts';
import { buildAvatarVrm1 } from '../../../src/procedural/avatar/avatar-vrm1.ts';

export const none = async () => null;

/** The generated avatar's bytes: VRM `version` 1.0 or 0.x, look-at of `lookAt` type, no texture. */
export function avatarBytes(version: '1' | '0', lookAt: 'bone' | 'expression' = 'bone'): Promise<Uint8Array> {
  return version === '1' ? buildAvatarVrm1({ lookAt, texture: false }) : buildAvatarVrm0({ lookAt, texture: false });
}

/** Sinew's reading of `bytes` (`avatar.vrm`). */
export function loadSinew(bytes: Uint8Array): Promise<ModelAsset> {
  return loadModel({ name: 'avatar.vrm', bytes }, none);
}

/** What three-vrm made of a file: the VRM, GLTFLoader's parser (for node and mesh indices) and its VRMA animations. */
export interface ThreeVrmReading {
  readonly vrm: VRM;
  readonly parser: any;
}

function threeLoader(): GLTFLoader {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  return loader;
}

/** three-vrm's reading of an avatar; a 0.x one turned by `VRMUtils.rotateVRM0` to face +Z as Sinew turns it at load. */
export async function loadThreeVrm(bytes: Uint8Array): Promise<ThreeVrmReading> {
  const gltf = await threeLoader().parseAsync(bytes.slice().buffer, '');
  const vrm = gltf.userData.vrm as VRM;
  VRMUtils.rotateVRM0(vrm); // nothing for 1.0
  vrm.scene.updateMatrixWorld(true);
  return { vrm, parser: gltf.parser };
}

/** three-vrm-animation's reading of a `.vrma`. */
export async function loadThreeVrma(bytes: Uint8Array): Promise<VRMAnimation> {
  const gltf = await threeLoader().parseAsync(bytes.slice().buffer, '');
  return (gltf.userData.vrmAnimations as VRMAnimation[])[0];
}

/** Skinned positions (world, metres, xyz per vertex) keyed `mesh/primitive` (glTF indices), three.js's side. */
export function threePositions(reading: ThreeVrmReading): Map<string, Float64Array> {
  const { vrm, parser } = reading;
  vrm.scene.updateMatrixWorld(true);
  const out = new Map<string, Float64Array>();
  const v = new THREE.Vector3();
  vrm.scene.traverse((object) => {
    const mesh = object as THREE.SkinnedMesh;
    if (!mesh.isSkinnedMesh) return;
    const association = parser.associations.get(mesh);
    if (association?.meshes === undefined) throw new Error(`three: no glTF mesh for ${mesh.name}`);
    mesh.skeleton.update();
    mesh.bindMatrix.identity();
    mesh.bindMatrixInverse.identity();
    const count = mesh.geometry.getAttribute('position').count;
    const positions = new Float64Array(3 * count);
    for (let i = 0; i < count; i++) {
      mesh.getVertexPosition(i, v);
      positions[3 * i] = v.x; positions[3 * i + 1] = v.y; positions[3 * i + 2] = v.z;
    }
    out.set(`${association.meshes}/${association.primitives ?? 0}`, positions);
  });
  return out;
}

/** Skinned positions (model space + origin, metres) keyed `mesh/primitive`, Sinew's CPU reference after `animated.evaluate`. */
export function sinewPositions(asset: ModelAsset, animated: AnimatedModel): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>();
  const origin = animated.origin;
  for (const instance of asset.meshInstances) {
    if (instance.skin < 0) continue;
    asset.meshes[instance.mesh].primitives.forEach((source, p) => {
      if (source.joints === null) return;
      const offset = instance.morphWeightOffset ?? -1;
      const primitive = source.morphTargets && offset >= 0 ? new MorphedPrimitive(source).apply(animated.morphWeights, offset) : source;
      const skinned = new Float32Array(3 * primitive.vertexCount);
      skinVertices(skinned, null, primitive, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin]);
      out.set(`${instance.mesh}/${source.sourceIndex ?? p}`, Float64Array.from(skinned, (x, i) => x + origin[i % 3]));
    });
  }
  return out;
}

/** The diagonal of the box around `positions` (every primitive), metres. */
export function diagonalOf(positions: Map<string, Float64Array>): number {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const p of positions.values()) {
    for (let i = 0; i < p.length; i++) {
      min[i % 3] = Math.min(min[i % 3], p[i]);
      max[i % 3] = Math.max(max[i % 3], p[i]);
    }
  }
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
}

/**
 * The largest distance between a vertex of `ours` and the same vertex of `theirs`, in units of `diagonal`.
 * @throws Error when the two do not hold the same primitives with the same vertex counts
 */
export function worstError(ours: Map<string, Float64Array>, theirs: Map<string, Float64Array>, diagonal: number): number {
  if ([...ours.keys()].sort().join() !== [...theirs.keys()].sort().join()) {
    throw new Error(`primitives differ: Sinew ${[...ours.keys()].sort()} three ${[...theirs.keys()].sort()}`);
  }
  let worst = 0;
  for (const [key, a] of ours) {
    const b = theirs.get(key)!;
    if (a.length !== b.length) throw new Error(`${key}: ${a.length / 3} vertices in Sinew, ${b.length / 3} in three`);
    for (let i = 0; i < a.length; i += 3) worst = Math.max(worst, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
  }
  return worst / diagonal;
}

/** The largest distance between `a` and `b`, over every vertex, in units of `diagonal` (how far a change moved it). */
export const movedBy = worstError;
