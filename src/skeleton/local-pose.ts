/**
 * A local (parent-relative) pose in structure-of-arrays layout, one entry per skeleton joint.
 * Rotations are unit quaternions stored x, y, z, w. Units are the file's (glTF: metres).
 */
export interface LocalPose {
  /** `Float32Array(3n)`: translation of joint i at `3i`. */
  readonly translations: Float32Array;
  /** `Float32Array(4n)`: rotation quaternion (x, y, z, w) of joint i at `4i`. */
  readonly rotations: Float32Array;
  /** `Float32Array(3n)`: scale of joint i at `3i`. */
  readonly scales: Float32Array;
  /**
   * `Float32Array(w)`: the morph target weights of every mesh instance with morph targets, instance i's at
   * `ModelAsset.meshInstances[i].morphWeightOffset` (glTF 2.0 §3.7.2.2; animated by `weights` channels,
   * blended linearly). In the rest pose: the node's `weights`, else the mesh's. Absent: w = 0.
   */
  readonly morphWeights?: Float32Array;
}

/**
 * Allocates an identity pose for `jointCount` joints (zero translation, identity rotation, unit scale) and
 * `morphWeightCount` morph weights (0).
 */
export function createLocalPose(jointCount: number, morphWeightCount = 0): LocalPose {
  const rotations = new Float32Array(4 * jointCount);
  const scales = new Float32Array(3 * jointCount).fill(1);
  for (let i = 0; i < jointCount; i++) rotations[4 * i + 3] = 1;
  return { translations: new Float32Array(3 * jointCount), rotations, scales, morphWeights: new Float32Array(morphWeightCount) };
}

/** Morph weights of a pose: `pose.morphWeights`, or 0 when it has none. */
export function morphWeightCountOf(pose: LocalPose): number {
  return pose.morphWeights ? pose.morphWeights.length : 0;
}

/**
 * Copies `source` into `out` (same joint count; the morph weights both have, from the start); returns `out`.
 * Allocates nothing.
 */
export function copyLocalPose(out: LocalPose, source: LocalPose): LocalPose {
  out.translations.set(source.translations);
  out.rotations.set(source.rotations);
  out.scales.set(source.scales);
  const ow = out.morphWeights, sw = source.morphWeights;
  if (ow && sw && ow.length > 0) {
    if (ow.length === sw.length) ow.set(sw);
    else for (let i = 0; i < ow.length && i < sw.length; i++) ow[i] = sw[i];
  }
  return out;
}

/**
 * Copies joint `joint`'s translation, rotation and scale from `source` into `out` (the same joint count):
 * what a blend writes for a joint whose blend factor is 0. Allocates nothing.
 */
export function copyJoint(out: LocalPose, source: LocalPose, joint: number): void {
  const i3 = (3 * joint) | 0, i4 = joint << 2;
  const ot = out.translations, or = out.rotations, os = out.scales;
  const st = source.translations, sr = source.rotations, ss = source.scales;
  ot[i3] = st[i3]; ot[(i3 + 1) | 0] = st[(i3 + 1) | 0]; ot[(i3 + 2) | 0] = st[(i3 + 2) | 0];
  os[i3] = ss[i3]; os[(i3 + 1) | 0] = ss[(i3 + 1) | 0]; os[(i3 + 2) | 0] = ss[(i3 + 2) | 0];
  or[i4] = sr[i4]; or[(i4 + 1) | 0] = sr[(i4 + 1) | 0]; or[(i4 + 2) | 0] = sr[(i4 + 2) | 0]; or[(i4 + 3) | 0] = sr[(i4 + 3) | 0];
}

/** A new pose with the same values as `source`. */
export function cloneLocalPose(source: LocalPose): LocalPose {
  return {
    translations: source.translations.slice(),
    rotations: source.rotations.slice(),
    scales: source.scales.slice(),
    morphWeights: source.morphWeights ? source.morphWeights.slice() : new Float32Array(0),
  };
}
