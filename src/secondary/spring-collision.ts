import { COLLIDER_CAPSULE, COLLIDER_SPHERE, type SpringBoneLayout } from './spring-bone-layout.ts';

/**
 * Collider c of `layout` against a tail sphere, as three-vrm 3.5.5's collider shapes compute it
 * (`calculateCollision` of its sphere, capsule and plane; VRMC_springBone 1.0 "Collision" and
 * VRMC_springBone_extended_collider 1.0 for the plane and the inside shapes), all in world space:
 * - the shape's matrix is its node's world matrix `matrices[16·node…]` with the translation moved to the offset;
 * - sphere: the distance from its centre minus both radii (inside: the radius minus the tail's radius minus the
 *   distance); capsule: the same from the nearest point of the segment offset → node's 3×3 · (tail − offset);
 *   plane: the tail's signed distance along the normal (through the node's normal matrix) minus the tail's radius;
 * - radii are not scaled by the node's scale (three-vrm's shapes read them as they are).
 *
 * Writes the unit direction to push the tail along into `push[0…3)` and returns the penetration as a negative
 * distance (≥ 0: no contact). A tail exactly at a sphere's centre or on a capsule's axis has no direction; it is
 * left where it is (0 returned) where three-vrm would divide by zero.
 * @param tail `Float64Array(3)`, world space; `radius[ri]` the tail's hit radius
 */
export function collideTail(
  push: Float64Array, layout: SpringBoneLayout, c: number, matrices: Float64Array,
  tail: Float64Array, radius: Float64Array, ri: number,
): number {
  const m = matrices, o = 16 * layout.colliderNodes[c];
  const off = layout.colliderOffsets, vec = layout.colliderVectors, c3 = 3 * c;
  const ox = off[c3], oy = off[c3 + 1], oz = off[c3 + 2];
  // The shape's origin: the node's matrix applied to the offset.
  const px = m[o] * ox + m[o + 4] * oy + m[o + 8] * oz + m[o + 12];
  const py = m[o + 1] * ox + m[o + 5] * oy + m[o + 9] * oz + m[o + 13];
  const pz = m[o + 2] * ox + m[o + 6] * oy + m[o + 10] * oz + m[o + 14];
  let tx = tail[0] - px, ty = tail[1] - py, tz = tail[2] - pz;
  const kind = layout.colliderKinds[c], hit = radius[ri];
  if (kind === COLLIDER_SPHERE || kind === COLLIDER_CAPSULE) {
    if (kind === COLLIDER_CAPSULE) {
      const ax = vec[c3] - ox, ay = vec[c3 + 1] - oy, az = vec[c3 + 2] - oz;
      const bx = m[o] * ax + m[o + 4] * ay + m[o + 8] * az, by = m[o + 1] * ax + m[o + 5] * ay + m[o + 9] * az, bz = m[o + 2] * ax + m[o + 6] * ay + m[o + 10] * az;
      const lengthSq = bx * bx + by * by + bz * bz, dot = bx * tx + by * ty + bz * tz;
      if (dot <= 0) {
        // Nearest point: the offset end.
      } else if (lengthSq <= dot) {
        tx -= bx; ty -= by; tz -= bz;
      } else {
        const f = dot / lengthSq;
        tx -= bx * f; ty -= by * f; tz -= bz * f;
      }
    }
    const length = Math.sqrt(tx * tx + ty * ty + tz * tz), r = layout.colliderRadii[c];
    const inside = layout.colliderInside[c] === 1;
    const distance = inside ? r - hit - length : length - hit - r;
    if (distance >= 0 || !(length > 0)) return distance >= 0 ? distance : 0;
    const s = inside ? -1 / length : 1 / length;
    push[0] = tx * s; push[1] = ty * s; push[2] = tz * s;
    return distance;
  }
  // Plane: the normal through the node's normal matrix (the inverse transpose of its 3×3: its cofactors / det).
  const nx = vec[c3], ny = vec[c3 + 1], nz = vec[c3 + 2];
  const a00 = m[o], a01 = m[o + 1], a02 = m[o + 2], a10 = m[o + 4], a11 = m[o + 5], a12 = m[o + 6], a20 = m[o + 8], a21 = m[o + 9], a22 = m[o + 10];
  const c00 = a11 * a22 - a12 * a21, c01 = a12 * a20 - a10 * a22, c02 = a10 * a21 - a11 * a20;
  const c10 = a21 * a02 - a22 * a01, c11 = a22 * a00 - a20 * a02, c12 = a20 * a01 - a21 * a00;
  const c20 = a01 * a12 - a02 * a11, c21 = a02 * a10 - a00 * a12, c22 = a00 * a11 - a01 * a10;
  const det = a00 * c00 + a01 * c01 + a02 * c02;
  let wx = c00 * nx + c10 * ny + c20 * nz, wy = c01 * nx + c11 * ny + c21 * nz, wz = c02 * nx + c12 * ny + c22 * nz;
  const l = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (!(l > 0) || det === 0) return 0;
  const s = (det < 0 ? -1 : 1) / l;
  wx *= s; wy *= s; wz *= s;
  push[0] = wx; push[1] = wy; push[2] = wz;
  return tx * wx + ty * wy + tz * wz - hit;
}
