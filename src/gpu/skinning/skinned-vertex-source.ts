/**
 * Vertices skinned before the draw — by the CPU reference path (the viewer's GPU-vs-CPU comparison,
 * debug/cpu-vertex-buffers.ts) or by one transform-feedback pass that every pass of a frame reads
 * (skinned-vertex-buffers.ts) — drawn instead of skinning them in the vertex shader: a VAO per skinned
 * primitive whose positions and normals (and, from the GPU, tangents) are in model space relative to the
 * model origin O, with the primitive's own UVs, colours and indices. The renderer draws such a VAO by the rigid
 * shader variant placed by the display matrix, with no morph targets (they are in the vertices already).
 */
export interface SkinnedVertexSource {
  /** The VAO for primitive `primitiveIndex` of mesh instance `instanceIndex`, or null to skin it in the draw. */
  vaoOf(instanceIndex: number, primitiveIndex: number): WebGLVertexArrayObject | null;
}
