import type { GpuModel } from '../skinning/gpu-model.ts';
import { ATTRIBUTE_LOCATIONS } from '../skinning/gpu-model.ts';
import type { PoseBuffers } from '../../skeleton/pose-buffers.ts';
import type { PrimitiveAsset } from '../../asset/model-asset.ts';
import type { SkinningContext } from '../../skinning/skinning-context.ts';
import { skinVertices } from '../../skinning/skin-vertices.ts';
import { SkinningKernel } from '../../skinning/skinning-kernel.ts';
import type { SkinningMethod } from '../../skinning/skinning-method.ts';
import type { SkinnedVertexSource } from '../skinning/skinned-vertex-source.ts';
import { vaoReplacing } from '../skinning/replaced-attributes-vao.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';
import type { VertexArray } from '../device/vertex-array.ts';
import { MorphedPrimitive } from '../../skinning/morph-targets.ts';

/** One skinned primitive of one mesh instance, skinned on the CPU. */
export interface CpuSkinnedPrimitive {
  readonly instance: number;
  readonly primitive: number;
  readonly skin: number;
  /**
   * `Float32Array(3·vertexCount)`: the last {@link CpuVertexBuffers.update}'s positions (model space − origin); the
   * skinning kernel's own array from the first update on (read it after each update, do not keep it).
   */
  readonly positions: Float32Array;
  /** `Float32Array(3·vertexCount)`: its unit normals (the same lifetime as {@link positions}). */
  readonly normals: Float32Array;
  readonly vao: WebGLVertexArrayObject;
  readonly buffers: readonly WebGLBuffer[];
  /** The primitive's morph targets applied on the CPU before skinning (null without morph targets). */
  readonly morphed: MorphedPrimitive | null;
  /** Offset of the instance's weights in `PoseBuffers.morphWeights` (−1: none). */
  readonly morphOffset: number;
}

/**
 * The CPU path's vertices of every skinned primitive of a model (morph targets by `MorphedPrimitive`, then a
 * `SkinningKernel` per primitive — WebAssembly SIMD, or its portable fallback `skinVertices` — with the same
 * weights and skinning matrices the shader's palette is packed from), uploaded into VAOs that share the
 * primitive's UVs, tangents and index buffer, so the renderer can draw them instead of the shader's
 * ({@link SkinnedVertexSource}) — the viewer's GPU-vs-CPU toggle and its parity readout. The whole primitive is
 * skinned every shown frame, which is the kernel's case; its vertices match `skinVertices` within float32
 * rounding (tests/unit/skinning/skinning-kernel*.test.ts), as the shader's do.
 * Buffers are made in the constructor, each primitive's kernel on the first {@link update} with its skinning
 * context (again only if a different context is given); {@link update} allocates nothing after that.
 */
export class CpuVertexBuffers implements SkinnedVertexSource {
  /** Every skinned primitive of every mesh instance, in draw order. */
  readonly entries: readonly CpuSkinnedPrimitive[];
  private readonly cpuEntries: readonly CpuEntry[];
  private readonly byKey = new Map<number, CpuSkinnedPrimitive>();
  private disposed = false;

  /** @throws Error when a GL object cannot be made (context lost) */
  constructor(private readonly gl: WebGL2RenderingContext, private readonly gpuModel: GpuModel) {
    const asset = gpuModel.asset;
    const entries: CpuEntry[] = [];
    const L = ATTRIBUTE_LOCATIONS;
    asset.meshInstances.forEach((instance, i) => {
      if (instance.skin < 0) return;
      asset.meshes[instance.mesh].primitives.forEach((_, p) => {
        const primitive = gpuModel.primitive(instance.mesh, p);
        if (!primitive.skinned) return;
        const n = primitive.vertexCount;
        const positions = new Float32Array(3 * n);
        const normals = new Float32Array(3 * n);
        // A restore uploads the last update's vertices (the entry's arrays as they are then).
        let entry: CpuEntry | null = null;
        const positionBuffer = new GpuBuffer(gl, gl.ARRAY_BUFFER, () => (entry ? entry.positions : positions) as Float32Array<ArrayBuffer>, gl.DYNAMIC_DRAW, 'CPU-skinned positions');
        const normalBuffer = new GpuBuffer(gl, gl.ARRAY_BUFFER, () => (entry ? entry.normals : normals) as Float32Array<ArrayBuffer>, gl.DYNAMIC_DRAW, 'CPU-skinned normals');
        const vao = vaoReplacing(gl, primitive, [
          { location: L.a_position, buffer: positionBuffer, size: 3 }, { location: L.a_normal, buffer: normalBuffer, size: 3 },
        ]);
        const morphOffset = instance.morphWeightOffset ?? -1;
        const morphed = primitive.asset.morphTargets && morphOffset >= 0 ? new MorphedPrimitive(primitive.asset) : null;
        entry = new CpuEntry(i, p, instance.skin, primitive.asset, positions, normals, vao, [positionBuffer, normalBuffer], morphed, morphOffset);
        entries.push(entry);
        this.byKey.set(key(i, p), entry);
      });
    });
    this.entries = entries;
    this.cpuEntries = entries;
  }

  /**
   * Skins every entry on the CPU from `pose` (its skinning matrices and skinning contexts, e.g. an `AnimatedModel`)
   * by `method`, and uploads the vertices when `upload` is true.
   */
  update(pose: PoseBuffers & { readonly skinningContexts: readonly SkinningContext[] }, method: SkinningMethod, upload = true): void {
    if (this.disposed) return;
    const gl = this.gl;
    for (const entry of this.cpuEntries) {
      const context = pose.skinningContexts[entry.skin], skinMatrices = pose.skinMatrices[entry.skin];
      const kernel = entry.kernelFor(context);
      if (entry.morphed && !pose.morphWeights) {
        // No morph weights this frame: the unmorphed source, by the portable path (the kernel holds the morphed arrays).
        skinVertices(kernel.positions, kernel.normals, entry.source, skinMatrices, context, method);
      } else {
        if (entry.morphed) {
          entry.morphed.apply(pose.morphWeights!, entry.morphOffset);
          kernel.refreshRest();
        }
        kernel.skin(skinMatrices, method, true, false);
      }
      if (!upload) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, entry.vertexBuffers[0].handle);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, entry.positions);
      gl.bindBuffer(gl.ARRAY_BUFFER, entry.vertexBuffers[1].handle);
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
    for (const entry of this.cpuEntries) {
      entry.vertexArray.dispose();
      for (const buffer of entry.vertexBuffers) buffer.dispose();
    }
  }
}

/** An entry and the kernel that skins it (made on the first update, with the pose's skinning context). */
class CpuEntry implements CpuSkinnedPrimitive {
  private kernel: SkinningKernel | null = null;

  constructor(
    readonly instance: number,
    readonly primitive: number,
    readonly skin: number,
    /** The primitive as loaded (unmorphed). */
    readonly source: PrimitiveAsset,
    private readonly initialPositions: Float32Array,
    private readonly initialNormals: Float32Array,
    readonly vertexArray: VertexArray,
    readonly vertexBuffers: readonly GpuBuffer[],
    readonly morphed: MorphedPrimitive | null,
    readonly morphOffset: number,
  ) {}

  get vao(): WebGLVertexArrayObject { return this.vertexArray.handle; }

  get buffers(): readonly WebGLBuffer[] { return this.vertexBuffers.map((b) => b.handle); }

  get positions(): Float32Array { return this.kernel ? this.kernel.positions : this.initialPositions; }

  get normals(): Float32Array { return this.kernel ? this.kernel.normals : this.initialNormals; }

  /** The kernel over the (morphed) primitive with `context`, made now when there is none for it. */
  kernelFor(context: SkinningContext): SkinningKernel {
    if (this.kernel?.context !== context) this.kernel = new SkinningKernel(this.morphed ? this.morphed.primitive : this.source, context);
    return this.kernel;
  }
}

function key(instance: number, primitive: number): number {
  return instance * 65536 + primitive;
}
