import type { ModelAsset } from '../asset/model-asset.ts';
import { packPaletteRows } from '../skinning/palette-rows.ts';
import type { PoseBuffers } from '../skeleton/pose-buffers.ts';
import { computeDualQuaternionPalette } from '../skinning/dual-quaternion-palette.ts';
import { accumulateSkinBounds, transformBoxInto, type JointBounds } from '../skinning/joint-bounds.ts';
import type { InstancePoseLayout } from '../skinning/instance-blocks.ts';

/**
 * Writes one evaluated pose into `out` from texel `texel` in `layout` (src/skinning/instance-blocks.ts): every
 * skin's palette (`layout.stride` 3: packed rows, `packPaletteRows`; 4: the dual quaternion form,
 * `computeDualQuaternionPalette`), then every rigid mesh instance's node matrix `pose.modelMatrices[node]`
 * (relative to the model origin) as 3 packed rows, then every morphed mesh instance's weights
 * (`pose.morphWeights` at its `morphWeightOffset`). Used for live blocks and baked frames alike. Allocates nothing.
 * @param out `Float32Array` of at least `4·(texel + layout.texels)` floats
 */
export function packInstancePose(out: Float32Array, texel: number, pose: PoseBuffers, asset: ModelAsset, layout: InstancePoseLayout): void {
  const skins = asset.skins;
  for (let s = 0; s < skins.length; s++) {
    const at = 4 * (texel + layout.skinOffsets[s]);
    if (layout.stride === 4) computeDualQuaternionPalette(out, pose.skinMatrices[s], skins[s].joints.length, at);
    else packPaletteRows(out, pose.skinMatrices[s], skins[s].joints.length, at);
  }
  const instances = asset.meshInstances, rigid = layout.rigidOffsets, morph = layout.morphOffsets;
  for (let m = 0; m < instances.length; m++) {
    if (rigid[m] >= 0) packPaletteRows(out, pose.modelMatrices, 1, 4 * (texel + rigid[m]), 16 * instances[m].node);
    if (morph[m] >= 0 && pose.morphWeights) {
      const from = instances[m].morphWeightOffset!, count = asset.meshes[instances[m].mesh].morphTargetCount!, at = 4 * (texel + morph[m]);
      for (let t = 0; t < count; t++) out[at + t] = pose.morphWeights[from + t];
    }
  }
}

/** Per mesh instance, its morph target count (0 without morph targets): what `InstancePoseLayout` holds weights for. */
export function morphTargetsOfInstances(asset: ModelAsset): number[] {
  return asset.meshInstances.map((m) => ((m.morphWeightOffset ?? -1) >= 0 ? asset.meshes[m.mesh].morphTargetCount ?? 0 : 0));
}

/**
 * Per mesh instance, the box of its mesh's positions in the mesh's own space (`Float64Array(6·meshInstances)`,
 * min then max); an empty box (min > max) for skinned instances, whose bounds are per joint. Load time only.
 */
export function rigidMeshBoxes(asset: ModelAsset): Float64Array {
  const boxes = new Float64Array(6 * asset.meshInstances.length);
  asset.meshInstances.forEach((instance, m) => {
    const o = 6 * m;
    boxes[o] = boxes[o + 1] = boxes[o + 2] = Infinity;
    boxes[o + 3] = boxes[o + 4] = boxes[o + 5] = -Infinity;
    if (instance.skin >= 0) return;
    for (const primitive of asset.meshes[instance.mesh].primitives) {
      const p = primitive.positions;
      for (let i = 0; i < p.length; i += 3) {
        for (let a = 0; a < 3; a++) {
          if (p[i + a] < boxes[o + a]) boxes[o + a] = p[i + a];
          if (p[i + a] > boxes[o + 3 + a]) boxes[o + 3 + a] = p[i + a];
        }
      }
    }
  });
  return boxes;
}

/**
 * Per mesh instance with morph targets, per target t the farthest its POSITION deltas move a vertex
 * (`max_v |Δpₜ(v)|` over the mesh's primitives, `Float64Array(targets)`); null for the others. With a pose's
 * weights, `Σₜ |wₜ|·reachₜ` bounds how far the morph moves any bind-pose vertex (the triangle inequality).
 * Load time only.
 */
export function morphReach(asset: ModelAsset): (Float64Array | null)[] {
  return asset.meshInstances.map((instance) => {
    const mesh = asset.meshes[instance.mesh], n = mesh.morphTargetCount ?? 0;
    if (!(n > 0) || (instance.morphWeightOffset ?? -1) < 0) return null;
    const reach = new Float64Array(n);
    for (const primitive of mesh.primitives) {
      const d = primitive.morphTargets?.positions;
      if (!d) continue;
      for (let t = 0; t < n; t++) {
        const base = 3 * t * primitive.vertexCount;
        for (let v = 0; v < primitive.vertexCount; v++) {
          const o = base + 3 * v, len = Math.hypot(d[o], d[o + 1], d[o + 2]);
          if (len > reach[t]) reach[t] = len;
        }
      }
    }
    return reach;
  });
}

/** What {@link accumulatePoseBounds} reads of a model, computed once at load. */
export interface PoseBoundsData {
  /** Per skin, its per-joint bounds (`computeJointBounds`). */
  readonly jointBounds: readonly JointBounds[];
  /** {@link rigidMeshBoxes}. */
  readonly rigidBoxes: Float64Array;
  /** {@link morphReach}. */
  readonly morphReach: readonly (Float64Array | null)[];
}

/**
 * Grows `box` (`Float64Array(6)`, relative to the model origin) by everything the pose moves: every skin's
 * per-joint bounds under its skinning matrices (`accumulateSkinBounds`) and every rigid mesh's box under its node's
 * matrix, each grown first by how far the pose's morph weights may move a vertex of the meshes drawn with it
 * ({@link morphReach}). The skin bounds hold linear blend skinning with weights summing to 1
 * (src/skinning/joint-bounds.ts). Allocates nothing.
 */
export function accumulatePoseBounds(box: Float64Array, pose: PoseBuffers, asset: ModelAsset, data: PoseBoundsData, origin: Float64Array): void {
  const instances = asset.meshInstances, b = data.rigidBoxes, m = pose.modelMatrices;
  for (let s = 0; s < data.jointBounds.length; s++) {
    let pad = 0;
    for (let i = 0; i < instances.length; i++) if (instances[i].skin === s) pad = Math.max(pad, morphPad(pose, instances[i].morphWeightOffset, data.morphReach[i]));
    accumulateSkinBounds(box, data.jointBounds[s], pose.skinMatrices[s], origin, pad);
  }
  for (let i = 0; i < instances.length; i++) {
    const o = 6 * i;
    if (!(b[o] <= b[o + 3])) continue;
    const pad = morphPad(pose, instances[i].morphWeightOffset, data.morphReach[i]);
    transformBoxInto(box, b, o, pad, m, 16 * instances[i].node);
  }
}

/** `Σₜ |wₜ|·reachₜ` for the weights at `offset` of `pose.morphWeights` (0 without morph targets). */
function morphPad(pose: PoseBuffers, offset: number | undefined, reach: Float64Array | null): number {
  if (!reach || offset === undefined || offset < 0 || !pose.morphWeights) return 0;
  let pad = 0;
  for (let t = 0; t < reach.length; t++) pad += Math.abs(pose.morphWeights[offset + t]) * reach[t];
  return pad;
}
