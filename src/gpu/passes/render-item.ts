import type { MaterialValues } from '../../avatar/material-values.ts';
import type { PoseBuffers } from '../../skeleton/pose-buffers.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../skinning/skinning-method.ts';
import type { DrawStyle } from '../debug/draw-style.ts';
import type { GpuModel } from '../skinning/gpu-model.ts';
import type { PaletteRequest } from '../skinning/palette-path.ts';
import type { SkinnedVertexSource } from '../skinning/skinned-vertex-source.ts';

/**
 * One model as the renderer's passes draw it (`SkinnedRenderer.draw`): its GPU side, its pose and how to skin,
 * place and shade it. Plain data, caller-owned: a view keeps one per model and rewrites its fields in place each
 * frame (no per-frame allocation); the renderer keeps no reference past the draw. Mirroring needs no field: it
 * is read from the display matrix and the skinning matrices (glTF 2.0 §3.7.4), primitive by primitive.
 * Usage: docs/guide/own-canvas.md.
 */
export interface RenderItem {
  /** The model's GPU side (`SkinnedRenderer.upload`), in the renderer's context. */
  gpuModel: GpuModel;
  /**
   * The model's pose, evaluated for this frame (e.g. an `AnimatedModel`): `modelMatrices` (16·nodeCount floats),
   * `skinMatrices` per skin (16·jointCount floats), column-major, relative to `origin`; `morphWeights` per mesh
   * instance at its `morphWeightOffset` (docs/explanation/skinning-formulas.md M0).
   */
  pose: PoseBuffers;
  /**
   * `Float32Array(16)`, column-major: model space → display space, re-orienting the whole model (e.g. Z-up →
   * Y-up; `AnimatedModel.world`); null: identity.
   */
  displayMatrix: Float32Array | null;
  /** Skinning mode and weight policy: a shader variant each, no new upload. */
  method: SkinningMethod;
  /**
   * The palette request for this model (a path or `'auto'`); null: the renderer's own
   * (`RendererOptions.palette`), so views sharing one renderer each keep theirs.
   */
  paletteRequest: PaletteRequest | null;
  /**
   * Inspection views (weight heat map, influence count, wireframe, CPU-skinned vertices; {@link DrawStyle}),
   * drawn primitive by primitive by the inspection pass; null: the model as it is.
   */
  style: DrawStyle | null;
  /**
   * This frame's skinned vertices (`SkinnedRenderer.skinInto` with the same pose, palette request and method),
   * drawn instead of skinning them again; null: skinned in the draw.
   */
  skinnedVertices: SkinnedVertexSource | null;
  /**
   * An avatar's per-frame material values (`AnimatedModel.avatar.materialValues`, written by its expressions): the
   * materials they drive this frame are drawn with their colours and texture transforms, as uniforms; null (or
   * values made for other materials): every material as loaded.
   */
  materialValues: MaterialValues | null;
  /**
   * `Uint8Array(meshInstances.length)`: 1 for each mesh instance (index into `ModelAsset.meshInstances`) not drawn,
   * rigid or skinned (e.g. an avatar's third-person-only meshes in a first-person view, `firstPersonVisibility`);
   * absent, null, or an array of another length: every instance drawn. While set, rigid batches are drawn primitive by
   * primitive (a batch may merge a hidden instance with shown ones).
   */
  hiddenInstances?: Uint8Array | null;
  /**
   * Seconds of material time: what MToon's UV animation runs on (`speed × materialTime`, VRMC_materials_mtoon
   * "UV Animation"). A view advances it by each drawn frame's dt while playing and holds it while paused (like
   * the springs); 0 by default.
   */
  materialTime: number;
}

/**
 * A {@link RenderItem} for `gpuModel` in `pose`, the rest at its defaults: identity display matrix, LBS with
 * normalised weights, the renderer's palette request, no inspection view, skinned in the draw, materials as
 * loaded, every mesh instance drawn, material time 0. Allocates the
 * item: make one per model and rewrite its fields.
 */
export function createRenderItem(gpuModel: GpuModel, pose: PoseBuffers, displayMatrix: Float32Array | null = null): RenderItem {
  return { gpuModel, pose, displayMatrix, method: DEFAULT_SKINNING_METHOD, paletteRequest: null, style: null, skinnedVertices: null, materialValues: null, hiddenInstances: null, materialTime: 0 };
}
