import type { Md5Mesh } from '../../../src/loaders/md5/parse-md5-mesh.ts';
import type { Md5Anim } from '../../../src/loaders/md5/parse-md5-anim.ts';

/**
 * An independent reference for MD5 vertices (docs/explanation/skinning-formulas.md S3 algorithm 1), written for tests without the loader's
 * helpers: quaternion joints accumulated down the hierarchy, vertices from weight offsets.
 */

type Quat = [number, number, number, number];
type Vec = [number, number, number];

function mul(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
    a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** q · (v, 0) · q⁻¹ by two Hamilton products (q unit). */
function rotate(q: Quat, v: Vec): Vec {
  const r = mul(mul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

function unit(x: number, y: number, z: number): Quat {
  const w = -Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z)); // the MD5 definition of w
  const len = Math.hypot(x, y, z, w);
  return [x / len, y / len, z / len, w / len];
}

export interface ModelJoint { p: Vec; q: Quat }

/** Model-space joints of one anim frame: decode the flagged components, then accumulate down the hierarchy. */
export function animModelJoints(anim: Md5Anim, frame: number): ModelJoint[] {
  const out: (ModelJoint | undefined)[] = [];
  const base = frame * anim.numAnimatedComponents;
  const local = anim.hierarchy.map((h, j) => {
    const comps = [
      anim.basePositions[3 * j], anim.basePositions[3 * j + 1], anim.basePositions[3 * j + 2],
      anim.baseOrientations[4 * j], anim.baseOrientations[4 * j + 1], anim.baseOrientations[4 * j + 2],
    ];
    let k = h.startIndex;
    for (let bit = 0; bit < 6; bit++) if (h.flags & (1 << bit)) comps[bit] = anim.frameComponents[base + k++];
    return { p: [comps[0], comps[1], comps[2]] as Vec, q: unit(comps[3], comps[4], comps[5]) };
  });
  const resolve = (j: number): ModelJoint => {
    const done = out[j];
    if (done) return done;
    const parent = anim.hierarchy[j].parent;
    let joint: ModelJoint;
    if (parent < 0) {
      joint = local[j];
    } else {
      const P = resolve(parent);
      const r = rotate(P.q, local[j].p);
      joint = { p: [P.p[0] + r[0], P.p[1] + r[1], P.p[2] + r[2]], q: mul(P.q, local[j].q) };
    }
    out[j] = joint;
    return joint;
  };
  return anim.hierarchy.map((_, j) => resolve(j));
}

/** Bind-pose model-space joints straight from the md5mesh. */
export function meshModelJoints(mesh: Md5Mesh): ModelJoint[] {
  return mesh.joints.map((j) => ({ p: [...j.position] as Vec, q: unit(j.orientation[0], j.orientation[1], j.orientation[2]) }));
}

/** Algorithm 1: v = Σ_k bias_k · (P_{j_k} + Q_{j_k}·offset_k), all meshes' vertices concatenated. */
export function algorithm1(mesh: Md5Mesh, joints: ModelJoint[]): Float64Array[] {
  return mesh.meshes.map((part) => {
    const out = new Float64Array(3 * part.vertexCount);
    for (let v = 0; v < part.vertexCount; v++) {
      for (let w = part.weightStarts[v]; w < part.weightStarts[v] + part.weightCounts[v]; w++) {
        const J = joints[part.weightJoints[w]];
        const r = rotate(J.q, [part.weightOffsets[3 * w], part.weightOffsets[3 * w + 1], part.weightOffsets[3 * w + 2]]);
        for (let c = 0; c < 3; c++) out[3 * v + c] += part.weightBiases[w] * (J.p[c] + r[c]);
      }
    }
    return out;
  });
}
