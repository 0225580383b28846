import { ProgramCache } from '../../gpu/skinning/program-cache.ts';
import { createShaderVariant } from '../../gpu/skinning/shader-variant.ts';
import { TransformFeedbackCapture, type CapturedVertices, type DrawnCapture } from '../../gpu/skinning/transform-feedback-capture.ts';
import type { CrowdItem } from './crowd-item.ts';
import { bindInstancedPrimitive, instancedProgram, type ProgramSource } from './instanced-binding.ts';

const IDENTITY4 = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/**
 * Instanced skinning's side of the GPU-vs-CPU parity test: runs the instanced `shaders/skinned.vert` variant a
 * crowd draws with (`drawCrowd`, src/crowd/gpu/crowd-pass.ts) over one primitive's vertices as POINTS for every
 * drawn instance, through a {@link TransformFeedbackCapture} of its own (its output buffers and read-back), and
 * reads the results back. Owns its programs and that capture; `dispose()` frees them (idempotent).
 */
export class InstancedCapture {
  /** The programs and the scratch shader variant of the capture being drawn. */
  private readonly source: ProgramSource;
  private readonly points: TransformFeedbackCapture;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.source = { programs: new ProgramCache(gl), variant: createShaderVariant() };
    this.points = new TransformFeedbackCapture(gl);
  }

  /**
   * Instanced skinning's output for every drawn instance: primitive `primitiveIndex` of mesh instance
   * `instanceIndex` of `item.gpuModel` run through the instanced variant (`item.blocks.method`) for `item.blocks.drawCount` instances, as
   * `drawCrowd` draws it. Output `k·vertexCount + v` is vertex v of block k, in world space.
   * @throws Error when crowds do not draw that primitive (a skinned mesh's primitive without joints) or the capture is disposed
   */
  captureInstanced(item: CrowdItem, instanceIndex: number, primitiveIndex: number): CapturedVertices {
    return this.points.read(this.drawInstanced(item, instanceIndex, primitiveIndex));
  }

  /**
   * {@link captureInstanced}, read back once a fence says the GPU has written the output (no pipeline stall).
   * @throws (rejects) as `captureInstanced`, and when the context is lost or the capture disposed before the read
   */
  captureInstancedAsync(item: CrowdItem, instanceIndex: number, primitiveIndex: number): Promise<CapturedVertices> {
    try {
      return this.points.readWhenComplete(this.drawInstanced(item, instanceIndex, primitiveIndex));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private drawInstanced(item: CrowdItem, instanceIndex: number, primitiveIndex: number): DrawnCapture {
    const { gpuModel, blocks, instances } = item;
    if (this.points.isDisposed) throw new Error('InstancedCapture: used after dispose()');
    const gl = this.gl;
    const asset = gpuModel.asset;
    const instance = asset.meshInstances[instanceIndex];
    const primitive = instance && primitiveIndex >= 0 && primitiveIndex < asset.meshes[instance.mesh].primitives.length ? gpuModel.primitive(instance.mesh, primitiveIndex) : undefined;
    const program = primitive ? instancedProgram(this.source, item, instanceIndex, primitive, true) : null;
    if (!primitive || !program) {
      throw new Error(`${asset.name}: mesh instance ${instanceIndex} primitive ${primitiveIndex} is not a primitive crowds draw`);
    }
    // First: baked mode's blend pass runs a program of its own.
    instances.upload(blocks);
    gl.useProgram(program.program);
    gl.uniformMatrix4fv(program.u_viewProjection, false, IDENTITY4);
    gl.uniform3f(program.u_origin, blocks.origin[0], blocks.origin[1], blocks.origin[2]);
    bindInstancedPrimitive(gl, program, item, instanceIndex, primitive);
    return this.points.drawPoints(primitive.vao, primitive.vertexCount, blocks.drawCount, asset.name);
  }

  /** Deletes the programs and the capture's buffers. Idempotent. */
  dispose(): void {
    if (this.points.isDisposed) return;
    this.source.programs.dispose();
    this.points.dispose();
  }
}
