import { BAKED_UNIT, INSTANCE_UNIT } from '../../gpu/skinning/program-cache.ts';
import { INSTANCE_TEXTURE_WIDTH, type BakedPalettes, type InstanceBlocks } from '../../skinning/instance-blocks.ts';
import { DataTexture } from '../../gpu/device/data-texture.ts';
import { GpuContext } from '../../gpu/device/gpu-context.ts';
import { bakedBlockTexels, emptyPrepassLayout, InstancePrepass, needsPrepass, prepassLayout } from './instance-prepass.ts';

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
