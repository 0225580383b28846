import type { ModelAsset } from '../asset/model-asset.ts';
import { skinningKernelBytes } from '../skinning/skinning-kernel.ts';
import { poseKernelBytes } from './pose-kernel.ts';
import { samplingArenaBytes } from './sampling-kernel.ts';

/** What {@link modelWorkingMemory} counts, for the memory budget's check and its message. */
export interface ModelWorkingMemory {
  /** Bytes in all (see {@link modelWorkingMemory}). */
  readonly bytes: number;
  /** The skeleton's joints (every glTF node). */
  readonly jointCount: number;
  /** Distinct (skinned primitive, skin) pairs: one CPU skinning kernel each, whatever the number of instances. */
  readonly skinnedPrimitives: number;
  /** Mesh instances with a skin (each draws one of those pairs). */
  readonly skinnedInstances: number;
}

/** Bytes per joint of a skin outside the kernels: its `SkinningContext` (f64: 12 + 12 + 16 per joint), the GPU palette (3 RGBA32F texels) and its CPU rows (16 f32). */
const SKIN_BYTES_PER_JOINT = 8 * 40 + 48 + 64;

/**
 * The memory Sinew makes from a loaded model to pose and skin it, once per model and never per mesh instance
 * (docs/guide/memory-ceiling.md): the pose kernel (`poseKernelBytes`: local pose and model matrix per joint,
 * skinning matrices per skin joint, and the sampling arena's per-joint part, `samplingArenaBytes` without clips);
 * per skin joint its `SkinningContext`, GPU palette and palette rows; per distinct (skinned primitive, skin) pair
 * one CPU `SkinningKernel` (`skinningKernelBytes`; bounds and framing skin with it, shared by every instance of the
 * pair, src/scene/model-vertex-skinner.ts) and, with morph targets, one morphed copy of its positions, normals and
 * tangents. Instances of a mesh add nothing: they share the mesh's GPU primitive, its kernels and their skin's
 * palette. The asset's own arrays (the decoded data) are not included: the loaders check them first.
 * @returns the bytes and what they are made of; linear in joints, skins and mesh instances
 */
export function modelWorkingMemory(asset: ModelAsset): ModelWorkingMemory {
  const n = asset.skeleton.jointCount;
  let bytes = poseKernelBytes(n, asset.skins, samplingArenaBytes([], n));
  for (const skin of asset.skins) bytes += SKIN_BYTES_PER_JOINT * skin.joints.length;
  // Per mesh, the skins its instances use (most meshes have one).
  const skinsOfMesh = asset.meshes.map(() => new Set<number>());
  let skinnedInstances = 0, skinnedPrimitives = 0;
  for (const instance of asset.meshInstances) {
    if (instance.skin < 0 || !asset.meshes[instance.mesh] || !asset.skins[instance.skin]) continue;
    skinnedInstances++;
    const skins = skinsOfMesh[instance.mesh];
    if (skins.has(instance.skin)) continue;
    skins.add(instance.skin);
    for (const primitive of asset.meshes[instance.mesh].primitives) {
      if (!primitive.joints || !primitive.weights) continue;
      skinnedPrimitives++;
      bytes += skinningKernelBytes(primitive, asset.skins[instance.skin].joints.length);
      if (primitive.morphTargets) bytes += 4 * (3 + 3 + (primitive.tangents ? 4 : 0)) * primitive.vertexCount;
    }
  }
  return { bytes, jointCount: n, skinnedPrimitives, skinnedInstances };
}
