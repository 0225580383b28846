import type { Skeleton } from '../skeleton/skeleton.ts';
import type { LocalPose } from '../skeleton/local-pose.ts';
import { createLocalPose } from '../skeleton/local-pose.ts';
import { createSeededRandom } from './seeded-random.ts';
import type { TentacleCurve } from './tentacle-curve.ts';
import { createTentacleCurve, curveElevation, curvePoint } from './tentacle-curve.ts';

/** Number of tentacles (arms) of the octopus. */
export const TENTACLE_COUNT = 8;
/** Joints in each tentacle chain, from base to tip. */
export const TENTACLE_JOINTS = 6;
/** Rest position of the head joint (joint 0, the root), metres: the centre of the head's lower bulb. */
export const HEAD_CENTRE: readonly [number, number, number] = [0, 0.3, 0];

/** One tentacle's rest layout and its joint chain. */
export interface TentacleRig {
  readonly curve: TentacleCurve;
  /** `Int32Array(TENTACLE_JOINTS)`: skeleton index of chain joint j (base first). */
  readonly joints: Int32Array;
  /** `Float64Array(TENTACLE_JOINTS)`: arc length of chain joint j along the curve, metres (joint 0 at 0). */
  readonly jointArcLengths: Float64Array;
  /** Tube radius at the base (s = 0), metres. */
  readonly baseRadius: number;
}

/** The octopus skeleton with its rest pose and the rest geometry the mesh and clips are built from. */
export interface OctopusRig {
  /** 1 + TENTACLE_COUNT·TENTACLE_JOINTS joints: `head` (root), then `tentacle{k}_{j}`, each chain in order. */
  readonly skeleton: Skeleton;
  /** Head: translation HEAD_CENTRE, identity rotation; tentacle joints: rotations about their bend axis. */
  readonly restPose: LocalPose;
  readonly tentacles: readonly TentacleRig[];
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(Math.max((x - edge0) / (edge1 - edge0), 0), 1);
  return t * t * (3 - 2 * t);
}

/**
 * Builds the octopus skeleton and relaxed rest pose. Tentacles leave the underside of the head on a ring,
 * splay outward and down, hang, and curl outward and up at the tips; length, curl and heading vary a
 * little per tentacle from a fixed seed, so the result is deterministic.
 *
 * Each chain joint's rest world rotation is a rotation by α = φ(s_j) + π/2 about its tentacle's bend axis
 * b (see {@link TentacleCurve}), so its local −Y axis follows the centre line and every local rotation in
 * the chain is about the same axis b (b is fixed by rotations about itself, so it has the same
 * coordinates in every frame of the chain).
 */
export function createOctopusRig(): OctopusRig {
  const random = createSeededRandom(0x0c70);
  const jointCount = 1 + TENTACLE_COUNT * TENTACLE_JOINTS;
  const names: string[] = ['head'];
  const parents = new Int32Array(jointCount);
  parents[0] = -1;
  const restPose = createLocalPose(jointCount);
  restPose.translations.set(HEAD_CENTRE, 0);

  const tentacles: TentacleRig[] = [];
  const point = new Float64Array(3), previous = new Float64Array(3);
  for (let k = 0; k < TENTACLE_COUNT; k++) {
    const heading = (2 * Math.PI * (k + 0.5)) / TENTACLE_COUNT + (random() - 0.5) * 0.12;
    const length = 1.0 + (random() - 0.5) * 0.16;
    const spread = -0.3 + (random() - 0.5) * 0.2;
    const hang = -1.25 + (random() - 0.5) * 0.2;
    const curl = 2.4 + (random() - 0.5) * 0.8;
    const ringRadius = 0.13;
    const origin: [number, number, number] = [
      HEAD_CENTRE[0] + ringRadius * Math.cos(heading),
      HEAD_CENTRE[1] - 0.2,
      HEAD_CENTRE[2] + ringRadius * Math.sin(heading),
    ];
    const curve = createTentacleCurve(origin, heading, length, (u) => {
      const tip = smoothstep(0.5, 1, u);
      return spread + (hang - spread) * smoothstep(0, 0.42, u) + curl * tip * tip;
    });

    const joints = new Int32Array(TENTACLE_JOINTS);
    const jointArcLengths = new Float64Array(TENTACLE_JOINTS);
    const [bx, by, bz] = curve.bendAxis;
    let previousAlpha = 0;
    for (let j = 0; j < TENTACLE_JOINTS; j++) {
      const joint = 1 + k * TENTACLE_JOINTS + j;
      joints[j] = joint;
      names.push(`tentacle${k}_${j}`);
      parents[joint] = j === 0 ? 0 : joint - 1;
      // Joints crowd toward the tip, where the tentacle is thin and curls most.
      const s = length * (1 - Math.pow(1 - j / TENTACLE_JOINTS, 1.4));
      jointArcLengths[j] = s;
      const alpha = curveElevation(curve, s) + Math.PI / 2;
      curvePoint(point, curve, s);
      let tx: number, ty: number, tz: number;
      if (j === 0) {
        // Parent is the head, with identity rest rotation.
        tx = point[0] - HEAD_CENTRE[0]; ty = point[1] - HEAD_CENTRE[1]; tz = point[2] - HEAD_CENTRE[2];
      } else {
        // Express the world offset in the parent's frame: rotate it by −previousAlpha about b (Rodrigues).
        const ox = point[0] - previous[0], oy = point[1] - previous[1], oz = point[2] - previous[2];
        const c = Math.cos(-previousAlpha), sn = Math.sin(-previousAlpha);
        const cx = by * oz - bz * oy, cy = bz * ox - bx * oz, cz = bx * oy - by * ox;
        const dot = bx * ox + by * oy + bz * oz;
        tx = ox * c + cx * sn + bx * dot * (1 - c);
        ty = oy * c + cy * sn + by * dot * (1 - c);
        tz = oz * c + cz * sn + bz * dot * (1 - c);
      }
      restPose.translations.set([tx, ty, tz], 3 * joint);
      const half = (alpha - (j === 0 ? 0 : previousAlpha)) / 2;
      const sh = Math.sin(half);
      restPose.rotations.set([bx * sh, by * sh, bz * sh, Math.cos(half)], 4 * joint);
      previous.set(point);
      previousAlpha = alpha;
    }
    tentacles.push({ curve, joints, jointArcLengths, baseRadius: 0.075 });
  }

  const sourceIndices = new Int32Array(jointCount);
  for (let i = 0; i < jointCount; i++) sourceIndices[i] = i;
  return { skeleton: { jointCount, names, parents, sourceIndices }, restPose, tentacles };
}
