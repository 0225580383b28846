import { BAKED_UNIT, INSTANCE_UNIT } from '../../gpu/skinning/program-cache.ts';
import { INSTANCE_TEXTURE_WIDTH, type BakedPalettes, type InstanceBlocks } from '../../skinning/instance-blocks.ts';
import { createDataTexture } from '../../gpu/device/data-texture.ts';
import { bakedBlockTexels, emptyPrepassLayout, InstancePrepass, needsPrepass, prepassLayout } from './instance-prepass.ts';

/**
 * The GL side of instanced skinning for one model in one context: the RGBA32F texture of instance blocks
 * ({@link InstanceBlocks}, {@link INSTANCE_TEXTURE_WIDTH} texels wide, grown to the blocks' rows on first
 * need), the baked palettes texture (uploaded when the {@link BakedPalettes} object changes) and the per-frame
 * pass that blends baked frames and folds each instance's world matrix into its pose's matrices
 * ({@link InstancePrepass}). Free with {@link dispose}; after a context loss make a new one.
 */
export class GpuInstances {
  private instanceTexture: WebGLTexture | null = null;
  private instanceRows = 0;
  private bakedTexture: WebGLTexture | null = null;
  private bakedSource: BakedPalettes | null = null;
  private readonly prepass: InstancePrepass;
  private readonly layout = emptyPrepassLayout();
  /** The blocks last uploaded and their {@link InstanceBlocks.revision} then. */
  private uploadedBlocks: InstanceBlocks | null = null;
  private uploadedRevision = -1;
  /** The texture the skinning shader reads for the blocks last uploaded: the pass's output, or the upload's. */
  private skinnedTexture: WebGLTexture | null = null;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.prepass = new InstancePrepass(gl);
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
      if (this.instanceTexture) gl.deleteTexture(this.instanceTexture);
      this.instanceTexture = createRowsTexture(gl, capacityRows);
      this.instanceRows = capacityRows;
    }
    gl.activeTexture(gl.TEXTURE0 + INSTANCE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.instanceTexture);
    const rows = Math.ceil((blocks.drawCount * blocks.blockTexels) / INSTANCE_TEXTURE_WIDTH);
    if (rows > 0) {
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, INSTANCE_TEXTURE_WIDTH, rows, gl.RGBA, gl.FLOAT, blocks.blocks, 0);
    }
    this.skinnedTexture = this.instanceTexture;
    const baked = blocks.baked;
    if (baked && baked !== this.bakedSource) {
      gl.activeTexture(gl.TEXTURE0 + BAKED_UNIT);
      if (this.bakedTexture) gl.deleteTexture(this.bakedTexture);
      const bakedRows = baked.rows.length / (4 * INSTANCE_TEXTURE_WIDTH);
      this.bakedTexture = createRowsTexture(gl, bakedRows);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, INSTANCE_TEXTURE_WIDTH, bakedRows, gl.RGBA, gl.FLOAT, baked.rows, 0);
      this.bakedSource = baked;
    }
    const layout = prepassLayout(blocks, this.layout);
    if (blocks.drawCount > 0 && needsPrepass(layout)) {
      this.prepass.run(this.instanceTexture, baked ? this.bakedTexture : null, blocks.drawCount, layout, capacityRows);
      this.skinnedTexture = this.prepass.output;
    }
  }

  /** Deletes the textures. Idempotent. */
  dispose(): void {
    if (!this.gl.isContextLost()) {
      if (this.instanceTexture) this.gl.deleteTexture(this.instanceTexture);
      if (this.bakedTexture) this.gl.deleteTexture(this.bakedTexture);
    }
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

function createRowsTexture(gl: WebGL2RenderingContext, rows: number): WebGLTexture {
  const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
  if (rows > max) throw new Error(`instanced skinning: ${rows} rows of ${INSTANCE_TEXTURE_WIDTH} texels exceed MAX_TEXTURE_SIZE ${max}; use fewer instances or baked mode`);
  return createDataTexture(gl, gl.RGBA32F, INSTANCE_TEXTURE_WIDTH, rows, 'instanced skinning');
}

/** Counts of one instanced draw, for readouts and the bench page. */
export interface InstancedDrawStats {
  /** `drawElementsInstanced` calls. */
  drawCalls: number;
  /** Vertices shaded: Σ over draws of vertexCount × instances. */
  verts: number;
}
