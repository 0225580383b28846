import type { GpuPrimitive } from '../skinning/gpu-model.ts';
import type { EdgeBuffer } from './draw-style.ts';
import { GpuBuffer } from '../device/gpu-buffer.ts';

/**
 * The distinct edges of a triangle list: each unordered vertex pair that bounds a triangle, once, as
 * (smaller, larger) index pairs in order of first appearance. Degenerate edges (a vertex to itself) are left out.
 * @param indices triangle vertex indices, 3 per triangle (a trailing partial triangle is ignored)
 * @returns `Uint32Array(2·edgeCount)`
 */
export function uniqueEdges(indices: ArrayLike<number>): Uint32Array {
  const seen = new Set<number>();
  const out: number[] = [];
  const add = (a: number, b: number): void => {
    if (a === b) return;
    const lo = a < b ? a : b, hi = a < b ? b : a;
    // Vertex indices are below 2³²; lo·2³² + hi is exact in a double up to 2⁵³, i.e. for lo < 2²¹.
    const key = lo * 4294967296 + hi;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(lo, hi);
  };
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    add(a, b);
    add(b, c);
    add(c, a);
  }
  return Uint32Array.from(out);
}

/**
 * Edge index buffers of a model's primitives for the wireframe view, made on first use of each primitive and
 * kept until {@link dispose} (the owner disposes it with the model).
 */
export class EdgeBuffers {
  private readonly buffers = new Map<GpuPrimitive, EdgeBuffer & { readonly resource: GpuBuffer }>();

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /** The edge buffer of `primitive` (built now from its triangle indices if needed). */
  readonly edgesOf = (primitive: GpuPrimitive): EdgeBuffer => {
    let edges = this.buffers.get(primitive);
    if (!edges) {
      const gl = this.gl;
      // The first upload reads these pairs; a restore finds them again from the triangles (none kept).
      let pairs: Uint32Array | null = uniqueEdges(primitive.asset.indices);
      const count = pairs.length;
      const resource = new GpuBuffer(gl, gl.ELEMENT_ARRAY_BUFFER, () => {
        const data = pairs ?? uniqueEdges(primitive.asset.indices);
        pairs = null;
        return data as Uint32Array<ArrayBuffer>;
      }, gl.STATIC_DRAW, 'edge buffer');
      edges = { get buffer() { return resource.handle; }, count, resource };
      this.buffers.set(primitive, edges);
    }
    return edges;
  };

  /** Deletes every edge buffer (forgets them when the context is lost). Idempotent. */
  dispose(): void {
    for (const edges of this.buffers.values()) edges.resource.dispose();
    this.buffers.clear();
  }
}
