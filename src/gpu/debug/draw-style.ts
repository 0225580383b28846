import type { GpuPrimitive } from '../skinning/gpu-model.ts';
import type { SkinnedVertexSource } from '../skinning/skinned-vertex-source.ts';

/**
 * How {@link SkinnedRenderer.draw} shades a model's surface: `shaded` (shaders/lit.frag, the default), `weights`
 * (the selected joint's weight as a heat map) or `influences` (non-zero influences per vertex), both through
 * `shaders/skinned.vert` built with `WEIGHT_VIEW` and `shaders/debug-weights.frag`; `none` draws no surface
 * (e.g. wireframe alone).
 */
export type SurfaceView = 'shaded' | 'weights' | 'influences' | 'none';

/** The edge list of a primitive, drawn as `LINES` through the primitive's own VAO and skinning shader. */
export interface EdgeBuffer {
  /** `ELEMENT_ARRAY_BUFFER` of `UNSIGNED_INT` vertex index pairs. */
  readonly buffer: WebGLBuffer;
  /** Indices (2 per edge). */
  readonly count: number;
}

/**
 * The inspection options of one draw (the viewer's debug views), all drawn by the renderer's own shaders.
 * Absent (the default): the model as it is, lit.
 */
export interface DrawStyle {
  readonly surface: SurfaceView;
  /**
   * Per skin of the model: skin-local index of the joint whose weights the `weights` view shows, or −1 when
   * the skin does not hold it. `Int32Array(skins.length)`.
   */
  readonly weightJointBySkin: Int32Array;
  /** Skeleton joint (node) selected, so that a rigid mesh on it shows weight 1; −1 for none. */
  readonly weightNode: number;
  /** Edges to draw as lines over (or, with surface `none`, instead of) the surface; null for none. */
  readonly edgesOf: ((primitive: GpuPrimitive) => EdgeBuffer) | null;
  /** RGBA of the wireframe, linear values written as they are. */
  readonly edgeColor: Float32Array;
  /** CPU-skinned vertices to draw instead of the shader's (the GPU-vs-CPU comparison), or null. */
  readonly cpuVertices: SkinnedVertexSource | null;
}
