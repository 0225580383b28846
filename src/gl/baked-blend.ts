import vertexSource from '../../shaders/crowd/baked-blend.vert?raw';
import { compileProgram, deleteProgram } from './shader-program.ts';
import { createDataTexture } from './data-texture.ts';
import { BAKED_UNIT, INSTANCE_UNIT } from './program-cache.ts';
import { BAKED_BLOCK_TEXELS, INSTANCE_TEXTURE_WIDTH, type BakedPalettes } from '../skinning/instance-blocks.ts';

/** Nothing is rasterised (RASTERIZER_DISCARD); a fragment shader is only needed to link. */
const FRAGMENT_SOURCE = '#version 300 es\nprecision mediump float;\nout vec4 outColor;\nvoid main() { outColor = vec4(0.0); }\n';

/**
 * Baked crowds' per-frame blend pass (`shaders/crowd/baked-blend.vert`): before the skinning draw, each drawn
 * instance's two baked frames are blended once per texel into a block of the live layout (world rows, then
 * the pose: `stride + frameTexels` texels, {@link bakedBlockTexels}), so the skinning shader fetches each joint
 * once per influence in both modes instead of blending two frames per influence per vertex. The GPU does
 * it (transform feedback into a buffer, copied into an RGBA32F texture through PIXEL_UNPACK_BUFFER): the CPU
 * stays O(N) per frame. Owns its program, transform feedback object, buffer and texture; {@link dispose} frees
 * them; after a context loss make a new one. Allocates nothing per frame once grown.
 */
export class BakedBlend {
  private program: WebGLProgram | null = null;
  private feedback: WebGLTransformFeedback | null = null;
  private buffer: WebGLBuffer | null = null;
  private texture: WebGLTexture | null = null;
  private rows = 0;
  private u_blockTexels: WebGLUniformLocation | null = null;
  private u_sourceTexels: WebGLUniformLocation | null = null;
  private u_frameTexels: WebGLUniformLocation | null = null;
  private u_worldTexels: WebGLUniformLocation | null = null;
  private u_quaternionEnd: WebGLUniformLocation | null = null;

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Blends `drawCount` baked blocks of texture `blocks` with the baked palettes of texture `palettes` (bound on
   * INSTANCE_UNIT and BAKED_UNIT for the pass) into live-layout blocks, and leaves their texture bound on
   * INSTANCE_UNIT (TEXTURE_2D). Rasterizer discard,
   * transform feedback and the pixel unpack buffer are left as they were found (off, none, none); the
   * current program changes.
   * @param baked the baked palettes' layout
   * @param capacityRows rows of {@link INSTANCE_TEXTURE_WIDTH} texels to hold (grown to, never shrunk)
   * @throws Error when the program does not build or the rows exceed `MAX_TEXTURE_SIZE`
   */
  run(blocks: WebGLTexture, palettes: WebGLTexture, drawCount: number, baked: BakedPalettes, capacityRows: number): void {
    const gl = this.gl;
    const program = this.program ?? this.build();
    if (!this.texture || this.rows < capacityRows) this.grow(capacityRows);
    gl.activeTexture(gl.TEXTURE0 + BAKED_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, palettes);
    gl.activeTexture(gl.TEXTURE0 + INSTANCE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, blocks);
    const layout = baked.layout;
    const blockTexels = bakedBlockTexels(baked);
    const texels = drawCount * blockTexels;
    gl.useProgram(program);
    gl.uniform1i(this.u_blockTexels, blockTexels);
    gl.uniform1i(this.u_sourceTexels, BAKED_BLOCK_TEXELS);
    gl.uniform1i(this.u_worldTexels, layout.stride);
    gl.uniform1i(this.u_frameTexels, baked.frameTexels);
    // The skins' palettes come first in a pose; their end is the first rigid node's or morph weights' texel.
    gl.uniform1i(this.u_quaternionEnd, layout.stride === 4 ? quaternionEnd(baked) : 0);
    gl.bindVertexArray(null);
    const discarding = gl.isEnabled(gl.RASTERIZER_DISCARD);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, this.feedback);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, this.buffer);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, texels);
    gl.endTransformFeedback();
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    if (!discarding) gl.disable(gl.RASTERIZER_DISCARD);
    // Whole rows from the buffer (sized to whole rows); texels past the last block are never read.
    const rows = Math.ceil(texels / INSTANCE_TEXTURE_WIDTH);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, this.buffer);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, INSTANCE_TEXTURE_WIDTH, rows, gl.RGBA, gl.FLOAT, 0);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
  }

  /** The blended blocks the last {@link run} wrote (what the skinning shader reads), or null before any. */
  get output(): WebGLTexture | null {
    return this.texture;
  }

  /** Deletes the program, transform feedback object, buffer and texture. Idempotent. */
  dispose(): void {
    const gl = this.gl;
    if (!gl.isContextLost()) {
      deleteProgram(gl, this.program);
      gl.deleteTransformFeedback(this.feedback);
      gl.deleteBuffer(this.buffer);
      gl.deleteTexture(this.texture);
    }
    this.program = this.feedback = this.buffer = this.texture = null;
    this.rows = 0;
  }

  private build(): WebGLProgram {
    const gl = this.gl;
    const program = compileProgram(gl, {
      name: 'crowd/baked-blend.vert',
      vertex: vertexSource,
      fragment: FRAGMENT_SOURCE,
      transformFeedbackVaryings: ['v_texel'],
    });
    gl.useProgram(program);
    gl.uniform1i(gl.getUniformLocation(program, 'u_instanceTexture'), INSTANCE_UNIT);
    gl.uniform1i(gl.getUniformLocation(program, 'u_bakedTexture'), BAKED_UNIT);
    this.u_blockTexels = gl.getUniformLocation(program, 'u_blockTexels');
    this.u_sourceTexels = gl.getUniformLocation(program, 'u_sourceTexels');
    this.u_frameTexels = gl.getUniformLocation(program, 'u_frameTexels');
    this.u_worldTexels = gl.getUniformLocation(program, 'u_worldTexels');
    this.u_quaternionEnd = gl.getUniformLocation(program, 'u_quaternionEnd');
    this.feedback = gl.createTransformFeedback();
    this.program = program;
    return program;
  }

  private grow(rows: number): void {
    const gl = this.gl;
    const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    if (rows > max) throw new Error(`baked crowd: ${rows} rows of ${INSTANCE_TEXTURE_WIDTH} texels exceed MAX_TEXTURE_SIZE ${max}; use fewer instances`);
    gl.deleteTexture(this.texture);
    gl.deleteBuffer(this.buffer);
    this.texture = createDataTexture(gl, gl.RGBA32F, INSTANCE_TEXTURE_WIDTH, rows, 'baked crowd');
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, this.buffer);
    gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, 16 * INSTANCE_TEXTURE_WIDTH * rows, gl.DYNAMIC_COPY);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    this.rows = rows;
  }
}

/** Texels per block once blended: the world texels (the pose's stride: 3 LBS, 4 DQS) and one pose. */
export function bakedBlockTexels(baked: BakedPalettes): number {
  return baked.layout.stride + baked.frameTexels;
}

/** Texels of the skins' palettes at the start of a pose: up to the first rigid node's or morph weights' texel. */
function quaternionEnd(baked: BakedPalettes): number {
  const { rigidOffsets, morphOffsets, texels } = baked.layout;
  let end = texels;
  for (let m = 0; m < rigidOffsets.length; m++) {
    if (rigidOffsets[m] >= 0) end = Math.min(end, rigidOffsets[m]);
    if (morphOffsets[m] >= 0) end = Math.min(end, morphOffsets[m]);
  }
  return end;
}
