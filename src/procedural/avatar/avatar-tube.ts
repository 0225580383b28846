import type { SurfaceFunction } from '../skinned-mesh-builder.ts';

/**
 * A limb of the generated avatar: a tube along a polyline of joint positions, one skin joint per segment, capped at
 * both ends by a pole.
 */
export interface AvatarTube {
  /** Polyline points, metres, model space: m + 1 points for m segments. */
  readonly points: readonly (readonly [number, number, number])[];
  /** Cross-section radii at each point, metres: [width, depth] (see {@link createTubeSurface} for the axes). */
  readonly radii: readonly (readonly [number, number])[];
  /** Skin joint of each segment (m of them). */
  readonly joints: readonly number[];
  /** The joint the first segment blends into at its start (the limb's parent), or −1 for none. */
  readonly parentJoint: number;
}

/** Fraction of a segment at each end over which its weight blends with the neighbouring joint. */
const BLEND = 0.3;

/**
 * A tube's surface for {@link SkinnedMeshBuilder.addSurface}: row 0 and row `rows` are poles a little beyond the
 * ends, rows 1…rows−1 run along the polyline (equal rows per segment). The cross-section is an ellipse spanned by
 * e1 = normalize(ref × d) (width) and e2 = e1 × d (depth), d the segment's direction and ref +Z (or +Y for segments
 * near ±Z); so the avatar's torso and legs are wide along X, its arms and fingers along Y, its feet along X.
 * Weights: a vertex at fraction f of segment k is weight 1 on joint k, blending linearly towards 0.5/0.5 with the
 * previous joint (or `parentJoint`) as f → 0 and with the next joint as f → 1, over {@link BLEND} of the segment:
 * weights are continuous across joints.
 * @param rowsPerSegment rows per segment, ≥ 1
 */
export function createTubeSurface(tube: AvatarTube, rowsPerSegment: number): { rows: number; surface: SurfaceFunction } {
  const segments = tube.joints.length;
  const rows = segments * rowsPerSegment + 2;
  const surface: SurfaceFunction = (u, row, out) => {
    // Along-polyline parameter s ∈ [0, segments]; the poles sit a third of an end radius beyond the ends.
    const s = Math.min(Math.max(row - 1, 0) / rowsPerSegment, segments);
    const k = Math.min(Math.floor(s), segments - 1);
    const f = s - k;
    const a = tube.points[k], b = tube.points[k + 1];
    let dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    const length = Math.hypot(dx, dy, dz);
    dx /= length; dy /= length; dz /= length;
    const ra = tube.radii[k][0] + (tube.radii[k + 1][0] - tube.radii[k][0]) * f;
    const rb = tube.radii[k][1] + (tube.radii[k + 1][1] - tube.radii[k][1]) * f;
    const cx = a[0] + (b[0] - a[0]) * f, cy = a[1] + (b[1] - a[1]) * f, cz = a[2] + (b[2] - a[2]) * f;
    if (row === 0 || row === rows) {
      const sign = row === 0 ? -1 : 1;
      const r = Math.min(ra, rb) / 3;
      out.position[0] = cx + sign * r * dx; out.position[1] = cy + sign * r * dy; out.position[2] = cz + sign * r * dz;
    } else {
      // ref × d with ref = +Z, or +Y when d is close to ±Z.
      const nearZ = Math.abs(dz) > 0.9;
      let e1x = nearZ ? dz : -dy, e1y = nearZ ? 0 : dx, e1z = nearZ ? -dx : 0;
      const e1Length = Math.hypot(e1x, e1y, e1z);
      e1x /= e1Length; e1y /= e1Length; e1z /= e1Length;
      const e2x = e1y * dz - e1z * dy, e2y = e1z * dx - e1x * dz, e2z = e1x * dy - e1y * dx;
      const c = Math.cos(2 * Math.PI * u), sn = Math.sin(2 * Math.PI * u);
      out.position[0] = cx + ra * c * e1x + rb * sn * e2x;
      out.position[1] = cy + ra * c * e1y + rb * sn * e2y;
      out.position[2] = cz + ra * c * e1z + rb * sn * e2z;
    }
    const own = tube.joints[k];
    const previous = k > 0 ? tube.joints[k - 1] : tube.parentJoint;
    const next = k < segments - 1 ? tube.joints[k + 1] : -1;
    out.joints[0] = own;
    out.weights[0] = 1;
    if (f < BLEND && previous >= 0) {
      const w = 0.5 + 0.5 * f / BLEND;
      out.weights[0] = w; out.joints[1] = previous; out.weights[1] = 1 - w;
    } else if (f > 1 - BLEND && next >= 0) {
      const w = 0.5 + 0.5 * (1 - f) / BLEND;
      out.weights[0] = w; out.joints[1] = next; out.weights[1] = 1 - w;
    }
  };
  return { rows, surface };
}

/**
 * An ellipsoid's surface for {@link SkinnedMeshBuilder.addSurface}, outward-facing: row 0 the top pole (+Y), row
 * `rows` the bottom one; `thetaMax(u)` (radians from the top, ≤ π) cuts it open below for caps such as hair.
 * @param centre metres; @param radii metres along X, Y, Z
 * @param weigh sets the vertex's skin joints and weights from its position (the builder zeroes them first)
 */
export function createEllipsoidSurface(
  rows: number,
  centre: readonly [number, number, number],
  radii: readonly [number, number, number],
  weigh: (position: Float64Array, joints: Uint16Array, weights: Float64Array) => void,
  thetaMax: (u: number) => number = () => Math.PI,
): SurfaceFunction {
  return (u, row, out) => {
    const theta = thetaMax(u) * row / rows;
    // φ runs clockwise seen from above so that ∂P/∂row × ∂P/∂u points outward.
    const phi = -2 * Math.PI * u;
    out.position[0] = centre[0] + radii[0] * Math.sin(theta) * Math.cos(phi);
    out.position[1] = centre[1] + radii[1] * Math.cos(theta);
    out.position[2] = centre[2] + radii[2] * Math.sin(theta) * Math.sin(phi);
    weigh(out.position, out.joints, out.weights);
  };
}
