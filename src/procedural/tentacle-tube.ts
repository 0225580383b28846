import type { SurfaceFunction } from './skinned-mesh-builder.ts';
import type { TentacleRig } from './octopus-rig.ts';
import { curveElevation, curvePoint } from './tentacle-curve.ts';
import { tentacleInfluences } from './tentacle-weights.ts';

/** Resolution of one tentacle tube: segments around, along the body and in each hemispherical end cap. */
export interface TubeResolution {
  readonly columns: number;
  readonly bodyRows: number;
  readonly capRows: number;
}

/** Arc length (metres, negative: inside the head) where a tentacle tube starts, before its base cap. */
export const TUBE_START = -0.05;

/**
 * Tube radius of a tentacle at arc length s, metres: `baseRadius` at the base (and inside the head,
 * s < 0), tapering to 12 % of it at the tip.
 */
export function tentacleRadius(tentacle: TentacleRig, s: number): number {
  const u = Math.min(Math.max(s / tentacle.curve.length, 0), 1);
  return tentacle.baseRadius * (0.12 + 0.88 * Math.pow(1 - u, 1.15));
}

/**
 * A closed tube swept along a tentacle's rest centre line from {@link TUBE_START} to its length, with a
 * hemispherical cap at each end (poles at row 0 and the last row), skinned by {@link tentacleInfluences}.
 * The cross-section at s is `centre(s) + r(s)·(cos 2πu·N − sin 2πu·b)` with N = b × T, which makes
 * ∂P/∂row × ∂P/∂u point outward. Cap vertices take the influences of the tube end they close.
 *
 * @returns the surface function and its row count (2·capRows + bodyRows)
 */
export function createTentacleTube(
  tentacle: TentacleRig,
  resolution: TubeResolution,
  headJoint: number,
): { surface: SurfaceFunction; rows: number } {
  const { bodyRows, capRows } = resolution;
  const { curve } = tentacle;
  const length = curve.length;
  const startRadius = tentacleRadius(tentacle, TUBE_START);
  const endRadius = tentacleRadius(tentacle, length);
  const [bx, by, bz] = curve.bendAxis;
  const [dx, , dz] = curve.direction;
  // Everything but the angle around depends on the row only: computed once per row.
  const centre = new Float64Array(3), normal = new Float64Array(3);
  const rowJoints = new Uint16Array(4), rowWeights = new Float64Array(4);
  let cachedRow = -1, radius = 0;
  const surface: SurfaceFunction = (u, row, out) => {
    if (row !== cachedRow) {
      cachedRow = row;
      let s: number, along: number;
      if (row < capRows) {
        const beta = (Math.PI / 2) * (row / capRows);
        s = TUBE_START;
        along = -startRadius * Math.cos(beta);
        radius = startRadius * Math.sin(beta);
      } else if (row <= capRows + bodyRows) {
        s = TUBE_START + (length - TUBE_START) * ((row - capRows) / bodyRows);
        along = 0;
        radius = tentacleRadius(tentacle, s);
      } else {
        const beta = (Math.PI / 2) * (1 - (row - capRows - bodyRows) / capRows);
        s = length;
        along = endRadius * Math.cos(beta);
        radius = endRadius * Math.sin(beta);
      }
      curvePoint(centre, curve, s + along);
      const phi = curveElevation(curve, s + along);
      // Tangent T = cos φ·d + sin φ·Y; N = b × T.
      const tx = Math.cos(phi) * dx, ty = Math.sin(phi), tz = Math.cos(phi) * dz;
      normal[0] = by * tz - bz * ty;
      normal[1] = bz * tx - bx * tz;
      normal[2] = bx * ty - by * tx;
      rowJoints.fill(0);
      rowWeights.fill(0);
      tentacleInfluences(rowJoints, rowWeights, tentacle, s, headJoint);
    }
    const ca = Math.cos(2 * Math.PI * u), sa = Math.sin(2 * Math.PI * u);
    out.position[0] = centre[0] + radius * (ca * normal[0] - sa * bx);
    out.position[1] = centre[1] + radius * (ca * normal[1] - sa * by);
    out.position[2] = centre[2] + radius * (ca * normal[2] - sa * bz);
    out.joints.set(rowJoints);
    out.weights.set(rowWeights);
  };
  return { surface, rows: 2 * capRows + bodyRows };
}
