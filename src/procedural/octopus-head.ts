import type { SurfaceFunction } from './skinned-mesh-builder.ts';
import { HEAD_CENTRE } from './octopus-rig.ts';

/** Polar angle (radians from straight up) of the eyes' directions from the head centre. */
const EYE_POLAR = 1.8;
/** Half the angle between the eyes around the vertical axis, radians (front is +Z). */
const EYE_HALF_SPREAD = 0.5;
/** Eyeball radius, metres. */
export const EYE_RADIUS = 0.065;

/**
 * Unit direction for polar angle θ (from +Y) and azimuth φ: (sin θ cos φ, cos θ, −sin θ sin φ). With
 * θ = π·row/rows and φ = 2πu this orientation makes ∂P/∂row × ∂P/∂u point outward.
 */
function sphereDirection(out: Float64Array, theta: number, phi: number): Float64Array {
  out[0] = Math.sin(theta) * Math.cos(phi);
  out[1] = Math.cos(theta);
  out[2] = -Math.sin(theta) * Math.sin(phi);
  return out;
}

/** Unit directions from the head centre to the two eyes (right, left), in the front (+Z) half. */
export const EYE_DIRECTIONS: readonly Float64Array[] = [-1, 1].map((side) =>
  sphereDirection(new Float64Array(3), EYE_POLAR, -Math.PI / 2 + side * EYE_HALF_SPREAD),
);

/**
 * Mantle (head) surface point in model space, metres, for a unit direction from the head centre: an egg
 * whose upper half (the mantle sack, 0.46 m high, leaning back toward −Z) is taller than the lower half
 * (0.27 m), 0.31 m in horizontal radius, with a bulge under each eye.
 */
function mantlePoint(out: Float64Array, direction: Float64Array): Float64Array {
  const [x, y, z] = direction;
  const horizontal = 0.31;
  const vertical = y > 0 ? 0.46 : 0.27;
  let px = horizontal * x, py = vertical * y, pz = horizontal * z;
  let bulge = 1;
  for (const eye of EYE_DIRECTIONS) {
    const cosAngle = x * eye[0] + y * eye[1] + z * eye[2];
    const angle = Math.acos(Math.min(Math.max(cosAngle, -1), 1));
    bulge += 0.14 * Math.exp(-(angle * angle) / (2 * 0.2 * 0.2));
  }
  px *= bulge; py *= bulge; pz *= bulge;
  if (y > 0) pz -= 0.1 * y * y;
  out[0] = HEAD_CENTRE[0] + px;
  out[1] = HEAD_CENTRE[1] + py;
  out[2] = HEAD_CENTRE[2] + pz;
  return out;
}

/**
 * The mantle as a surface over `rows` polar bands (pole at the top, row 0), every vertex on the head joint.
 * @param headJoint skin index of the head joint
 */
export function createMantleSurface(rows: number, headJoint: number): SurfaceFunction {
  const direction = new Float64Array(3);
  return (u, row, out) => {
    sphereDirection(direction, (Math.PI * row) / rows, 2 * Math.PI * u);
    mantlePoint(out.position, direction);
    out.joints[0] = headJoint;
    out.weights[0] = 1;
  };
}

/** Centre of eye `index` (0 right, 1 left), metres: sunk a quarter of its radius into the mantle bulge. */
export function eyeCentre(out: Float64Array, index: number): Float64Array {
  const direction = EYE_DIRECTIONS[index];
  mantlePoint(out, direction);
  for (let c = 0; c < 3; c++) out[c] -= 0.25 * EYE_RADIUS * direction[c];
  return out;
}

/**
 * An ellipsoid on the head joint: `centre + a·x·H + b·y·U + c·z·F` for unit-sphere points (x, y, z), where
 * F is `forward`, H = normalise(Y × F) and U = F × H (a right-handed frame, so outward stays outward).
 * @param radii (a, b, c) semi-axes along H, U, F, metres
 */
export function createEllipsoidSurface(
  rows: number,
  centre: Float64Array,
  forward: Float64Array,
  radii: readonly [number, number, number],
  headJoint: number,
): SurfaceFunction {
  const [fx, fy, fz] = forward;
  const hl = Math.hypot(fz, fx);
  const hx = fz / hl, hy = 0, hz = -fx / hl;
  const ux = fy * hz - fz * hy, uy = fz * hx - fx * hz, uz = fx * hy - fy * hx;
  const d = new Float64Array(3);
  return (u, row, out) => {
    sphereDirection(d, (Math.PI * row) / rows, 2 * Math.PI * u);
    const a = radii[0] * d[0], b = radii[1] * d[1], c = radii[2] * d[2];
    out.position[0] = centre[0] + a * hx + b * ux + c * fx;
    out.position[1] = centre[1] + a * hy + b * uy + c * fy;
    out.position[2] = centre[2] + a * hz + b * uz + c * fz;
    out.joints[0] = headJoint;
    out.weights[0] = 1;
  };
}
