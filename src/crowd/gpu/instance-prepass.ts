import vertexSource from '../../../shaders/crowd/instance-prepass.vert?raw';
import { ShaderProgram } from '../../gpu/device/shader-program.ts';
import { DataTexture } from '../../gpu/device/data-texture.ts';
import { GpuBuffer } from '../../gpu/device/gpu-buffer.ts';
import { TransformFeedback } from '../../gpu/device/transform-feedback.ts';
import { BAKED_UNIT, INSTANCE_UNIT } from '../../gpu/skinning/program-cache.ts';
import { INSTANCE_TEXTURE_WIDTH, type BakedPalettes, type InstanceBlocks } from '../../skinning/instance-blocks.ts';

/** Nothing is rasterised (RASTERIZER_DISCARD); a fragment shader is only needed to link. */
const FRAGMENT_SOURCE = '#version 300 es\nprecision mediump float;\nout vec4 outColor;\nvoid main() { outColor = vec4(0.0); }\n';

/**
 * Where the pass finds what it writes, in texels (see `shaders/crowd/instance-prepass.vert`); the caller's
 * object, filled by {@link prepassLayout}.
 */
export interface PrepassLayout {
  /** Texels per source block: live blocks' `blockTexels`, baked blocks' `BAKED_BLOCK_TEXELS`. */
  sourceBlockTexels: number;
  /** Texels per output block (live layout): the world texels and one pose. */
  blockTexels: number;
  /** The pose's stride: 3 (LBS), 4 (DQS); also the world texels at a block's start. */
  worldTexels: 3 | 4;
  /** Baked: texels per baked frame; live: 0. */
  frameTexels: number;
  /** Baked DQS: texels of the skins' palettes at the start of a pose (their rotations are nlerped); otherwise 0. */
  quaternionEnd: number;
  /** Pose texels [foldFirst, foldEnd): the 3-row matrices premultiplied by the world matrix (LBS joints, rigid nodes). */
  foldFirst: number;
  foldEnd: number;
}

/** A {@link PrepassLayout} to fill. */
export function emptyPrepassLayout(): PrepassLayout {
  return { sourceBlockTexels: 0, blockTexels: 0, worldTexels: 3, frameTexels: 0, quaternionEnd: 0, foldFirst: 0, foldEnd: 0 };
}

/**
 * Fills `out` for `blocks` (live or baked) and returns it. The pose's matrices come first (skins' palettes,
 * then rigid nodes), its morph weights last (src/skinning/instance-blocks.ts): LBS folds every matrix, DQS only
 * the rigid nodes' (its palettes are blended per vertex as dual quaternions, the world matrix after). Allocates nothing.
 */
export function prepassLayout(blocks: InstanceBlocks, out: PrepassLayout): PrepassLayout {
  const baked = blocks.baked;
  const stride = baked ? baked.layout.stride : blocks.method.skinning === 'dqs' ? 4 : 3;
  // Live offsets count from the block's start, baked ones from the pose's.
  const shift = baked ? 0 : stride;
  const rigidOffsets = baked ? baked.layout.rigidOffsets : blocks.rigidOffsets;
  const morphOffsets = baked ? baked.layout.morphOffsets : blocks.morphOffsets;
  const poseTexels = baked ? baked.frameTexels : blocks.blockTexels - stride;
  let skinsEnd = poseTexels, matricesEnd = poseTexels;
  for (let m = 0; m < rigidOffsets.length; m++) {
    if (rigidOffsets[m] >= 0) skinsEnd = Math.min(skinsEnd, rigidOffsets[m] - shift);
    if (morphOffsets[m] >= 0) {
      skinsEnd = Math.min(skinsEnd, morphOffsets[m] - shift);
      matricesEnd = Math.min(matricesEnd, morphOffsets[m] - shift);
    }
  }
  out.sourceBlockTexels = blocks.blockTexels;
  out.blockTexels = stride + poseTexels;
  out.worldTexels = stride;
  out.frameTexels = baked ? baked.frameTexels : 0;
  out.quaternionEnd = baked && stride === 4 ? skinsEnd : 0;
  out.foldFirst = stride === 3 ? 0 : skinsEnd;
  out.foldEnd = matricesEnd;
  return out;
}

/** Whether `layout`'s blocks need the pass: baked blocks always, live ones when a matrix is folded. */
export function needsPrepass(layout: PrepassLayout): boolean {
  return layout.frameTexels > 0 || layout.foldEnd > layout.foldFirst;
}

/**
 * Crowds' per-frame pass before the skinning draw (`shaders/crowd/instance-prepass.vert`): writes each drawn
 * instance's block in the live layout ({@link PrepassLayout}) — baked blocks' two frames blended once per
 * texel, and every 3-row matrix of the pose (LBS joints, rigid nodes) premultiplied by the instance's world
 * matrix — so that per vertex the skinning shader fetches each influence's rows once and, for LBS, no world
 * matrix: the work that is the same for every vertex of an instance is done once per instance. The GPU does it
 * (transform feedback into a buffer, copied into an RGBA32F texture through PIXEL_UNPACK_BUFFER): the CPU stays
 * O(N) per frame and the blocks' layout is unchanged. Owns its program, transform feedback object, buffer and
 * texture (resources: they restore themselves after a context loss, the buffer and texture to their size, written
 * again by the next run); {@link dispose} frees them. Allocates nothing per frame once grown.
 */
export class InstancePrepass {
  private program: ShaderProgram | null = null;
  private feedback: TransformFeedback | null = null;
  private buffer: GpuBuffer | null = null;
  private texture: DataTexture | null = null;
  private rows = 0;
  /** Each {@link PrepassLayout} field's `u_<field>` uniform. */
  private uniforms: { name: keyof PrepassLayout; location: WebGLUniformLocation | null }[] = [];

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Writes `drawCount` blocks of texture `blocks` (with the baked palettes of texture `palettes` when
   * `layout.frameTexels` > 0; bound on INSTANCE_UNIT and BAKED_UNIT for the pass) as `layout` says, and leaves
   * their texture bound on INSTANCE_UNIT (TEXTURE_2D). Rasterizer discard, transform feedback and the pixel
   * unpack buffer are left as they were found (off, none, none); the current program changes.
   * @param capacityRows rows of {@link INSTANCE_TEXTURE_WIDTH} texels to hold (grown to, never shrunk)
   * @throws Error when the program does not build or the rows exceed `MAX_TEXTURE_SIZE`
   */
  run(blocks: WebGLTexture, palettes: WebGLTexture | null, drawCount: number, layout: PrepassLayout, capacityRows: number): void {
    const gl = this.gl;
    const program = (this.program ?? this.build()).handle;
    if (!this.texture || this.rows < capacityRows) this.grow(capacityRows);
    if (palettes) {
      gl.activeTexture(gl.TEXTURE0 + BAKED_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, palettes);
    }
    gl.activeTexture(gl.TEXTURE0 + INSTANCE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, blocks);
    const texels = drawCount * layout.blockTexels;
    gl.useProgram(program);
    for (let u = 0; u < this.uniforms.length; u++) gl.uniform1i(this.uniforms[u].location, layout[this.uniforms[u].name]);
    gl.bindVertexArray(null);
    const discarding = gl.isEnabled(gl.RASTERIZER_DISCARD);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, this.feedback!.handle);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, this.buffer!.handle);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, texels);
    gl.endTransformFeedback();
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    if (!discarding) gl.disable(gl.RASTERIZER_DISCARD);
    // Whole rows from the buffer (sized to whole rows); texels past the last block are never read.
    const rows = Math.ceil(texels / INSTANCE_TEXTURE_WIDTH);
    gl.bindTexture(gl.TEXTURE_2D, this.texture!.handle);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, this.buffer!.handle);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, INSTANCE_TEXTURE_WIDTH, rows, gl.RGBA, gl.FLOAT, 0);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
  }

  /** The blocks the last {@link run} wrote (what the skinning shader reads), or null before any. */
  get output(): WebGLTexture | null {
    return this.texture ? this.texture.handle : null;
  }

  /** Deletes the program, transform feedback object, buffer and texture. Idempotent. */
  dispose(): void {
    this.program?.dispose();
    this.feedback?.dispose();
    this.buffer?.dispose();
    this.texture?.dispose();
    this.program = this.feedback = this.buffer = this.texture = null;
    this.uniforms = [];
    this.rows = 0;
  }

  private build(): ShaderProgram {
    const gl = this.gl;
    // Sampler units and locations are set again at each link (a context restore links again).
    const program = new ShaderProgram(gl, {
      name: 'crowd/instance-prepass.vert',
      vertex: vertexSource,
      fragment: FRAGMENT_SOURCE,
      transformFeedbackVaryings: ['v_texel'],
    }, (linked) => {
      gl.uniform1i(gl.getUniformLocation(linked, 'u_instanceTexture'), INSTANCE_UNIT);
      gl.uniform1i(gl.getUniformLocation(linked, 'u_bakedTexture'), BAKED_UNIT);
      this.uniforms = (Object.keys(emptyPrepassLayout()) as (keyof PrepassLayout)[]).map((name) => ({ name, location: gl.getUniformLocation(linked, `u_${name}`) }));
    });
    this.feedback = new TransformFeedback(gl, 'crowd prepass');
    this.program = program;
    return program;
  }

  private grow(rows: number): void {
    const gl = this.gl;
    const max = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    if (rows > max) throw new Error(`crowd: ${rows} rows of ${INSTANCE_TEXTURE_WIDTH} texels exceed MAX_TEXTURE_SIZE ${max}; use fewer instances`);
    this.texture?.dispose();
    this.buffer?.dispose();
    this.texture = new DataTexture(gl, { internalFormat: gl.RGBA32F, width: INSTANCE_TEXTURE_WIDTH, height: rows, label: 'crowd prepass' });
    this.buffer = new GpuBuffer(gl, gl.TRANSFORM_FEEDBACK_BUFFER, 16 * INSTANCE_TEXTURE_WIDTH * rows, gl.DYNAMIC_COPY, 'crowd prepass');
    this.rows = rows;
  }
}

/** Texels per block once blended: the world texels (the pose's stride: 3 LBS, 4 DQS) and one pose. */
export function bakedBlockTexels(baked: BakedPalettes): number {
  return baked.layout.stride + baked.frameTexels;
}
