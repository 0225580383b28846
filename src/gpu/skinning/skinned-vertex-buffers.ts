import type { GpuModel } from './gpu-model.ts';
import { ATTRIBUTE_LOCATIONS } from './gpu-model.ts';
import { vaoReplacing } from './replaced-attributes-vao.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';
import { TransformFeedback } from '../device/transform-feedback.ts';
import type { VertexArray } from '../device/vertex-array.ts';
import type { SkinnedVertexSource } from './skinned-vertex-source.ts';

/** One skinned primitive's transform-feedback output and the VAO that draws it. */
interface Entry {
  readonly position: GpuBuffer;
  readonly normal: GpuBuffer;
  readonly tangent: GpuBuffer;
  readonly vao: VertexArray;
}

/**
 * "Skin once per frame": GPU buffers that one transform-feedback pass of the very skinning shader the
 * renderer draws with (`SkinnedRenderer.skinInto`) fills with every skinned primitive's vertices — positions
 * (3 floats), unit normals (3) and tangents (4, w kept) per vertex, in model space relative to the model
 * origin O, morph targets applied — and VAOs that read them with the primitive's own UVs, colours and indices.
 * Every pass of the frame that needs the skinned model (the main draw, a contact shadow) then draws these by
 * the rigid variant instead of skinning each vertex again (`SkinnedRenderer.draw`'s `skinnedVertices`).
 * Nothing is read back. Made for one {@link GpuModel}; its GL objects restore themselves after a context loss; 40 bytes a skinned vertex.
 * Why and when it is faster than skinning in each pass: docs/explanation/performance.md "Skin once or skin per pass" (bench keys
 * `skin_once.*`).
 */
export class SkinnedVertexBuffers implements SkinnedVertexSource {
  /** The model the buffers hold (its mesh instances and primitives). */
  readonly gpuModel: GpuModel;
  /** The transform feedback object the skinning pass writes through. */
  private readonly feedbackObject: TransformFeedback;
  private readonly entries = new Map<number, Entry>();
  private disposed = false;

  /** @throws Error when a GL object cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext, gpuModel: GpuModel) {
    this.gpuModel = gpuModel;
    this.feedbackObject = new TransformFeedback(gl, `${gpuModel.asset.name}: skinned vertices`);
    const L = ATTRIBUTE_LOCATIONS;
    const asset = gpuModel.asset;
    for (let i = 0; i < asset.meshInstances.length; i++) {
      const instance = asset.meshInstances[i];
      if (instance.skin < 0) continue;
      for (let p = 0; p < asset.meshes[instance.mesh].primitives.length; p++) {
        // Skinned primitives are never in a rigid batch: asking for them uploads nothing more.
        const primitive = gpuModel.primitive(instance.mesh, p);
        if (!primitive.skinned) continue;
        // Sized only: each frame's skinning pass writes them before they are drawn.
        const buffer = (floats: number): GpuBuffer => new GpuBuffer(gl, gl.ARRAY_BUFFER, 4 * floats * primitive.vertexCount, gl.DYNAMIC_COPY, `${asset.name}: skinned vertices`);
        const position = buffer(3), normal = buffer(3), tangent = buffer(4);
        const vao = vaoReplacing(gl, primitive, [
          { location: L.a_position, buffer: position, size: 3 },
          { location: L.a_normal, buffer: normal, size: 3 },
          { location: L.a_tangent, buffer: tangent, size: 4 },
        ]);
        this.entries.set(key(i, p), { position, normal, tangent, vao });
      }
    }
  }

  /** The transform feedback object the skinning pass writes through, as it is in the context now. */
  get feedback(): WebGLTransformFeedback {
    return this.feedbackObject.handle;
  }

  /** `SkinnedVertexSource.vaoOf`: the VAO drawing this frame's skinned vertices of the primitive, or null (not skinned). */
  vaoOf(instanceIndex: number, primitiveIndex: number): WebGLVertexArrayObject | null {
    return this.entries.get(key(instanceIndex, primitiveIndex))?.vao.handle ?? null;
  }

  /**
   * Runs the bound transform-feedback program over primitive `primitiveIndex` of mesh instance
   * `instanceIndex` (its own VAO, `vertexCount` POINTS, rasterizer discarded) into that primitive's buffers.
   * @throws Error when the primitive has no buffers here
   */
  capture(instanceIndex: number, primitiveIndex: number, vao: WebGLVertexArrayObject, vertexCount: number): void {
    const entry = this.entries.get(key(instanceIndex, primitiveIndex));
    if (!entry) throw new Error(`${this.gpuModel.asset.name}: mesh instance ${instanceIndex} primitive ${primitiveIndex} is not skinned`);
    const gl = this.gl;
    gl.bindVertexArray(vao);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, this.feedback);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, entry.position.handle);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, entry.normal.handle);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, entry.tangent.handle);
    const discarding = gl.isEnabled(gl.RASTERIZER_DISCARD);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, vertexCount);
    gl.endTransformFeedback();
    if (!discarding) gl.disable(gl.RASTERIZER_DISCARD);
    // Unbound, so the buffers can be read as vertex attributes by the passes that follow.
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, null);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindVertexArray(null);
  }

  /** Deletes the buffers, VAOs and transform feedback object (only drops them on a lost context). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const entry of this.entries.values()) {
      entry.vao.dispose();
      entry.position.dispose();
      entry.normal.dispose();
      entry.tangent.dispose();
    }
    this.feedbackObject.dispose();
  }
}

function key(instance: number, primitive: number): number {
  return instance * 65536 + primitive;
}
