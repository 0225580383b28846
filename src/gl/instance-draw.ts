import type { GpuModel } from './gpu-model.ts';
import { BAKED_UNIT, INSTANCE_UNIT, OVERFLOW_UNIT, type ProgramCache } from './program-cache.ts';
import { bindMaterial, setAlphaState } from './material-binding.ts';
import { DEFAULT_SKINNING_METHOD } from '../skinning/skinning-method.ts';
import { INSTANCE_TEXTURE_WIDTH, type BakedPalettes, type InstanceBlocks } from '../skinning/instance-blocks.ts';
import { createDataTexture } from './data-texture.ts';

const IDENTITY4 = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const IDENTITY3 = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);

/**
 * The GL side of instanced skinning for one model in one context: the RGBA32F texture of instance blocks
 * ({@link InstanceBlocks}, {@link INSTANCE_TEXTURE_WIDTH} texels wide, grown to the blocks' rows on first
 * need) and the baked palettes texture (uploaded when the {@link BakedPalettes} object changes). Free with
 * {@link dispose}; after a context loss make a new one.
 */
export class GpuInstances {
  private instanceTexture: WebGLTexture | null = null;
  private instanceRows = 0;
  private bakedTexture: WebGLTexture | null = null;
  private bakedSource: BakedPalettes | null = null;

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Uploads the first `blocks.drawCount` blocks with one `texSubImage2D` (whole rows, straight from
   * `blocks.blocks`), and the baked palettes if they changed; binds both to their units.
   * @throws Error when the blocks need more rows than `MAX_TEXTURE_SIZE`
   */
  upload(blocks: InstanceBlocks): void {
    const gl = this.gl;
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
    const baked = blocks.baked;
    if (baked) {
      gl.activeTexture(gl.TEXTURE0 + BAKED_UNIT);
      if (baked !== this.bakedSource) {
        if (this.bakedTexture) gl.deleteTexture(this.bakedTexture);
        const bakedRows = baked.rows.length / (4 * INSTANCE_TEXTURE_WIDTH);
        this.bakedTexture = createRowsTexture(gl, bakedRows);
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, INSTANCE_TEXTURE_WIDTH, bakedRows, gl.RGBA, gl.FLOAT, baked.rows, 0);
        this.bakedSource = baked;
      } else {
        gl.bindTexture(gl.TEXTURE_2D, this.bakedTexture);
      }
    }
  }

  /** Deletes the textures. Idempotent. */
  dispose(): void {
    if (!this.gl.isContextLost()) {
      if (this.instanceTexture) this.gl.deleteTexture(this.instanceTexture);
      if (this.bakedTexture) this.gl.deleteTexture(this.bakedTexture);
    }
    this.instanceTexture = this.bakedTexture = null;
    this.bakedSource = null;
    this.instanceRows = 0;
  }
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

/**
 * Draws `blocks.drawCount` instances of every skinned mesh instance of `gpuModel`: per primitive one
 * `drawElementsInstanced` (its material, `bindMaterial`; the caller binds the environment), the instance
 * texture uploaded once first. Blended materials are drawn in file order like the others (no sorting across instances). The
 * camera's view-projection (world → clip) and eye are set as given; rigid meshes are not drawn. The GL state
 * is left as `SkinnedRenderer.draw` leaves it. Allocates nothing.
 */
export function drawInstances(
  gl: WebGL2RenderingContext, programs: ProgramCache, gpuModel: GpuModel, gpu: GpuInstances, blocks: InstanceBlocks,
  viewProjection: Float32Array, eye: Float32Array, stats?: InstancedDrawStats,
): void {
  if (stats) stats.drawCalls = stats.verts = 0;
  if (blocks.drawCount === 0) return;
  gpu.upload(blocks);
  const asset = gpuModel.asset, origin = blocks.origin, mode = blocks.mode;
  let current = null;
  for (const instance of asset.meshInstances) {
    if (instance.skin < 0) continue;
    const primitives = gpuModel.meshes[instance.mesh];
    if (!primitives) continue;
    const skinOffset = mode === 'baked' ? blocks.baked!.skinOffsets[instance.skin] : blocks.skinOffsets[instance.skin];
    for (const primitive of primitives) {
      if (!primitive.skinned) continue;
      const features = gpuModel.materialFeatures(primitive.asset.material, primitive.hasUvs);
      const program = programs.get(true, 'texture', 0, false, DEFAULT_SKINNING_METHOD, primitive.influences, mode, false, features);
      if (program !== current) {
        current = program;
        gl.useProgram(program.program);
        gl.uniformMatrix4fv(program.u_viewProjection, false, viewProjection);
        gl.uniform3fv(program.u_eye, eye);
        gl.uniform3f(program.u_origin, origin[0], origin[1], origin[2]);
        gl.uniformMatrix4fv(program.u_toDisplay, false, IDENTITY4);
        gl.uniformMatrix3fv(program.u_normalMatrix, false, IDENTITY3);
        gl.uniform1i(program.u_blockTexels, blocks.blockTexels);
        if (blocks.baked) gl.uniform1i(program.u_frameTexels, blocks.baked.frameTexels);
      }
      gl.uniform1i(program.u_skinOffset, skinOffset);
      if (primitive.overflowTexture) {
        gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
        gl.bindTexture(gl.TEXTURE_2D, primitive.overflowTexture);
      }
      const material = bindMaterial(gl, program, gpuModel, primitive);
      gl.uniform1i(program.u_flatShading, primitive.asset.flatShading ? 1 : 0);
      setAlphaState(gl, material?.alphaMode === 2);
      if (material?.doubleSided) gl.disable(gl.CULL_FACE);
      else gl.enable(gl.CULL_FACE);
      gl.frontFace(gl.CCW);
      gl.bindVertexArray(primitive.vao);
      gl.drawElementsInstanced(gl.TRIANGLES, primitive.indexCount, primitive.indexType, 0, blocks.drawCount);
      if (stats) {
        stats.drawCalls++;
        stats.verts += primitive.vertexCount * blocks.drawCount;
      }
    }
  }
  gl.bindVertexArray(null);
  setAlphaState(gl, false);
}
