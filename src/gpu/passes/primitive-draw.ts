import { mat3, mat4 } from 'gl-matrix';
import { determinant3x3, multiplyStrided } from '../../math/strided-mat4.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../skinning/skinning-method.ts';
import { bindWeightView, drawEdges, type EdgeTarget } from '../debug/inspection-binding.ts';
import type { MaterialValues } from '../../avatar/material-values.ts';
import { createDrivenMaterialUniforms } from '../shading/driven-material.ts';
import type { LightingLibrary } from '../shading/scene-lighting.ts';
import type { GpuPrimitive } from '../skinning/gpu-model.ts';
import { bindEnvironmentLight, bindMaterial } from '../skinning/material-binding.ts';
import { bindMorphTargets } from '../skinning/morph-binding.ts';
import { bindSkinPalette, type SkinPaletteRequest } from '../skinning/palette-binding.ts';
import { paletteCapacity, paletteStride, type PaletteLimits, type PalettePath } from '../skinning/palette-path.ts';
import { MORPH_ACTIVE_UNIT, OVERFLOW_UNIT, type ProgramCache, type SkinningProgram } from '../skinning/program-cache.ts';
import { createShaderVariant, type ShaderVariant } from '../skinning/shader-variant.ts';
import type { SkinnedVertexBuffers } from '../skinning/skinned-vertex-buffers.ts';
import { FoldedCamera } from './folded-camera.ts';
import { OutlineBinding, outlineFeatures } from './outline-material.ts';
import type { RenderItem } from './render-item.ts';

const IDENTITY = mat4.create() as Float32Array;

/** What a pass draws with, shared by the renderer's passes and the crowd's (src/crowd/gpu/crowd-pass.ts). */
export interface PassContext {
  readonly gl: WebGL2RenderingContext;
  /** The renderer's programs, one per {@link ShaderVariant}. */
  readonly programs: ProgramCache;
  /** Scratch: the variant of the primitive being drawn (filled per primitive, never reallocated). */
  readonly variant: ShaderVariant;
  /** The camera of the pass, the model origin folded in. */
  readonly camera: FoldedCamera;
  /** Sets the MToon outline's vertex uniforms of an outline draw (outline-material.ts). */
  readonly outlines: OutlineBinding;
}

/** What the renderer lends its passes and may replace on a context restore: its limits and its light. */
export interface PassSettings {
  readonly paletteLimits: PaletteLimits;
  readonly lights: LightingLibrary;
}

/** Which primitive one {@link PrimitiveDraw} call draws: a mesh instance's primitive, or a rigid batch. */
type DrawRecordKind = 'mesh' | 'rigid-batch';

/**
 * The draw record of the primitive being drawn (scratch, rewritten per primitive): a mesh instance's primitive
 * (`kind` 'mesh': its instance and primitive index, node and skin), or a rigid batch (`kind` 'rigid-batch':
 * `gpuModel.rigidBatches[index]`, placed by its anchor node, no skin, no morph targets).
 */
interface DrawRecord {
  kind: DrawRecordKind;
  /** The mesh instance (kind 'mesh') or the batch (kind 'rigid-batch'). */
  index: number;
  /** Primitive index in the instance's mesh (kind 'mesh'). */
  primitiveIndex: number;
  primitive: GpuPrimitive | null;
  /** Skeleton node whose model matrix places a rigid primitive (a batch: its anchor). */
  node: number;
  /** The instance's skin, −1 for a rigid instance or a batch. */
  skin: number;
}

/**
 * Draws one primitive of a {@link RenderItem} with the renderer's programs: program (switched only when the
 * variant changes), the instance's matrices, the palette (packed once per draw per skin), morph targets, the
 * material's uniforms and textures, culling and winding; or, in a skin-once pass, captures its skinned vertices.
 * The passes (opaque, rigid batches, blend, inspection, skin once) choose which primitives and in which order.
 * One per renderer; {@link begin} starts each item's draw. Allocates nothing per draw.
 */
export class PrimitiveDraw implements PassContext {
  readonly camera = new FoldedCamera();
  readonly variant = createShaderVariant();
  /** Milliseconds the current item's draw spent packing and handing palettes to the GL. */
  paletteMs = 0;
  private palettePath: PalettePath = 'uniform';
  private method: SkinningMethod = DEFAULT_SKINNING_METHOD;
  private serial = 0;
  private program: SkinningProgram | null = null;
  /** Mesh instance whose active morph-target list is uploaded (−1: none yet this draw), and its length. */
  private morphInstance = -1;
  private morphActive = 0;
  /** The buffers a skin-once pass writes, or null in a draw. */
  private capture: SkinnedVertexBuffers | null = null;
  /** Whether the item's inspection view (`item.style`) is drawn. */
  private inspection = true;
  /** Whether the primitive being drawn is drawn as its MToon outline (the inverted hull; outline-pass.ts). */
  private outline = false;
  readonly outlines: OutlineBinding;
  private readonly record: DrawRecord = { kind: 'mesh', index: 0, primitiveIndex: 0, primitive: null, node: 0, skin: -1 };
  /** Scratch: `u_toDisplay` of the primitive being drawn. */
  private readonly toDisplay = new Float32Array(16);
  private readonly normalMatrix = new Float32Array(9);
  /** Scratch: the palette request of the skinned primitive being drawn. */
  private readonly palette: SkinPaletteRequest = {
    skinMatrices: new Float32Array(0), jointCount: 0, method: DEFAULT_SKINNING_METHOD, palettePath: 'uniform', capacity: 0, serial: 0,
  };
  /** The item's material values (`RenderItem.materialValues`, set per primitive) and the uniforms they are written into. */
  private readonly driven = { values: null as MaterialValues | null, scratch: createDrivenMaterialUniforms(), time: 0 };
  /** Scratch: the primitive whose wireframe is drawn (filled before each use). */
  private edgeTarget: EdgeTarget | null = null;

  constructor(readonly gl: WebGL2RenderingContext, readonly programs: ProgramCache, private readonly settings: PassSettings) {
    this.outlines = new OutlineBinding(gl);
  }

  /**
   * Starts `item`'s draw: its resolved palette path, a new palette serial (each skin's palette is packed once
   * per draw), no program or morph list yet.
   * @param capture the buffers of a skin-once pass, or null to draw
   * @param inspection whether to draw the item's inspection view (`item.style`); never in a skin-once pass
   */
  begin(item: RenderItem, palettePath: PalettePath, capture: SkinnedVertexBuffers | null, inspection: boolean): void {
    this.inspection = inspection && capture === null;
    this.palettePath = palettePath;
    this.method = item.method;
    this.serial++;
    this.program = null;
    this.morphInstance = -1;
    this.capture = capture;
    this.paletteMs = 0;
  }

  /** Ends a skin-once pass (the capture buffers are not written again). */
  end(): void {
    this.capture = null;
  }

  /** Draws primitive `p` of mesh instance `i` of `item`. */
  drawMeshPrimitive(item: RenderItem, i: number, p: number): void {
    const instance = item.gpuModel.asset.meshInstances[i];
    const record = this.record;
    record.kind = 'mesh';
    record.index = i;
    record.primitiveIndex = p;
    record.primitive = item.gpuModel.primitive(instance.mesh, p);
    record.node = instance.node;
    record.skin = instance.skin;
    this.drawRecord(item, record);
  }

  /**
   * Draws the MToon outline of primitive `p` of mesh instance `i` of `item` (its material must have one,
   * outline-material.ts `outlineModeOf`): the `MTOON_OUTLINE` variant, front faces culled whatever `doubleSided`
   * (VRMC_materials_mtoon-1.0 README "Double Sided"), depth tested; blending as the caller set it.
   */
  drawMeshOutline(item: RenderItem, i: number, p: number): void {
    this.outline = true;
    try {
      this.drawMeshPrimitive(item, i, p);
    } finally {
      this.outline = false;
    }
  }

  /** Draws the MToon outline of rigid batch `b` of `item` (one material per batch), as {@link drawMeshOutline}. */
  drawRigidBatchOutline(item: RenderItem, b: number): void {
    this.outline = true;
    try {
      this.drawRigidBatch(item, b);
    } finally {
      this.outline = false;
    }
  }

  /** Draws rigid batch `b` of `item` (`gpuModel.rigidBatches`, src/gpu/skinning/rigid-batches.ts), placed by its anchor node's matrix. */
  drawRigidBatch(item: RenderItem, b: number): void {
    const batch = item.gpuModel.rigidBatches[b];
    const record = this.record;
    record.kind = 'rigid-batch';
    record.index = b;
    record.primitiveIndex = 0;
    record.primitive = batch.primitive;
    record.node = batch.anchor;
    record.skin = -1;
    this.drawRecord(item, record);
  }

  private drawRecord(item: RenderItem, record: DrawRecord): void {
    const gl = this.gl;
    const gpuModel = item.gpuModel, pose = item.pose;
    const asset = gpuModel.asset;
    const palettePath = this.palettePath, method = this.method;
    const stride = paletteStride(method.skinning);
    const origin = pose.origin;
    // A skin-once pass writes model space (relative to O): no display matrix, and no inspection view.
    const display = this.capture ? IDENTITY : item.displayMatrix ?? IDENTITY;
    const mesh = record.kind === 'mesh';
    const i = record.index, p = record.primitiveIndex;
    const instance = mesh ? asset.meshInstances[i] : null;
    const primitive = record.primitive!;
    const node = record.node;
    const skin = record.skin;
    const style = this.inspection ? item.style : null;
    // Vertices skinned before the draw are in model space already: drawn by the rigid variant, placed by the display matrix.
    const source = this.capture ? null : item.skinnedVertices ?? style?.cpuVertices ?? null;
    const cpuVao = source && skin >= 0 && primitive.skinned ? source.vaoOf(i, p) : null;
    const skinned = skin >= 0 && primitive.skinned && !cpuVao;
    const surface = style ? style.surface : 'shaded';
    const weightView = surface === 'weights' || surface === 'influences';
    const jointCount = skinned ? asset.skins[skin].joints.length : 0;
    const limits = this.settings.paletteLimits;
    const capacity = paletteCapacity(palettePath, jointCount, limits, stride);
    // Morph targets: the instance's non-zero weights, uploaded when its first morphed primitive is drawn
    // (morph-texture.ts; again only if another instance's list was uploaded in between, e.g. by BLEND sorting).
    let morphActive = 0;
    const morphOffset = instance?.morphWeightOffset ?? -1;
    const morphCount = instance ? asset.meshes[instance.mesh].morphTargetCount ?? 0 : 0;
    if (!cpuVao && primitive.morphDeltas !== null && morphOffset >= 0 && morphCount > 0 && pose.morphWeights && gpuModel.morphActive) {
      if (this.morphInstance !== i) {
        gl.activeTexture(gl.TEXTURE0 + MORPH_ACTIVE_UNIT);
        this.morphActive = gpuModel.morphActive.upload(pose.morphWeights, morphOffset, morphCount);
        this.morphInstance = i;
      }
      morphActive = this.morphActive;
    }
    const morphed = morphActive > 0;
    const materialIndex = primitive.asset.material;
    const features = gpuModel.materialFeatures(materialIndex, primitive);
    const variant = this.variant;
    variant.skinned = skinned;
    variant.palettePath = palettePath;
    variant.jointCapacity = capacity;
    variant.transformFeedback = this.capture !== null;
    variant.skinning = method.skinning;
    variant.weights = method.weights;
    variant.influences = primitive.influences;
    variant.instanced = false;
    variant.morphTargets = morphed;
    variant.features = this.outline ? features | outlineFeatures(gpuModel, primitive) : features;
    variant.weightView = weightView;
    const program = this.programs.get(variant);
    if (program !== this.program) {
      this.program = program;
      const lights = this.settings.lights;
      gl.useProgram(program.program);
      gl.uniformMatrix4fv(program.u_viewProjection, false, this.camera.viewProjection);
      gl.uniform3fv(program.u_eye, this.camera.eye);
      gl.uniform1f(program.u_exposure, lights.exposure);
      gl.uniform1i(program.u_toneMapping, lights.operator);
      bindEnvironmentLight(gl, program, lights.current.light);
      if (origin) gl.uniform3f(program.u_origin, origin[0], origin[1], origin[2]);
      else gl.uniform3f(program.u_origin, 0, 0, 0);
    }
    if (weightView) bindWeightView(gl, program, style!, skinned || cpuVao !== null ? skin : -1, node);
    // Per-instance matrices (recomputed per primitive: a program switch may sit between them).
    if (skinned || cpuVao) this.toDisplay.set(display);
    else multiplyStrided(this.toDisplay, 0, display, 0, pose.modelMatrices, 16 * node);
    if (!mat3.normalFromMat4(this.normalMatrix, this.toDisplay)) mat3.identity(this.normalMatrix);
    gl.uniformMatrix4fv(program.u_toDisplay, false, this.toDisplay);
    gl.uniformMatrix3fv(program.u_normalMatrix, false, this.normalMatrix);
    if (skinned) {
      const request = this.palette;
      request.skinMatrices = pose.skinMatrices[skin];
      request.jointCount = jointCount;
      request.method = method;
      request.palettePath = palettePath;
      request.capacity = capacity;
      request.serial = this.serial;
      this.paletteMs += bindSkinPalette(gl, program, gpuModel, skin, request);
    }
    if (skinned && primitive.overflowTexture) {
      gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, primitive.overflowTexture);
    }
    bindMorphTargets(gl, gpuModel, primitive, program, morphActive);
    if (this.capture) {
      this.capture.capture(i, p, primitive.vao, primitive.vertexCount);
      return;
    }
    this.driven.values = item.materialValues;
    this.driven.time = item.materialTime;
    const material = bindMaterial(gl, program, gpuModel, primitive, this.driven);
    gl.uniform1i(program.u_flatShading, primitive.asset.flatShading ? 1 : 0);
    if (this.outline) {
      this.outlines.bind(program, gpuModel, primitive, this.camera);
      gl.enable(gl.CULL_FACE);
      gl.cullFace(gl.FRONT);
    } else if (material?.doubleSided) gl.disable(gl.CULL_FACE);
    else gl.enable(gl.CULL_FACE);
    // A mirroring transform flips the winding (glTF 2.0 §3.7.4). For a skinned mesh the skinning matrices place it:
    // its first skinning matrix stands for the skin (a skeleton is mirrored as a whole, at its root).
    let mirrored = mat4.determinant(this.toDisplay) < 0;
    // Vertices skinned before the draw were mirrored by the same skinning matrices.
    if (skin >= 0 && primitive.skinned && asset.skins[skin].joints.length > 0 && determinant3x3(pose.skinMatrices[skin], 0) < 0) mirrored = !mirrored;
    gl.frontFace(mirrored ? gl.CW : gl.CCW);
    const vao = cpuVao ?? primitive.vao;
    gl.bindVertexArray(vao);
    if (surface !== 'none') {
      // Under a wireframe the surface sits a little deeper, so the edges win the depth test.
      if (style?.edgesOf) {
        gl.enable(gl.POLYGON_OFFSET_FILL);
        gl.polygonOffset(1, 1);
      }
      gl.drawElements(gl.TRIANGLES, primitive.indexCount, primitive.indexType, 0);
      gl.disable(gl.POLYGON_OFFSET_FILL);
    }
    if (this.outline) gl.cullFace(gl.BACK);
    if (style?.edgesOf) {
      const target = this.edgeTarget ??= { primitive, vao, white: gpuModel.whiteTexture };
      target.primitive = primitive;
      target.vao = vao;
      target.white = gpuModel.whiteTexture;
      drawEdges(gl, program, target, style);
    }
  }
}
