/**
 * Whether the axis-aligned box (`box[o…o+6)`: min x, y, z then max x, y, z, world space) lies wholly outside
 * the view volume of `viewProjection` (column-major, world → clip space): true when all 8 corners are beyond
 * one and the same clip plane (−w ≤ x, y, z ≤ w). Conservative: a box that straddles two planes' outsides near
 * a frustum corner may be kept. Allocates nothing.
 */
export function boxOutsideFrustum(viewProjection: ArrayLike<number>, box: ArrayLike<number>, o = 0): boolean {
  const m = viewProjection;
  // Per plane, a bit set while every corner so far is outside it.
  let outside = 63;
  for (let corner = 0; corner < 8 && outside !== 0; corner++) {
    const x = corner & 1 ? box[o + 3] : box[o], y = corner & 2 ? box[o + 4] : box[o + 1], z = corner & 4 ? box[o + 5] : box[o + 2];
    const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
    const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    let bits = 0;
    if (cx < -cw) bits |= 1;
    if (cx > cw) bits |= 2;
    if (cy < -cw) bits |= 4;
    if (cy > cw) bits |= 8;
    if (cz < -cw) bits |= 16;
    if (cz > cw) bits |= 32;
    outside &= bits;
  }
  return outside !== 0;
}
