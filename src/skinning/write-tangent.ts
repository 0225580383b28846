/**
 * Writes vertex v's tangent into `out` (`Float32Array(4·vertexCount)`): (x, y, z) normalised ((0, 0, 0) when
 * zero), w as given. Shared by the LBS and DQS reference loops. Allocates nothing.
 */
export function writeTangent(out: Float32Array, v: number, x: number, y: number, z: number, w: number): void {
  const length = Math.sqrt(x * x + y * y + z * z);
  const scale = length > 0 ? 1 / length : 0;
  const o = 4 * v;
  out[o] = x * scale; out[o + 1] = y * scale; out[o + 2] = z * scale; out[o + 3] = w;
}
