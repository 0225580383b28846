import { ATTRIBUTE_LOCATIONS, type GpuModel, type GpuPrimitive } from '../../gpu/skinning/gpu-model.ts';
import { BAKED_UNIT, INSTANCE_UNIT, MORPH_DELTAS_UNIT, OVERFLOW_UNIT, type ProgramCache, type SkinningProgram } from '../../gpu/skinning/program-cache.ts';
import { bindMaterial, setAlphaState } from '../../gpu/skinning/material-binding.ts';
import { DEFAULT_SKINNING_METHOD } from '../../skinning/skinning-method.ts';
import { INSTANCE_TEXTURE_WIDTH, type BakedPalettes, type InstanceBlocks } from '../../skinning/instance-blocks.ts';
import { DataTexture } from '../../gpu/device/data-texture.ts';
import { GpuContext } from '../../gpu/device/gpu-context.ts';
import { bakedBlockTexels, emptyPrepassLayout, InstancePrepass, needsPrepass, prepassLayout } from './instance-prepass.ts';
import type { ShaderVariant } from '../../gpu/skinning/shader-variant.ts';


/**
 * The GL side of instanced skinning for one model in one context: the RGBA32F texture of instance blocks
 * ({@link InstanceBlocks}, {@link INSTANCE_TEXTURE_WIDTH} texels wide, grown to the blocks' rows on first
 * need), the baked palettes texture (uploaded when the {@link BakedPalettes} object changes) and the per-frame
 * pass that blends baked frames and folds each instance's world matrix into its pose's matrices
 * ({@link InstancePrepass}). Its textures are resources (src/gpu/device/): after a context loss the blocks are
 * uploaded and the pass run again by the next {@link upload}. Free with {@link dispose}.
 */
export class GpuInstances {
  private instanceTexture: DataTexture | null = null;
  private instanceRows = 0;
  private bakedTexture: DataTexture | null = null;
  private bakedSource: BakedPalettes | null = null;
  private readonly prepass: InstancePrepass;
  private readonly layout = emptyPrepassLayout();
  /** The blocks last uploaded and their {@link InstanceBlocks.revision} then. */
  private uploadedBlocks: InstanceBlocks | null = null;
  private uploadedRevision = -1;
  /** The texture the skinning shader reads for the blocks last uploaded: the pass's output, or the upload's. */
  private skinnedTexture: WebGLTexture | null = null;

  private readonly unlisten: () => void;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.prepass = new InstancePrepass(gl);
    // The blocks' texture and the pass's output come back empty: the next upload writes them again.
    this.unlisten = GpuContext.of(gl).listen({ restored: () => { this.uploadedBlocks = null; } });
  }

  /**
   * Uploads the first `blocks.drawCount` blocks with one `texSubImage2D` (whole rows, straight from
   * `blocks.blocks`), and the baked palettes if they changed; then runs the pass ({@link InstancePrepass}: baked
   * frames blended, the world matrix folded into LBS joints and rigid nodes) unless the blocks need neither
   * (live DQS without rigid meshes). Blocks already uploaded at their current {@link InstanceBlocks.revision}
   * are only bound again. Leaves the blocks the skinning shader reads, in the live layout
   * ({@link skinnedBlockTexels}), bound on INSTANCE_UNIT. Changes the current program when the pass runs.
   * @throws Error when the blocks need more rows than `MAX_TEXTURE_SIZE`
   */
  upload(blocks: InstanceBlocks): void {
    const gl = this.gl;
    if (blocks === this.uploadedBlocks && blocks.revision === this.uploadedRevision && this.skinnedTexture) {
      // The same frame's blocks drawn again (a shadow pass): they are on the GPU already.
      gl.activeTexture(gl.TEXTURE0 + INSTANCE_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, this.skinnedTexture);
      return;
    }
    this.uploadedBlocks = blocks;
    this.uploadedRevision = blocks.revision;
    const capacityRows = blocks.blocks.length / (4 * INSTANCE_TEXTURE_WIDTH);
    if (!this.instanceTexture || this.instanceRows < capacityRows) {
      this.instanceTexture?.dispose();
      this.instanceTexture = createRowsTexture(gl, capacityRows, null);
      this.instanceRows = capacityRows;
    }
    gl.activeTexture(gl.TEXTURE0 + INSTANCE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.instanceTexture.handle);
    const rows = Math.ceil((blocks.drawCount * blocks.blockTexels) / INSTANCE_TEXTURE_WIDTH);
    if (rows > 0) {
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, INSTANCE_TEXTURE_WIDTH, rows, gl.RGBA, gl.FLOAT, blocks.blocks, 0);
    }
    this.skinnedTexture = this.instanceTexture.handle;
    const baked = blocks.baked;
    if (baked && baked !== this.bakedSource) {
      gl.activeTexture(gl.TEXTURE0 + BAKED_UNIT);
      this.bakedTexture?.dispose();
      // Kept by reference: a restore uploads the baked palettes again.
      this.bakedTexture = createRowsTexture(gl, baked.rows.length / (4 * INSTANCE_TEXTURE_WIDTH), baked.rows);
      this.bakedSource = baked;
    }
    const layout = prepassLayout(blocks, this.layout);
    if (blocks.drawCount > 0 && needsPrepass(layout)) {
      this.prepass.run(this.instanceTexture.handle, baked ? this.bakedTexture!.handle : null, blocks.drawCount, layout, capacityRows);
      this.skinnedTexture = this.prepass.output;
    }
  }

  /** Deletes the textures. Idempotent. */
  dispose(): void {
    this.unlisten();
    this.instanceTexture?.dispose();
    this.bakedTexture?.dispose();
    this.prepass.dispose();
    this.instanceTexture = this.bakedTexture = this.skinnedTexture = null;
    this.bakedSource = null;
    this.uploadedBlocks = null;
    this.instanceRows = 0;
  }
}

/** Texels per block of the live layout the skinning shader reads: live blocks, or baked ones once blended. */
export function skinnedBlockTexels(blocks: InstanceBlocks): number {
  return blocks.baked ? bakedBlockTexels(blocks.baked) : blocks.blockTexels;
}

/** Rows of RGBA32F texels, `INSTANCE_TEXTURE_WIDTH` wide: filled from `texels` (and restored from them), or sized only. */
function createRowsTexture(gl: WebGL2RenderingContext, rows: number, texels: Float32Array | null): DataTexture {
  const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  if (rows > max) throw new Error(`instanced skinning: ${rows} rows of ${INSTANCE_TEXTURE_WIDTH} texels exceed MAX_TEXTURE_SIZE ${max}; use fewer instances or baked mode`);
  const contents = texels ? { format: gl.RGBA, type: gl.FLOAT, texels: texels as Float32Array<ArrayBuffer> } : undefined;
  return new DataTexture(gl, { internalFormat: gl.RGBA32F, width: INSTANCE_TEXTURE_WIDTH, height: rows, label: 'instanced skinning', contents });
}

/** Counts of one instanced draw, for readouts and the bench page. */
export interface InstancedDrawStats {
  /** `drawElementsInstanced` calls. */
  drawCalls: number;
  /** Vertices shaded: Σ over draws of vertexCount × instances. */
  verts: number;
}

/**
 * The instanced program for primitive `primitive` of mesh instance `instance` (index into
 * `gpuModel.asset.meshInstances`), or null when crowds do not draw it (a skinned mesh's primitive without
 * joints). A skinned primitive blends with `blocks.method`; a rigid one is the LBS variant skinned to one
 * entry, its node's matrix (see {@link bindInstancedPrimitive}); with morph targets, the `MORPH_TARGETS` variant.
 * @param variant the caller's reused scratch, overwritten with the primitive's variant (no allocation)
 */
export function instancedProgram(
  programs: ProgramCache, variant: ShaderVariant, gpuModel: GpuModel, blocks: InstanceBlocks, instance: number, primitive: GpuPrimitive,
  transformFeedback: boolean,
): SkinningProgram | null {
  const rigid = gpuModel.asset.meshInstances[instance].skin < 0;
  if (!rigid && !primitive.skinned) return null;
  const method = rigid ? DEFAULT_SKINNING_METHOD : blocks.method;
  variant.skinned = true;
  variant.palettePath = 'texture';
  variant.jointCapacity = 0;
  variant.transformFeedback = transformFeedback;
  variant.skinning = method.skinning;
  variant.weights = method.weights;
  variant.influences = rigid ? 4 : primitive.influences;
  variant.instanced = true;
  variant.morphTargets = primitive.morphDeltas !== null && blocks.morphOffsets[instance] >= 0;
  variant.features = transformFeedback ? 0 : gpuModel.materialFeatures(primitive.asset.material, primitive);
  variant.weightView = false;
  return programs.get(variant);
}

/**
 * Sets the instanced uniforms of `program` (in use) for primitive `primitive` of mesh instance `instance`:
 * block size, the entry in the pose (its skin's palette, or its rigid node's matrix),
 * its morph weights and deltas (morph targets: every target's weight from the pose, docs/explanation/skinning-formulas.md
 * M0) and `u_instanceBase` = 0; binds the overflow texture. A rigid primitive has no joint attributes: the generic
 * attributes stand in, joint 0 (its node's entry) with weight 1, so the shader's blend is that matrix.
 * Allocates nothing.
 */
export function bindInstancedPrimitive(
  gl: WebGL2RenderingContext, program: SkinningProgram, gpuModel: GpuModel, blocks: InstanceBlocks, instance: number, primitive: GpuPrimitive,
): void {
  const meshInstance = gpuModel.asset.meshInstances[instance];
  // Baked blocks are blended into the live layout first (GpuInstances.upload): the live offsets hold for both.
  gl.uniform1i(program.u_blockTexels, skinnedBlockTexels(blocks));
  gl.uniform1i(program.u_instanceBase, 0);
  const morphOffset = blocks.morphOffsets[instance];
  if (primitive.morphDeltas && morphOffset >= 0) {
    gl.activeTexture(gl.TEXTURE0 + MORPH_DELTAS_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, primitive.morphDeltas);
    gl.uniform1i(program.u_morphWeights, morphOffset);
    gl.uniform1i(program.u_morphActiveCount, gpuModel.asset.meshes[meshInstance.mesh].morphTargetCount ?? 0);
    gl.uniform4iv(program.u_morphLayout, primitive.morphLayout!);
  }
  if (meshInstance.skin < 0) {
    gl.uniform1i(program.u_skinOffset, blocks.rigidOffsets[instance]);
    gl.vertexAttribI4ui(ATTRIBUTE_LOCATIONS.a_joints, 0, 0, 0, 0);
    gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_weights, 1, 0, 0, 0);
    return;
  }
  gl.uniform1i(program.u_skinOffset, blocks.skinOffsets[meshInstance.skin]);
  if (primitive.overflowTexture) {
    gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, primitive.overflowTexture);
  }
}

/**
 * Draws `blocks.drawCount` instances of every mesh instance of `gpuModel` — skinned ones by `blocks.method`,
 * rigid ones placed by their node's matrix in each instance's pose — per primitive one
 * `drawElementsInstanced` for the instances that do not mirror and one for those that do
 * (`blocks.mirroredFrom`), with opposite `frontFace` (flipped once more for a mesh mirrored within the model,
 * `blocks.meshMirrored`; glTF 2.0 §3.7.4), morph targets at each instance's weights; its material by
 * `bindMaterial` (the caller binds the environment); the instance texture uploaded once first. Blended
 * materials are drawn in file order like the others (no sorting across instances). The camera's view-projection (world → clip) and
 * eye are set as given (world space is display space: instanced variants have no u_toDisplay). The GL state is left as `SkinnedRenderer.draw` leaves it. Allocates nothing.
 * @throws Error when `gpuModel`'s mesh instances are not those the blocks are laid out for (upload `Crowd.asset`)
 */
export function drawInstances(
  gl: WebGL2RenderingContext, programs: ProgramCache, variant: ShaderVariant, gpuModel: GpuModel, gpu: GpuInstances, blocks: InstanceBlocks,
  viewProjection: Float32Array, eye: Float32Array, stats?: InstancedDrawStats,
): void {
  if (stats) stats.drawCalls = stats.verts = 0;
  if (blocks.rigidOffsets.length !== gpuModel.asset.meshInstances.length) {
    // The blocks are laid out per mesh instance of the crowd's asset: another asset (a crowd made with props, and the
    // character uploaded without them) would read the wrong texels.
    throw new Error(`${gpuModel.asset.name}: its ${gpuModel.asset.meshInstances.length} mesh instances do not match the crowd's ${blocks.rigidOffsets.length}; upload the crowd's own asset (Crowd.asset)`);
  }
  const count = blocks.drawCount;
  if (count === 0) return;
  gpu.upload(blocks);
  const asset = gpuModel.asset, origin = blocks.origin, split = blocks.mirroredFrom;
  let current = null;
  for (let m = 0; m < asset.meshInstances.length; m++) {
    const mesh = asset.meshInstances[m].mesh;
    const primitiveCount = asset.meshes[mesh].primitives.length;
    for (let p = 0; p < primitiveCount; p++) {
      const primitive = gpuModel.primitive(mesh, p);
      const program = instancedProgram(programs, variant, gpuModel, blocks, m, primitive, false);
      if (!program) continue;
      if (program !== current) {
        current = program;
        gl.useProgram(program.program);
        gl.uniformMatrix4fv(program.u_viewProjection, false, viewProjection);
        gl.uniform3fv(program.u_eye, eye);
        gl.uniform3f(program.u_origin, origin[0], origin[1], origin[2]);
      }
      bindInstancedPrimitive(gl, program, gpuModel, blocks, m, primitive);
      const material = bindMaterial(gl, program, gpuModel, primitive);
      gl.uniform1i(program.u_flatShading, primitive.asset.flatShading ? 1 : 0);
      setAlphaState(gl, material?.alphaMode === 2);
      if (material?.doubleSided) gl.disable(gl.CULL_FACE);
      else gl.enable(gl.CULL_FACE);
      gl.bindVertexArray(primitive.vao);
      const meshMirrored = blocks.meshMirrored[m] === 1;
      for (let range = 0; range < 2; range++) {
        const first = range === 0 ? 0 : split, instances = range === 0 ? split : count - split;
        if (instances === 0) continue;
        gl.frontFace((range === 1) !== meshMirrored ? gl.CW : gl.CCW);
        gl.uniform1i(program.u_instanceBase, first);
        gl.drawElementsInstanced(gl.TRIANGLES, primitive.indexCount, primitive.indexType, 0, instances);
        if (stats) {
          stats.drawCalls++;
          stats.verts += primitive.vertexCount * instances;
        }
      }
    }
  }
  gl.bindVertexArray(null);
  gl.frontFace(gl.CCW);
  gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_joints, 0, 0, 0, 1);
  gl.vertexAttrib4f(ATTRIBUTE_LOCATIONS.a_weights, 0, 0, 0, 1);
  setAlphaState(gl, false);
}
