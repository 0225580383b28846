import type { GpuModel } from './gpu-model.ts';
import { maxPaletteJoints, paletteCapacity, paletteStride, readPaletteLimits, type PalettePath } from './palette-path.ts';
import { computeDualQuaternionPalette } from '../../skinning/dual-quaternion-palette.ts';
import { DEFAULT_SKINNING_METHOD, type SkinningMethod } from '../../skinning/skinning-method.ts';
import { createPaletteBuffer, uploadPaletteBuffer, type PaletteBuffer } from './palette-buffer.ts';
import { packPaletteRows } from '../../skinning/palette-rows.ts';
import { createPaletteTexture, JOINTS_PER_ROW, uploadPaletteTexture, type PaletteTexture } from './palette-texture.ts';
import { bindMorphTargets } from './morph-binding.ts';
import { MORPH_ACTIVE_UNIT, OVERFLOW_UNIT, PALETTE_UNIT, ProgramCache } from './program-cache.ts';
import { gpuCommandsComplete } from '../device/gpu-fence.ts';
import { createShaderVariant } from './shader-variant.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';
import { TransformFeedback } from '../device/transform-feedback.ts';

/** Vertices as the GPU skinned them, in model space (the skinning matrices' output; `u_toDisplay` is the identity). */
export interface CapturedVertices {
  /** `Float32Array(3·vertexCount)`: `v_displayPosition` of each vertex. */
  readonly positions: Float32Array;
  /** `Float32Array(3·vertexCount)`: `v_displayNormal` of each vertex (unit). */
  readonly normals: Float32Array;
  /** `Float32Array(4·vertexCount)`: `v_displayTangent` of each vertex (unit xyz, w kept; (0, 0, 0, 1) without tangents). */
  readonly tangents: Float32Array;
}

/** One set of transform-feedback output buffers, room for `capacity` vertices. */
interface OutputBuffers {
  readonly position: WebGLBuffer;
  readonly normal: WebGLBuffer;
  readonly tangent: WebGLBuffer;
  readonly capacity: number;
  /** @internal The resources behind the buffers. */
  readonly resources: readonly GpuBuffer[];
}

/** A capture drawn into output buffers and not yet read back ({@link TransformFeedbackCapture.drawPoints}). */
export interface DrawnCapture {
  readonly out: OutputBuffers;
  readonly count: number;
  readonly name: string;
}

/** What one skinning capture runs: which primitive, on which palette, by which variant. */
export interface SkinnedCaptureRequest {
  readonly gpuModel: GpuModel;
  /** Index into `gpuModel.asset.meshInstances`. */
  readonly instanceIndex: number;
  /** Primitive index in the instance's mesh. */
  readonly primitiveIndex: number;
  /**
   * `Float32Array(16·m)`, column-major skinning matrices of the instance's skin (m = its joint count), packed into
   * the palette the path reads; unused for a rigid instance with morph targets.
   */
  readonly skinMatrices: Float32Array;
  /** Palette path (shader variant) to run. */
  readonly palettePath: PalettePath;
  /** Skinning mode and weight policy (shader variant) to run; default LBS with normalised weights. */
  readonly method?: SkinningMethod;
  /**
   * `Float64Array(3)`: the model origin O the skinning matrices are relative to (`AnimatedModel.origin`, as
   * `skinVertices` reads it from its context); positions come out relative to it. Default (0, 0, 0).
   */
  readonly origin?: ArrayLike<number>;
  /** The pose's morph weights (`PoseBuffers.morphWeights`), the instance's at its `morphWeightOffset`; absent: morph targets not applied. */
  readonly morphWeights?: Float32Array;
}

const IDENTITY4 = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const IDENTITY3 = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);

/**
 * Runs the very `shaders/skinned.vert` the renderer draws with (same `#define` variant, linked with
 * transform-feedback varyings `v_displayPosition`, `v_displayNormal`, `v_displayTangent`, SEPARATE_ATTRIBS) over one primitive's
 * vertices as POINTS under RASTERIZER_DISCARD — no index buffer, so output k is vertex k — and reads the
 * results back with `getBufferSubData`. This is the GPU half of the GPU-vs-CPU parity test (the CPU half is
 * `skinVertices` on the same skinning matrices). Owns its programs, a transform feedback object, sets of three output
 * buffers (one per capture in flight, grown as needed), one palette texture and one palette uniform buffer;
 * `dispose()` frees them (idempotent).
 *
 * `captureAsync` waits on a fence (`gpuCommandsComplete`) before reading back: use it wherever a frame loop
 * runs, several may be in flight. The synchronous `capture` reads back at once, which stalls the pipeline (Chromium logs a performance warning each time): for tests.
 */
export class TransformFeedbackCapture {
  private readonly programs: ProgramCache;
  /** Scratch: the shader variant of the capture being drawn. */
  private readonly variant = createShaderVariant();
  private feedbackObject: TransformFeedback | null = null;
  /** Output buffer sets not in use by a capture in flight. */
  private idle: OutputBuffers[] = [];
  /** Every output buffer set, idle or in flight. */
  private outputs: OutputBuffers[] = [];
  private paletteTexture: PaletteTexture | null = null;
  private paletteBuffer: PaletteBuffer | null = null;
  private rows = new Float32Array(0);
  private disposed = false;

  /**
   * @param jointsPerRow joints per palette-texture row (default as the renderer's); small values force
   *   wrapped rows, to test the shader's texel addressing
   */
  constructor(private readonly gl: WebGL2RenderingContext, private readonly jointsPerRow = JOINTS_PER_ROW) {
    this.programs = new ProgramCache(gl);
  }

  /** Whether {@link dispose} has run. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Skins primitive `primitiveIndex` of mesh instance `instanceIndex` of `gpuModel` on the GPU with `skinMatrices`,
   * its morph targets applied first at the instance's weights in `morphWeights` (as the renderer draws it). A
   * rigid instance with morph targets is captured too: its morphed vertices in the mesh's own space (no node
   * matrix; `skinMatrices` and `palettePath` unused).
   * @throws Error when the instance is rigid without morph targets, the primitive has no joints/weights,
   *   `skinMatrices` is too short, the uniform or ubo path cannot hold the skin, or the capture is disposed
   */
  capture(request: SkinnedCaptureRequest): CapturedVertices {
    return this.read(this.drawSkinned(request));
  }

  /**
   * {@link capture}, read back once a fence says the GPU has written the output (no pipeline stall). The
   * skinning is drawn at the call, with the arguments as they are then; `skinMatrices` and `morphWeights` may
   * change while the promise is pending.
   * @throws (rejects) as `capture`, and when the context is lost or the capture disposed before the read
   */
  captureAsync(request: SkinnedCaptureRequest): Promise<CapturedVertices> {
    try {
      return this.readWhenComplete(this.drawSkinned(request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private drawSkinned(request: SkinnedCaptureRequest): DrawnCapture {
    const { gpuModel, instanceIndex, primitiveIndex, skinMatrices, palettePath, origin, morphWeights } = request;
    const method = request.method ?? DEFAULT_SKINNING_METHOD;
    if (this.disposed) throw new Error('TransformFeedbackCapture: used after dispose()');
    const gl = this.gl;
    const asset = gpuModel.asset;
    const instance = asset.meshInstances[instanceIndex];
    if (!instance) throw new Error(`${asset.name}: mesh instance ${instanceIndex} does not exist`);
    const primitive = primitiveIndex >= 0 && primitiveIndex < asset.meshes[instance.mesh].primitives.length ? gpuModel.primitive(instance.mesh, primitiveIndex) : undefined;
    if (!primitive) throw new Error(`${asset.name}: mesh ${instance.mesh} has no primitive ${primitiveIndex}`);
    const skinned = instance.skin >= 0 && primitive.skinned;
    const morphOffset = instance.morphWeightOffset ?? -1;
    let morphActive = 0;
    if (morphWeights && morphOffset >= 0 && primitive.morphDeltas && gpuModel.morphActive) {
      gl.activeTexture(gl.TEXTURE0 + MORPH_ACTIVE_UNIT);
      morphActive = gpuModel.morphActive.upload(morphWeights, morphOffset, primitive.morphTargetCount);
    }
    if (!skinned && !(morphWeights && primitive.morphDeltas)) {
      throw new Error(`${asset.name}: mesh instance ${instanceIndex} primitive ${primitiveIndex} is not skinned`);
    }
    const variant = this.variant;
    variant.skinned = skinned;
    variant.palettePath = palettePath;
    variant.jointCapacity = 0;
    variant.transformFeedback = true;
    variant.skinning = method.skinning;
    variant.weights = method.weights;
    variant.influences = primitive.influences;
    variant.instanced = false;
    variant.morphTargets = morphActive > 0;
    variant.features = 0;
    variant.weightView = false;
    if (!skinned) {
      const program = this.programs.get(variant);
      gl.useProgram(program.program);
      bindMorphTargets(gl, gpuModel, primitive, program, morphActive);
      gl.uniformMatrix4fv(program.u_toDisplay, false, IDENTITY4);
      gl.uniformMatrix3fv(program.u_normalMatrix, false, IDENTITY3);
      gl.uniformMatrix4fv(program.u_viewProjection, false, IDENTITY4);
      return this.drawPoints(primitive.vao, primitive.vertexCount, 1, asset.name);
    }
    const jointCount = asset.skins[instance.skin].joints.length;
    if (skinMatrices.length < 16 * jointCount) {
      throw new Error(`${asset.name}: skinMatrices holds ${skinMatrices.length / 16} matrices, skin ${instance.skin} has ${jointCount} joints`);
    }
    const limits = readPaletteLimits(gl);
    const stride = paletteStride(method.skinning);
    if (jointCount > maxPaletteJoints(palettePath, limits, stride)) {
      throw new Error(`${asset.name}: ${jointCount} joints do not fit a ${palettePath} palette (${maxPaletteJoints(palettePath, limits, stride)} at most)`);
    }
    const capacity = paletteCapacity(palettePath, jointCount, limits, stride);
    variant.jointCapacity = capacity;
    const program = this.programs.get(variant);
    gl.useProgram(program.program);
    gl.uniformMatrix4fv(program.u_toDisplay, false, IDENTITY4);
    gl.uniformMatrix3fv(program.u_normalMatrix, false, IDENTITY3);
    gl.uniformMatrix4fv(program.u_viewProjection, false, IDENTITY4);
    gl.uniform3f(program.u_origin, origin ? origin[0] : 0, origin ? origin[1] : 0, origin ? origin[2] : 0);
    if (this.rows.length < 16 * jointCount) this.rows = new Float32Array(16 * jointCount);
    if (method.skinning === 'dqs') computeDualQuaternionPalette(this.rows, skinMatrices, jointCount);
    else packPaletteRows(this.rows, skinMatrices, jointCount);
    if (palettePath === 'uniform') {
      gl.uniform4fv(program.u_joints, this.rows, 0, 4 * stride * jointCount);
    } else if (palettePath === 'ubo') {
      if (!this.paletteBuffer || this.paletteBuffer.capacity < capacity) {
        this.paletteBuffer?.dispose();
        this.paletteBuffer = createPaletteBuffer(gl, capacity);
      }
      uploadPaletteBuffer(gl, this.paletteBuffer, this.rows, jointCount, stride);
    } else {
      if (!this.paletteTexture || this.paletteTexture.jointCount !== jointCount) {
        this.paletteTexture?.storage.dispose();
        this.paletteTexture = createPaletteTexture(gl, jointCount, this.jointsPerRow);
      }
      gl.activeTexture(gl.TEXTURE0 + PALETTE_UNIT);
      uploadPaletteTexture(gl, this.paletteTexture, this.rows, stride);
    }

    if (primitive.overflowTexture) {
      gl.activeTexture(gl.TEXTURE0 + OVERFLOW_UNIT);
      gl.bindTexture(gl.TEXTURE_2D, primitive.overflowTexture);
    }
    // Last: making a palette texture above binds it to the active unit, which may be a morph unit.
    bindMorphTargets(gl, gpuModel, primitive, program, morphActive);
    return this.drawPoints(primitive.vao, primitive.vertexCount, 1, asset.name);
  }

  /**
   * Draws `vertexCount` POINTS × `instanceCount` of `vao` through the program in use under transform feedback
   * into an idle output buffer set; read it with {@link read} or {@link readWhenComplete}.
   * @throws Error when the draw raises a GL error
   */
  drawPoints(vao: WebGLVertexArrayObject, vertexCount: number, instanceCount: number, name: string): DrawnCapture {
    const gl = this.gl;
    const count = vertexCount * instanceCount;
    const out = this.acquire(count);
    gl.bindVertexArray(vao);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, feedbackOf(this.feedbackObject));
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, out.position);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, out.normal);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, out.tangent);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArraysInstanced(gl.POINTS, 0, vertexCount, instanceCount);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, null);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindVertexArray(null);
    const error = gl.getError();
    if (error !== gl.NO_ERROR) {
      this.idle.push(out);
      throw new Error(`${name}: transform feedback capture raised GL error 0x${error.toString(16)}`);
    }
    return { out, count, name };
  }

  /** Waits on a fence, then reads `drawn` back; its buffers go back to the idle sets either way. */
  async readWhenComplete(drawn: DrawnCapture): Promise<CapturedVertices> {
    try {
      await gpuCommandsComplete(this.gl);
    } catch (error) {
      if (!this.disposed) this.idle.push(drawn.out);
      throw error;
    }
    if (this.disposed) throw new Error('TransformFeedbackCapture: disposed before the read back');
    return this.read(drawn);
  }

  /** Reads `drawn`'s varyings back (a pipeline stall) and returns its buffers to the idle sets. */
  read(drawn: DrawnCapture): CapturedVertices {
    const gl = this.gl;
    const { out, count } = drawn;
    const positions = new Float32Array(3 * count);
    const normals = new Float32Array(3 * count);
    const tangents = new Float32Array(4 * count);
    gl.bindBuffer(gl.COPY_READ_BUFFER, out.position);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, positions);
    gl.bindBuffer(gl.COPY_READ_BUFFER, out.normal);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, normals);
    gl.bindBuffer(gl.COPY_READ_BUFFER, out.tangent);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, tangents);
    gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    this.idle.push(out);
    const error = gl.getError();
    if (error !== gl.NO_ERROR) throw new Error(`${drawn.name}: transform feedback read back raised GL error 0x${error.toString(16)}`);
    return { positions, normals, tangents };
  }

  /** Deletes programs, buffers, the transform feedback object, the palette texture and buffer. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    this.programs.dispose();
    this.feedbackObject?.dispose();
    for (const out of this.outputs) deleteOutput(out);
    this.paletteTexture?.storage.dispose();
    this.paletteBuffer?.dispose();
    this.feedbackObject = null;
    this.outputs = [];
    this.idle = [];
    this.paletteTexture = null;
    this.paletteBuffer = null;
  }

  /** An idle output buffer set with room for `vertexCount` vertices (an idle one regrown, or a new one). */
  private acquire(vertexCount: number): OutputBuffers {
    const gl = this.gl;
    this.feedbackObject ??= new TransformFeedback(gl, 'TransformFeedbackCapture');
    const fitting = this.idle.findIndex((out) => out.capacity >= vertexCount);
    if (fitting >= 0) return this.idle.splice(fitting, 1)[0];
    const smaller = this.idle.pop();
    if (smaller) {
      deleteOutput(smaller);
      this.outputs.splice(this.outputs.indexOf(smaller), 1);
    }
    const capacity = Math.max(1, vertexCount);
    // *_READ usage: Chromium keeps a shadow copy it fills at the next fence, so a fenced read does not stall.
    const output = (bytes: number) => new GpuBuffer(gl, gl.COPY_WRITE_BUFFER, bytes, gl.STREAM_READ, 'transform feedback output');
    const position = output(12 * capacity), normal = output(12 * capacity), tangent = output(16 * capacity);
    const out: OutputBuffers = {
      get position() { return position.handle; }, get normal() { return normal.handle; }, get tangent() { return tangent.handle; },
      capacity, resources: [position, normal, tangent],
    };
    this.outputs.push(out);
    return out;
  }
}

function deleteOutput(out: OutputBuffers): void {
  for (const buffer of out.resources) buffer.dispose();
}

/** The capture's transform feedback object as it is in the context now, or null before the first capture. */
function feedbackOf(object: TransformFeedback | null): WebGLTransformFeedback | null {
  return object ? object.handle : null;
}

/**
 * One-shot {@link TransformFeedbackCapture.capture}: creates a capture, runs it, disposes it. Reads back at
 * once (a pipeline stall; Chromium logs a performance warning): prefer {@link captureSkinnedVerticesAsync}.
 * @throws as `capture`
 */
export function captureSkinnedVertices(gl: WebGL2RenderingContext, request: SkinnedCaptureRequest): CapturedVertices {
  const capture = new TransformFeedbackCapture(gl);
  try {
    return capture.capture(request);
  } finally {
    capture.dispose();
  }
}

/**
 * One-shot {@link TransformFeedbackCapture.captureAsync}: creates a capture, runs it, disposes it once read.
 * @throws (rejects) as `captureAsync`
 */
export async function captureSkinnedVerticesAsync(gl: WebGL2RenderingContext, request: SkinnedCaptureRequest): Promise<CapturedVertices> {
  const capture = new TransformFeedbackCapture(gl);
  try {
    return await capture.captureAsync(request);
  } finally {
    capture.dispose();
  }
}
