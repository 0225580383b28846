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
}

/** Allocates an identity pose for `jointCount` joints (zero translation, identity rotation, unit scale). */
export function createLocalPose(jointCount: number): LocalPose {
  const rotations = new Float32Array(4 * jointCount);
  const scales = new Float32Array(3 * jointCount).fill(1);
  for (let i = 0; i < jointCount; i++) rotations[4 * i + 3] = 1;
  return { translations: new Float32Array(3 * jointCount), rotations, scales };
}

/** Copies `source` into `out` (same joint count); returns `out`. Allocates nothing. */
export function copyLocalPose(out: LocalPose, source: LocalPose): LocalPose {
  out.translations.set(source.translations);
  out.rotations.set(source.rotations);
  out.scales.set(source.scales);
  return out;
}

/** A new pose with the same values as `source`. */
export function cloneLocalPose(source: LocalPose): LocalPose {
  return {
    translations: source.translations.slice(),
    rotations: source.rotations.slice(),
    scales: source.scales.slice(),
  };
}
