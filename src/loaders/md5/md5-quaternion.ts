/**
 * The w component of an MD5 unit quaternion, which the files leave out: MD5 stores (x, y, z) only and
 * defines `w = −√max(0, 1 − x² − y² − z²)` (negative w, as the Doom 3 MD5 readers rebuild it; the clamp
 * absorbs rounding when x² + y² + z² is a hair above 1).
 */
export function md5QuaternionW(x: number, y: number, z: number): number {
  const t = 1 - x * x - y * y - z * z;
  return t > 0 ? -Math.sqrt(t) : 0;
}
