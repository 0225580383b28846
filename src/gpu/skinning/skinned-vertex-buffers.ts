import type { GpuModel } from './gpu-model.ts';
import { ATTRIBUTE_LOCATIONS } from './gpu-model.ts';
import { vaoReplacing } from './replaced-attributes-vao.ts';
import type { SkinnedVertexSource } from './skinned-vertex-source.ts';

/** One skinned primitive's transform-feedback output and the VAO that draws it. */
interface Entry {
  readonly position: WebGLBuffer;
  readonly normal: WebGLBuffer;
  readonly tangent: WebGLBuffer;
  readonly vao: WebGLVertexArrayObject;
}

/**
 * "Skin once per frame": GPU buffers that one transform-feedback pass of the very skinning shader the
 * renderer draws with (`SkinnedRenderer.skinInto`) fills with every skinned primitive's vertices — positions
 * (3 floats), unit normals (3) and tangents (4, w kept) per vertex, in model space relative to the model
 * origin O, morph targets applied — and VAOs that read them with the primitive's own UVs, colours and indices.
 * Every pass of the frame that needs the skinned model (the main draw, a contact shadow) then draws these by
 * the rigid variant instead of skinning each vertex again (`SkinnedRenderer.draw`'s `skinnedVertices`).
 * Nothing is read back. Made for one {@link GpuModel} in one context generation; 40 bytes a skinned vertex.
 * Why and when it is faster than skinning in each pass: docs/explanation/performance.md "Skin once or skin per pass" (bench keys
 * `skin_once.*`).
 */
export class SkinnedVertexBuffers implements SkinnedVertexSource {
  /** The model the buffers hold (its mesh instances and primitives). */
  readonly gpuModel: GpuModel;
  /** The transform feedback object the skinning pass writes through. */
  readonly feedback: WebGLTransformFeedback;
  private readonly entries = new Map<number, Entry>();
  private disposed = false;

  /** @throws Error when a GL object cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext, gpuModel: GpuModel) {
    this.gpuModel = gpuModel;
    const feedback = gl.createTransformFeedback();
    if (!feedback) throw new Error(`${gpuModel.asset.name}: could not create a transform feedback object (context lost?)`);
    this.feedback = feedback;
    const L = ATTRIBUTE_LOCATIONS;
    const asset = gpuModel.asset;
    for (let i = 0; i < asset.meshInstances.length; i++) {
      const instance = asset.meshInstances[i];
      if (instance.skin < 0) continue;
      for (let p = 0; p < asset.meshes[instance.mesh].primitives.length; p++) {
        // Skinned primitives are never in a rigid batch: asking for them uploads nothing more.
        const primitive = gpuModel.primitive(instance.mesh, p);
        if (!primitive.skinned) continue;
        const buffer = (floats: number): WebGLBuffer => {
          const b = gl.createBuffer();
          if (!b) throw new Error(`${asset.name}: could not create a vertex buffer (context lost?)`);
          gl.bindBuffer(gl.ARRAY_BUFFER, b);
          gl.bufferData(gl.ARRAY_BUFFER, 4 * floats * primitive.vertexCount, gl.DYNAMIC_COPY);
          return b;
        };
        const position = buffer(3), normal = buffer(3), tangent = buffer(4);
        const vao = vaoReplacing(gl, primitive, [
          { location: L.a_position, buffer: position, size: 3 },
          { location: L.a_normal, buffer: normal, size: 3 },
          { location: L.a_tangent, buffer: tangent, size: 4 },
        ]);
        this.entries.set(key(i, p), { position, normal, tangent, vao });
      }
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  /** `SkinnedVertexSource.vaoOf`: the VAO drawing this frame's skinned vertices of the primitive, or null (not skinned). */
  vaoOf(instanceIndex: number, primitiveIndex: number): WebGLVertexArrayObject | null {
    return this.entries.get(key(instanceIndex, primitiveIndex))?.vao ?? null;
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
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, entry.position);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, entry.normal);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, entry.tangent);
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

  /** Deletes the buffers, VAOs and transform feedback object (forgets them on a lost context). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    if (gl.isContextLost()) return;
    for (const entry of this.entries.values()) {
      gl.deleteVertexArray(entry.vao);
      gl.deleteBuffer(entry.position);
      gl.deleteBuffer(entry.normal);
      gl.deleteBuffer(entry.tangent);
    }
    gl.deleteTransformFeedback(this.feedback);
  }
}

function key(instance: number, primitive: number): number {
  return instance * 65536 + primitive;
}
