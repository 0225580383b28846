/**
 * A tentacle's rest centre line: a planar curve parametrised by arc length s (metres), lying in the
 * vertical plane through `origin` spanned by the horizontal unit `direction` d and world up Y. Its tangent
 * at s is `cos φ(s)·d + sin φ(s)·Y`, where φ is the elevation angle in radians (−π/2 hangs straight
 * down, 0 points straight out, +π/2 straight up).
 */
export interface TentacleCurve {
  /** World position of s = 0 (where the tentacle leaves the body), metres. */
  readonly origin: readonly [number, number, number];
  /** Horizontal unit vector d pointing away from the body axis. */
  readonly direction: readonly [number, number, number];
  /**
   * Unit bending axis b = d × Y, horizontal and perpendicular to the curve's plane. Rotating −Y by α
   * about b gives −cos α·Y + sin α·d, so a joint whose tangent has elevation φ has rotation α = φ + π/2.
   */
  readonly bendAxis: readonly [number, number, number];
  /** Arc length of the curve, metres. */
  readonly length: number;
  /** Number of integration steps; `planar` and `angles` hold steps + 1 samples. */
  readonly steps: number;
  /** `Float64Array(2·(steps + 1))`: (outward distance along d, height along Y) of sample i, metres, relative to origin. */
  readonly planar: Float64Array;
  /** `Float64Array(steps + 1)`: elevation φ of sample i, radians. */
  readonly angles: Float64Array;
}

/**
 * Integrates a centre line from its elevation profile (midpoint rule on `steps` equal arc-length steps).
 * @param origin world start point, metres
 * @param heading azimuth of d in the horizontal plane, radians: d = (cos heading, 0, sin heading)
 * @param length arc length, metres
 * @param elevationAt φ as a function of the normalised arc length u = s / length ∈ [0, 1], radians
 */
export function createTentacleCurve(
  origin: readonly [number, number, number],
  heading: number,
  length: number,
  elevationAt: (u: number) => number,
  steps = 256,
): TentacleCurve {
  const dx = Math.cos(heading), dz = Math.sin(heading);
  const planar = new Float64Array(2 * (steps + 1));
  const angles = new Float64Array(steps + 1);
  const h = length / steps;
  angles[0] = elevationAt(0);
  for (let i = 1; i <= steps; i++) {
    const mid = elevationAt((i - 0.5) / steps);
    planar[2 * i] = planar[2 * i - 2] + h * Math.cos(mid);
    planar[2 * i + 1] = planar[2 * i - 1] + h * Math.sin(mid);
    angles[i] = elevationAt(i / steps);
  }
  // b = d × Y with d = (dx, 0, dz), Y = (0, 1, 0).
  return { origin, direction: [dx, 0, dz], bendAxis: [-dz, 0, dx], length, steps, planar, angles };
}

/**
 * Elevation φ at arc length s, radians; clamped to the end values outside [0, length] (the curve
 * continues straight there).
 */
export function curveElevation(curve: TentacleCurve, s: number): number {
  const x = Math.min(Math.max(s / curve.length, 0), 1) * curve.steps;
  const i = Math.min(Math.floor(x), curve.steps - 1), f = x - i;
  return curve.angles[i] * (1 - f) + curve.angles[i + 1] * f;
}

/**
 * World point at arc length s, written to `out` (metres). Outside [0, length] the curve continues in a
 * straight line along its end tangent.
 * @param out `ArrayLike` of 3, receives x, y, z
 */
export function curvePoint<T extends { [i: number]: number }>(out: T, curve: TentacleCurve, s: number): T {
  let radial: number, height: number;
  if (s <= 0 || s >= curve.length) {
    const end = s <= 0 ? 0 : curve.steps;
    const phi = curve.angles[end];
    const beyond = s <= 0 ? s : s - curve.length;
    radial = curve.planar[2 * end] + beyond * Math.cos(phi);
    height = curve.planar[2 * end + 1] + beyond * Math.sin(phi);
  } else {
    const x = (s / curve.length) * curve.steps;
    const i = Math.min(Math.floor(x), curve.steps - 1), f = x - i;
    radial = curve.planar[2 * i] * (1 - f) + curve.planar[2 * i + 2] * f;
    height = curve.planar[2 * i + 1] * (1 - f) + curve.planar[2 * i + 3] * f;
  }
  const [ox, oy, oz] = curve.origin;
  const [dx, , dz] = curve.direction;
  out[0] = ox + radial * dx;
  out[1] = oy + height;
  out[2] = oz + radial * dz;
  return out;
}
