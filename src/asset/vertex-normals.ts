/**
 * Area-weighted vertex normals of a triangle list: each triangle adds its unnormalised face normal
 * (the cross product, whose length is twice its area) to its three vertices, then each sum is normalised.
 * Used where a file stores no normals (MD5, glTF without NORMAL, generated models).
 *
 * @param positions `Float32Array(3·vertexCount)`
 * @param indices triangle list, 3 indices per triangle, each < vertexCount
 * @returns `Float32Array(3·vertexCount)` of unit normals; (0, 0, 1) for a vertex on no non-degenerate triangle
 */
export function computeVertexNormals(positions: Float32Array, indices: ArrayLike<number>): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const e1x = positions[b] - positions[a], e1y = positions[b + 1] - positions[a + 1], e1z = positions[b + 2] - positions[a + 2];
    const e2x = positions[c] - positions[a], e2y = positions[c + 1] - positions[a + 1], e2z = positions[c + 2] - positions[a + 2];
    const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    for (const v of [a, b, c]) {
      normals[v] += nx; normals[v + 1] += ny; normals[v + 2] += nz;
    }
  }
  for (let v = 0; v < normals.length; v += 3) {
    const len = Math.hypot(normals[v], normals[v + 1], normals[v + 2]);
    if (len > 0) {
      normals[v] /= len; normals[v + 1] /= len; normals[v + 2] /= len;
    } else {
      normals[v + 2] = 1;
    }
  }
  return normals;
}
