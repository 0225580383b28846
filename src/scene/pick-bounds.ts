import { emptyBox, transformBoxInto } from '../skinning/joint-bounds.ts';
import type { SkinningMethod } from '../skinning/skinning-method.ts';
import { CLUSTER_IMPLICIT_NEGATIVE, CLUSTER_NEGATIVE, CLUSTER_UNWEIGHTED, type PickClusters } from './pick-clusters.ts';

/** How far past 1 an undivided weight sum may go before a cluster is left unbounded (always a candidate). */
const SUM_TOLERANCE = 1e-5;
/** Relative growth of every moved box: the float32 rounding of skinned positions, with a wide margin. */
const ROUNDING = 1e-5;
/** Below this |qᵢ·qⱼ| between two of a cluster's joint rotations the dual quaternion bound is not used. */
const MIN_ALIGNMENT = 1e-3;

/** What {@link movedClusterBox} reads besides the cluster: the pose and how it is skinned (one object, reset per primitive). */
export interface ClusterPose {
  /** `Float32Array(16·m)` of the record's skin, or the model-space matrices for a rigid record. */
  matrices: Float32Array;
  /** Where the record's node's matrix starts in {@link matrices} (rigid records only). */
  node: number;
  /** The DQS palette of the skin (`computeDualQuaternionPalette` layout, `Float64Array(16·m)`) when skinning by DQS. */
  palette: Float64Array | null;
  /** `Float64Array(3)`: the model origin O the matrices are relative to. */
  origin: Float64Array;
  /** How far morph targets move a vertex on any axis at this pose (≥ 0, model units). */
  morphPad: number;
  method: SkinningMethod;
  rigid: boolean;
  /** `Float64Array(2)` and `Float64Array(6)`: scratch. */
  readonly norms: Float64Array;
  readonly padded: Float64Array;
}

/**
 * Writes into `out` (`Float64Array(6)`, min then max, pose space: model space − O) a box that holds every
 * posed vertex of cluster `c` — hence, boxes being convex, every point of its triangles — or returns false when
 * no bound is known (negative weights, undivided weight sums past 1, joint rotations nearly opposite under DQS):
 * the caller then treats the cluster as a candidate for every ray. Allocates nothing.
 *
 * Why the box holds (docs/explanation/skinning-formulas.md S0, and `computeJointBounds`'s argument narrowed to one cluster):
 * - rigid: the node's matrix moves the bind box B (Arvo, "Transforming axis-aligned bounding boxes", 1990);
 * - LBS: a vertex lands at `Σ ŵᵢ·Kᵢ·p₀` with ŵ ≥ 0 summing to 1, a convex combination of points `Kᵢ·p₀ ∈
 *   Kᵢ·B`; undivided sums below 1 add the rest (`p₀ − O`, `rest-remainder`) or the file's origin (`−O`,
 *   `as-stored`) to the combination; unweighted vertices stay at `p₀ − O`;
 * - DQS (Kavan et al. 2008): with c the centre of B and ρ its half-diagonal, `p = R_b·S_b·p₀ + t_b` gives
 *   `|p − P| ≤ max‖Sᵢ‖·ρ + max‖Sᵢ − I‖·|c| + max|uᵢ − P| / μ`, where `uᵢ = Rᵢ·c + tᵢ`, P the centre of the uᵢ's
 *   box and μ the least |qᵢ·qⱼ| over the cluster's joints (slot 0, the sign reference, among them): by the
 *   blend's coordinate invariance `R_b·c + t_b − P` is the translation of the blend of the `T(−P)·(Rᵢ, tᵢ)·T(c)`,
 *   whose length is at most `2|d|/|r| ≤ max|uᵢ − P| / μ` since `|r| ≥ r·q_f ≥ μ·Σw`.
 * Morph targets grow B by `morphPad` on each side first; the result grows by a small relative margin for rounding.
 */
export function movedClusterBox(out: Float64Array, clusters: PickClusters, c: number, pose: ClusterPose): boolean {
  const b = clusters.boxes, o = 6 * c, pad = pose.morphPad;
  const x0 = b[o] - pad, y0 = b[o + 1] - pad, z0 = b[o + 2] - pad, x1 = b[o + 3] + pad, y1 = b[o + 4] + pad, z1 = b[o + 5] + pad;
  emptyBox(out);
  if (pose.rigid) {
    transformBoxInto(out, b, o, pad, pose.matrices, pose.node);
    return grow(out, 0);
  }
  const flags = clusters.flags[c], policy = pose.method.weights;
  if (flags & CLUSTER_NEGATIVE) return false;
  if (policy === 'implicit-last' && flags & CLUSTER_IMPLICIT_NEGATIVE) return false;
  const undivided = policy === 'as-stored' || policy === 'rest-remainder';
  const maxSum = clusters.maxSum[c];
  if (undivided && maxSum > 1 + SUM_TOLERANCE) return false;
  const implicit = policy === 'implicit-last';
  const list = implicit ? clusters.implicitJoints : clusters.joints;
  const start = implicit ? clusters.implicitStart[c] : clusters.jointStart[c];
  const end = implicit ? clusters.implicitStart[c + 1] : clusters.jointStart[c + 1];
  const short = undivided && clusters.minSum[c] < 1;
  const atRest = (flags & CLUSTER_UNWEIGHTED) !== 0 && !implicit;
  const O = pose.origin;
  if (pose.palette) {
    const restJoint = policy === 'rest-remainder' && (short || atRest);
    // The padded box through an array: doubles passed to a call that is not inlined are boxed on the heap.
    const padded = pose.padded;
    padded[0] = x0; padded[1] = y0; padded[2] = z0; padded[3] = x1; padded[4] = y1; padded[5] = z1;
    if (!dqsBox(out, pose.palette, list, start, end, padded, O, restJoint, policy === 'as-stored' && short, pose.norms)) return false;
  } else {
    for (let k = start; k < end; k++) transformBoxInto(out, b, o, pad, pose.matrices, list[k] << 4);
    if (short && policy === 'as-stored') addPoint(out, -O[0], -O[1], -O[2]);
  }
  if (atRest || (short && policy === 'rest-remainder')) {
    addPoint(out, x0 - O[0], y0 - O[1], z0 - O[2]);
    addPoint(out, x1 - O[0], y1 - O[1], z1 - O[2]);
  }
  // Undivided sums slightly past 1 move a vertex by (Σw − 1) times its distance from the rest or the file's origin.
  const over = undivided && maxSum > 1 ? (maxSum - 1) * (2 * maxAbs(out) + 2 * Math.max(Math.abs(x0), Math.abs(y0), Math.abs(z0), Math.abs(x1), Math.abs(y1), Math.abs(z1)) + Math.abs(O[0]) + Math.abs(O[1]) + Math.abs(O[2])) : 0;
  return grow(out, over);
}

/** The DQS bound of {@link movedClusterBox} (its derivation there); false when μ is too small. */
function dqsBox(
  out: Float64Array, D: Float64Array, list: Int32Array, start: number, end: number,
  b: Float64Array, O: Float64Array, restJoint: boolean, zeroScale: boolean, norms: Float64Array,
): boolean {
  const x0 = b[0], y0 = b[1], z0 = b[2], x1 = b[3], y1 = b[4], z1 = b[5];
  const cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1), cz = 0.5 * (z0 + z1);
  const rho = 0.5 * Math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2 + (z1 - z0) ** 2);
  let sMax = restJoint ? 1 : 0, dMax = zeroScale ? 1 : 0, mu = 1;
  // The box of the uᵢ = Rᵢ·c + tᵢ (and c − O for the rest-remainder's identity joint).
  let ux0 = Infinity, uy0 = Infinity, uz0 = Infinity, ux1 = -Infinity, uy1 = -Infinity, uz1 = -Infinity;
  for (let k = start; k <= end; k++) {
    let ux = 0, uy = 0, uz = 0, qx = 0, qy = 0, qz = 0, qw = 1;
    if (k < end) {
      const o = list[k] << 4;
      qx = D[o + 12]; qy = D[o + 13]; qz = D[o + 14]; qw = D[o + 15];
      // c + 2·q_v × (q_v × c + w·c), then + t.
      const ax = qy * cz - qz * cy + qw * cx, ay = qz * cx - qx * cz + qw * cy, az = qx * cy - qy * cx + qw * cz;
      ux = cx + 2 * (qy * az - qz * ay) + D[o + 3];
      uy = cy + 2 * (qz * ax - qx * az) + D[o + 7];
      uz = cz + 2 * (qx * ay - qy * ax) + D[o + 11];
      spectralBounds(D, o, norms);
      sMax = Math.max(sMax, norms[0]); dMax = Math.max(dMax, norms[1]);
    } else if (restJoint) {
      ux = cx - O[0]; uy = cy - O[1]; uz = cz - O[2];
    } else break;
    ux0 = Math.min(ux0, ux); uy0 = Math.min(uy0, uy); uz0 = Math.min(uz0, uz);
    ux1 = Math.max(ux1, ux); uy1 = Math.max(uy1, uy); uz1 = Math.max(uz1, uz);
    // μ: the least |qᵢ·qⱼ| over the pairs seen so far.
    for (let m = start; m < k; m++) {
      const p = list[m] << 4;
      mu = Math.min(mu, Math.abs(qx * D[p + 12] + qy * D[p + 13] + qz * D[p + 14] + qw * D[p + 15]));
    }
  }
  if (!(mu >= MIN_ALIGNMENT) || !(ux0 <= ux1)) return false;
  const px = 0.5 * (ux0 + ux1), py = 0.5 * (uy0 + uy1), pz = 0.5 * (uz0 + uz1);
  const reach = 0.5 * Math.sqrt((ux1 - ux0) ** 2 + (uy1 - uy0) ** 2 + (uz1 - uz0) ** 2);
  const r = sMax * rho + dMax * Math.sqrt(cx * cx + cy * cy + cz * cz) + reach / mu;
  addPoint(out, px - r, py - r, pz - r);
  addPoint(out, px + r, py + r, pz + r);
  return true;
}

/**
 * Upper bounds of the spectral norms of the palette's 3×3 S at `o` and of S − I, into `out[0]`, `out[1]` (an
 * array, not a returned double, which a call that is not inlined boxes on the heap): √(‖·‖₁·‖·‖∞), the largest
 * column sum times the largest row sum of absolute values (Golub & Van Loan, Matrix Computations, §2.3.3).
 */
function spectralBounds(D: Float64Array, o: number, out: Float64Array): void {
  for (let identity = 0; identity < 2; identity++) {
    let row = 0, col = 0;
    for (let i = 0; i < 3; i++) {
      let r = 0, c = 0;
      for (let j = 0; j < 3; j++) {
        r += Math.abs(D[o + 4 * i + j] - (i === j ? identity : 0));
        c += Math.abs(D[o + 4 * j + i] - (i === j ? identity : 0));
      }
      row = Math.max(row, r); col = Math.max(col, c);
    }
    out[identity] = Math.sqrt(row * col);
  }
}

function addPoint(out: Float64Array, x: number, y: number, z: number): void {
  if (x < out[0]) out[0] = x;
  if (y < out[1]) out[1] = y;
  if (z < out[2]) out[2] = z;
  if (x > out[3]) out[3] = x;
  if (y > out[4]) out[4] = y;
  if (z > out[5]) out[5] = z;
}

function maxAbs(out: Float64Array): number {
  let m = 0;
  for (let a = 0; a < 6; a++) m = Math.max(m, Math.abs(out[a]));
  return m;
}

/** Grows `out` by `extra` plus {@link ROUNDING} of its largest coordinate on every side; false when it is not finite. */
function grow(out: Float64Array, extra: number): boolean {
  const e = extra + ROUNDING * maxAbs(out) + Number.MIN_VALUE;
  for (let a = 0; a < 3; a++) { out[a] -= e; out[3 + a] += e; }
  return Number.isFinite(e) && out[0] <= out[3] && out[1] <= out[4] && out[2] <= out[5];
}
