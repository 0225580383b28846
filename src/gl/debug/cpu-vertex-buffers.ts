import type { GpuModel } from '../gpu-model.ts';
import { ATTRIBUTE_LOCATIONS } from '../gpu-model.ts';
import type { PoseBuffers } from '../../skeleton/pose-buffers.ts';
import type { SkinningContext } from '../../skinning/skinning-context.ts';
import { skinVertices } from '../../skinning/skin-vertices.ts';
import type { SkinningMethod } from '../../skinning/skinning-method.ts';
import type { SkinnedVertexSource } from '../skinned-vertex-source.ts';
import { vaoReplacing } from '../replaced-attributes-vao.ts';
import { MorphedPrimitive } from '../../skinning/morph-targets.ts';

/** One skinned primitive of one mesh instance, skinned on the CPU. */
export interface CpuSkinnedPrimitive {
  readonly instance: number;
  readonly primitive: number;
  readonly skin: number;
  /** `Float32Array(3·vertexCount)`: the last {@link CpuVertexBuffers.update}'s positions (model space − origin). */
  readonly positions: Float32Array;
  /** `Float32Array(3·vertexCount)`: its unit normals. */
  readonly normals: Float32Array;
  readonly vao: WebGLVertexArrayObject;
  readonly buffers: readonly WebGLBuffer[];
  /** The primitive's morph targets applied on the CPU before skinning (null without morph targets). */
  readonly morphed: MorphedPrimitive | null;
  /** Offset of the instance's weights in `PoseBuffers.morphWeights` (−1: none). */
  readonly morphOffset: number;
}

/**
 * The CPU reference path's vertices of every skinned primitive of a model (morph targets by `MorphedPrimitive`,
 * then `skinVertices`, the same weights and skinning matrices the shader's palette is packed from), uploaded into VAOs that share the primitive's UVs, tangents and index buffer, so the
 * renderer can draw them instead of the shader's ({@link SkinnedVertexSource}) — the viewer's GPU-vs-CPU toggle.
 * Arrays and buffers are made in the constructor; {@link update} allocates nothing.
 */
export class CpuVertexBuffers implements SkinnedVertexSource {
  /** Every skinned primitive of every mesh instance, in draw order. */
  readonly entries: readonly CpuSkinnedPrimitive[];
  private readonly byKey = new Map<number, CpuSkinnedPrimitive>();
  private disposed = false;

  /** @throws Error when a GL object cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext, private readonly gpuModel: GpuModel) {
    const asset = gpuModel.asset;
    const entries: CpuSkinnedPrimitive[] = [];
    const L = ATTRIBUTE_LOCATIONS;
    asset.meshInstances.forEach((instance, i) => {
      if (instance.skin < 0) return;
      asset.meshes[instance.mesh].primitives.forEach((_, p) => {
        const primitive = gpuModel.primitive(instance.mesh, p);
        if (!primitive.skinned) return;
        const n = primitive.vertexCount;
        const positions = new Float32Array(3 * n);
        const normals = new Float32Array(3 * n);
        const positionBuffer = gl.createBuffer();
        const normalBuffer = gl.createBuffer();
        if (!positionBuffer || !normalBuffer) throw new Error('CpuVertexBuffers: could not create GL objects (context lost?)');
        for (const buffer of [positionBuffer, normalBuffer]) {
          gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
          gl.bufferData(gl.ARRAY_BUFFER, 12 * n, gl.DYNAMIC_DRAW);
        }
        const vao = vaoReplacing(gl, primitive, [
          { location: L.a_position, buffer: positionBuffer, size: 3 }, { location: L.a_normal, buffer: normalBuffer, size: 3 },
        ]);
        const morphOffset = instance.morphWeightOffset ?? -1;
        const morphed = primitive.asset.morphTargets && morphOffset >= 0 ? new MorphedPrimitive(primitive.asset) : null;
        const entry: CpuSkinnedPrimitive = {
          instance: i, primitive: p, skin: instance.skin, positions, normals, vao, buffers: [positionBuffer, normalBuffer], morphed, morphOffset,
        };
        entries.push(entry);
        this.byKey.set(key(i, p), entry);
      });
    });
    this.entries = entries;
  }

  /**
   * Skins every entry on the CPU from `pose` (its skinning matrices and skinning contexts, e.g. an `AnimatedModel`)
   * by `method`, and uploads the vertices when `upload` is true.
   */
  update(pose: PoseBuffers & { readonly skinningContexts: readonly SkinningContext[] }, method: SkinningMethod, upload = true): void {
    if (this.disposed) return;
    const gl = this.gl;
    const asset = this.gpuModel.asset;
    for (const entry of this.entries) {
      let primitive = asset.meshes[asset.meshInstances[entry.instance].mesh].primitives[entry.primitive];
      if (entry.morphed && pose.morphWeights) primitive = entry.morphed.apply(pose.morphWeights, entry.morphOffset);
      skinVertices(entry.positions, entry.normals, primitive, pose.skinMatrices[entry.skin], pose.skinningContexts[entry.skin], method);
      if (!upload) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, entry.buffers[0]);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, entry.positions);
      gl.bindBuffer(gl.ARRAY_BUFFER, entry.buffers[1]);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, entry.normals);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  vaoOf(instanceIndex: number, primitiveIndex: number): WebGLVertexArrayObject | null {
    return this.byKey.get(key(instanceIndex, primitiveIndex))?.vao ?? null;
  }

  /** Deletes the VAOs and vertex buffers (the shared UV, tangent and index buffers stay the model's). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    if (gl.isContextLost()) return;
    for (const entry of this.entries) {
      gl.deleteVertexArray(entry.vao);
      for (const buffer of entry.buffers) gl.deleteBuffer(buffer);
    }
  }
}

function key(instance: number, primitive: number): number {
  return instance * 65536 + primitive;
}
