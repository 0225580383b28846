import { extractKeyLight, projectCubeRadiance, SH_COEFFICIENTS } from '../../math/spherical-harmonics.ts';

/**
 * An environment's light split in two for MToon, which needs a light direction (Sinew lights only by its
 * environment): a directional **key light** and an **ambient** remainder in spherical harmonics. Made once per
 * environment by `ImageBasedLighting` (when it is prefiltered, and again after a context restore), from a
 * small mip level of the environment cube read back (src/math/spherical-harmonics.ts, docs/explanation/mtoon.md).
 * MToon then shades with three-vrm's formulas for one three.js `DirectionalLight(direction, color)` plus one
 * `LightProbe(ambient)`; the three-vrm comparison lights three.js with exactly these values.
 * Directions and coefficients are in display (world) space, like the environment cube.
 */
export interface EnvironmentLight {
  /** `Float32Array(3)`: unit, towards the light (+Y when the environment has no dominant direction). */
  readonly direction: Float32Array;
  /** `Float32Array(3)`: linear irradiance at normal incidence (three's `DirectionalLight` colour × intensity), ≥ 0. */
  readonly color: Float32Array;
  /**
   * `Float32Array(27)`: the 9 RGB radiance SH coefficients of what the key light leaves, in three.js
   * `SphericalHarmonics3` order and normalisation (a `LightProbe` takes them as they are); irradiance is
   * evaluated as Ramamoorthi & Hanrahan 2001 (three's `shGetIrradianceAt`).
   */
  readonly ambient: Float32Array;
}

/** A light with no key light and no ambient (black), +Y direction: what an environment holds until it is read back. */
export function createEnvironmentLight(): EnvironmentLight {
  const direction = new Float32Array(3);
  direction[1] = 1;
  return { direction, color: new Float32Array(3), ambient: new Float32Array(3 * SH_COEFFICIENTS) };
}

/**
 * Writes into `out` the key light and ambient of a cube map's radiance: projected onto SH bands 0–2
 * (`projectCubeRadiance`), then split (`extractKeyLight`: Sloan 2008's dominant direction; the ambient clamped so
 * its irradiance stays non-negative).
 * @param faces six RGBA faces, `size`² texels each, rows as `readPixels` returns them (see `projectCubeRadiance`)
 * @throws Error when `faces` is too short for `size`
 * @returns `out`
 */
export function environmentLightFromCube(out: EnvironmentLight, faces: ArrayLike<number>, size: number): EnvironmentLight {
  const sh = projectCubeRadiance(new Float32Array(3 * SH_COEFFICIENTS), faces, size);
  extractKeyLight(sh, out.direction, out.color, out.ambient);
  return out;
}
