import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/**
 * An independent evaluation of a glTF model by three.js (test-only oracle): GLTFLoader, AnimationMixer at
 * a time, updateMatrixWorld, then `getVertexPosition` per vertex (three's morph targets at the mixer's
 * influences, then for a SkinnedMesh `applyBoneTransform`). three.js applies the mesh's
 * bind matrix around skinning; setting it to identity gives the glTF rule p = Σ wᵢ·jointWorldᵢ·IBMᵢ·v
 * (glTF 2.0 §3.7.3), which is what Sinew evaluates. Images are dropped before parsing (node has no image
 * decoder); geometry and animation are untouched.
 *
 * @returns world positions per mesh node and primitive, keyed `node/primitive` (glTF node index)
 */
export async function evaluateWithThree(path: string, clipIndex: number, time: number): Promise<Map<string, Float32Array>> {
  return evaluatePosedWithThree(path, (scene, animations) => {
    if (animations.length > 0 && clipIndex >= 0) {
      const mixer = new THREE.AnimationMixer(scene);
      mixer.clipAction(animations[clipIndex]).play();
      mixer.setTime(time);
    }
  });
}

/** One clip of {@link evaluateBlendWithThree}: the glTF animation index, seconds into it, its weight. */
export interface ThreeAction {
  clip: number;
  time: number;
  weight: number;
}

/**
 * As {@link evaluateWithThree}, with several clips blended by three.js's AnimationMixer: each action playing at
 * its own time (`action.time`) and effective weight, applied by `mixer.update(0)` (three's PropertyMixer
 * accumulates them: positions and scales lerped, rotations slerped by weight / cumulative weight).
 * @param onClips receives the parsed clips' durations (seconds, three's `AnimationClip.duration`) before posing
 */
export async function evaluateBlendWithThree(path: string, actions: (durations: number[]) => ThreeAction[]): Promise<Map<string, Float32Array>> {
  return evaluatePosedWithThree(path, (scene, animations) => {
    const mixer = new THREE.AnimationMixer(scene);
    for (const { clip, time, weight } of actions(animations.map((a) => a.duration))) {
      const action = mixer.clipAction(animations[clip]);
      action.play();
      action.setEffectiveWeight(weight);
      action.time = time;
    }
    mixer.update(0);
  });
}

async function evaluatePosedWithThree(path: string, pose: (scene: THREE.Object3D, animations: THREE.AnimationClip[]) => void): Promise<Map<string, Float32Array>> {
  const { json, bin } = splitGlb(readFileSync(path));
  delete json.images;
  delete json.textures;
  delete json.samplers;
  for (const material of json.materials ?? []) {
    delete material.pbrMetallicRoughness?.baseColorTexture;
    delete material.pbrMetallicRoughness?.metallicRoughnessTexture;
    delete material.normalTexture;
    delete material.occlusionTexture;
    delete material.emissiveTexture;
  }
  const gltf = await new Promise<any>((resolve, reject) => {
    const loader = new GLTFLoader();
    loader.parse(joinGlb(json, bin).buffer as ArrayBuffer, '', resolve, reject);
  });
  const scene: THREE.Object3D = gltf.scene;
  pose(scene, gltf.animations);
  scene.updateMatrixWorld(true);
  const out = new Map<string, Float32Array>();
  const v = new THREE.Vector3();
  for (let node = 0; node < (json.nodes ?? []).length; node++) {
    if (json.nodes[node].mesh === undefined) continue;
    const object: THREE.Object3D = await gltf.parser.getDependency('node', node);
    // A single-primitive mesh node is the Mesh itself; several primitives become a Group of Meshes.
    const meshes = (object as THREE.Mesh).isMesh ? [object as THREE.Mesh] : (object.children.filter((c) => (c as THREE.Mesh).isMesh) as THREE.Mesh[]);
    // getDependency returns the cached (scene) instance, so its matrices are the animated ones.
    meshes.forEach((mesh, primitive) => {
      const position = mesh.geometry.getAttribute('position');
      const result = new Float32Array(3 * position.count);
      const skinned = (mesh as THREE.SkinnedMesh).isSkinnedMesh ? (mesh as THREE.SkinnedMesh) : null;
      if (skinned) {
        skinned.skeleton.update();
        skinned.bindMatrix.identity();
        skinned.bindMatrixInverse.identity();
      }
      for (let i = 0; i < position.count; i++) {
        // Morph targets at the mesh's morphTargetInfluences (the mixer's weights), then skinning for a SkinnedMesh.
        mesh.getVertexPosition(i, v);
        if (!skinned) v.applyMatrix4(mesh.matrixWorld);
        result.set([v.x, v.y, v.z], 3 * i);
      }
      out.set(`${node}/${primitive}`, result);
    });
  }
  return out;
}

function splitGlb(file: Buffer): { json: any; bin: Buffer | null } {
  if (file.readUInt32LE(0) !== 0x46546c67) return { json: JSON.parse(file.toString('utf8')), bin: null };
  const jsonLength = file.readUInt32LE(12);
  const json = JSON.parse(file.subarray(20, 20 + jsonLength).toString('utf8'));
  const binStart = 20 + jsonLength;
  const bin = binStart + 8 <= file.length ? file.subarray(binStart + 8, binStart + 8 + file.readUInt32LE(binStart)) : null;
  return { json, bin };
}

function joinGlb(json: any, bin: Buffer | null): Uint8Array {
  let text = Buffer.from(JSON.stringify(json), 'utf8');
  text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
  const binPadded = bin ? Buffer.concat([bin, Buffer.alloc((4 - (bin.length % 4)) % 4)]) : null;
  const total = 12 + 8 + text.length + (binPadded ? 8 + binPadded.length : 0);
  const out = Buffer.alloc(total);
  out.writeUInt32LE(0x46546c67, 0); out.writeUInt32LE(2, 4); out.writeUInt32LE(total, 8);
  out.writeUInt32LE(text.length, 12); out.writeUInt32LE(0x4e4f534a, 16); text.copy(out, 20);
  if (binPadded) {
    const at = 20 + text.length;
    out.writeUInt32LE(binPadded.length, at); out.writeUInt32LE(0x004e4942, at + 4); binPadded.copy(out, at + 8);
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}
