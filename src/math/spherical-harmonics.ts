/**
 * Real spherical harmonics of bands 0–2 (9 coefficients) in three.js `SphericalHarmonics3`'s order and
 * normalisation, so a three.js `LightProbe` takes Sinew's coefficients as they are:
 * Y₀ = 0.282095; Y₁ = 0.488603·y, Y₂ = 0.488603·z, Y₃ = 0.488603·x; Y₄ = 1.092548·xy, Y₅ = 1.092548·yz,
 * Y₆ = 0.315392·(3z² − 1), Y₇ = 1.092548·xz, Y₈ = 0.546274·(x² − y²) (Sloan 2008, "Stupid Spherical Harmonics
 * (SH) Tricks", Appendix A2, with three's band-1 order y, z, x).
 *
 * RGB coefficient arrays are `Float32Array(27)` (or any 27 numbers): coefficient i's red, green, blue at `3i…3i+2`.
 * Radiance coefficients are the projection `cᵢ = ∫ L(ω) Yᵢ(ω) dω`; irradiance at a unit normal n is
 * `E(n) = Σ Aₗ cᵢ Yᵢ(n)` with A₀ = π, A₁ = 2π/3, A₂ = π/4 (Ramamoorthi & Hanrahan 2001, "An Efficient
 * Representation for Irradiance Environment Maps", eq. 7–8; three's `shGetIrradianceAt`).
 */

/** Coefficients per colour channel: bands 0–2. */
export const SH_COEFFICIENTS = 9;

/** Aₗ of each coefficient: the clamped cosine's convolution factor of its band (Ramamoorthi & Hanrahan 2001, eq. 8). */
const BAND_FACTOR = [Math.PI, (2 * Math.PI) / 3, (2 * Math.PI) / 3, (2 * Math.PI) / 3, Math.PI / 4, Math.PI / 4, Math.PI / 4, Math.PI / 4, Math.PI / 4];

/** Rec. 709 luminance weights: how the key light's direction weighs the three channels (Sloan 2008 uses luminance too). */
const LUMA = [0.2126, 0.7152, 0.0722];

/**
 * Writes the 9 basis values Yᵢ(x, y, z) at `out[o…o+9)` for a unit direction (three's `getBasisAt`).
 * @returns `out`
 */
export function shBasis<T extends { [i: number]: number }>(out: T, o: number, x: number, y: number, z: number): T {
  out[o] = 0.282095;
  out[o + 1] = 0.488603 * y;
  out[o + 2] = 0.488603 * z;
  out[o + 3] = 0.488603 * x;
  out[o + 4] = 1.092548 * x * y;
  out[o + 5] = 1.092548 * y * z;
  out[o + 6] = 0.315392 * (3 * z * z - 1);
  out[o + 7] = 1.092548 * x * z;
  out[o + 8] = 0.546274 * (x * x - y * y);
  return out;
}

/**
 * The radiance `Σ cᵢ Yᵢ(n)` of RGB coefficients `sh` (27) in unit direction n, written to `out[0…3)`.
 * @returns `out`
 */
export function evaluateShRadiance(out: Float32Array | number[], sh: ArrayLike<number>, x: number, y: number, z: number): Float32Array | number[] {
  return evaluate(out, sh, x, y, z, false);
}

/**
 * The irradiance `E(n) = Σ Aₗ cᵢ Yᵢ(n)` of radiance coefficients `sh` (27) at unit normal n, written to `out[0…3)`
 * (Ramamoorthi & Hanrahan 2001; three's `shGetIrradianceAt`: a constant radiance L gives πL).
 * @returns `out`
 */
export function evaluateShIrradiance(out: Float32Array | number[], sh: ArrayLike<number>, x: number, y: number, z: number): Float32Array | number[] {
  return evaluate(out, sh, x, y, z, true);
}

function evaluate(out: Float32Array | number[], sh: ArrayLike<number>, x: number, y: number, z: number, irradiance: boolean): Float32Array | number[] {
  const basis = shBasis([0, 0, 0, 0, 0, 0, 0, 0, 0], 0, x, y, z);
  let r = 0, g = 0, b = 0;
  for (let i = 0; i < SH_COEFFICIENTS; i++) {
    const w = irradiance ? BAND_FACTOR[i] * basis[i] : basis[i];
    r += sh[3 * i] * w;
    g += sh[3 * i + 1] * w;
    b += sh[3 * i + 2] * w;
  }
  out[0] = r; out[1] = g; out[2] = b;
  return out;
}

/**
 * Unit direction through the centre of texel (column, row) of cube face `face` (0…5: +X, −X, +Y, −Y, +Z, −Z),
 * `size` texels wide, row 0 first as `readPixels` returns it: OpenGL ES 3.0 §3.8.10 (Table 3.21) inverted, as
 * shaders/environment/common.glsl `faceDirection` computes it. Writes `out[0…3)`.
 * @returns `out`
 */
export function cubeTexelDirection(out: Float32Array | number[], face: number, column: number, row: number, size: number): Float32Array | number[] {
  const sc = (2 * (column + 0.5)) / size - 1, tc = (2 * (row + 0.5)) / size - 1;
  let x: number, y: number, z: number;
  switch (face) {
    case 0: x = 1; y = -tc; z = -sc; break;
    case 1: x = -1; y = -tc; z = sc; break;
    case 2: x = sc; y = 1; z = tc; break;
    case 3: x = sc; y = -1; z = -tc; break;
    case 4: x = sc; y = -tc; z = 1; break;
    default: x = -sc; y = -tc; z = -1;
  }
  const inv = 1 / Math.hypot(x, y, z);
  out[0] = x * inv; out[1] = y * inv; out[2] = z * inv;
  return out;
}

/**
 * Projects a cube map's radiance onto bands 0–2, as three's `LightProbeGenerator.fromCubeTexture` does (each
 * texel weighted by its solid angle ∝ 4 / (1 + s² + t²)^{3/2}, the sum normalised to 4π) but with the
 * OpenGL cube map face layout of {@link cubeTexelDirection}.
 * @param out `Float32Array(27)`: the RGB radiance coefficients
 * @param faces six faces, face f's texel (column c, row r) RGBA at `((f·size + r)·size + c)·4`, linear radiance
 *   (any unit; the coefficients are in the same)
 * @param size face width in texels
 * @throws Error when `faces` holds fewer than 6·size²·4 values
 * @returns `out`
 */
export function projectCubeRadiance(out: Float32Array, faces: ArrayLike<number>, size: number): Float32Array {
  if (faces.length < 6 * size * size * 4) throw new Error(`projectCubeRadiance: ${faces.length} values for six ${size}×${size} RGBA faces (${6 * size * size * 4} needed)`);
  out.fill(0);
  const direction = [0, 0, 0], basis = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  let total = 0;
  for (let f = 0; f < 6; f++) {
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const s = (2 * (c + 0.5)) / size - 1, t = (2 * (r + 0.5)) / size - 1;
        const lengthSq = 1 + s * s + t * t;
        const weight = 4 / (Math.sqrt(lengthSq) * lengthSq);
        total += weight;
        cubeTexelDirection(direction, f, c, r, size);
        shBasis(basis, 0, direction[0], direction[1], direction[2]);
        const p = ((f * size + r) * size + c) * 4;
        const red = faces[p] * weight, green = faces[p + 1] * weight, blue = faces[p + 2] * weight;
        for (let i = 0; i < SH_COEFFICIENTS; i++) {
          out[3 * i] += basis[i] * red;
          out[3 * i + 1] += basis[i] * green;
          out[3 * i + 2] += basis[i] * blue;
        }
      }
    }
  }
  const norm = (4 * Math.PI) / total;
  for (let i = 0; i < 27; i++) out[i] *= norm;
  return out;
}

/** Directions the key light's clamp tests the ambient remainder's irradiance in: a Fibonacci sphere of this many points. */
export const KEY_LIGHT_TEST_DIRECTIONS = 256;

/**
 * Splits radiance coefficients into a directional key light and an ambient remainder (Sloan 2008, "Stupid
 * Spherical Harmonics (SH) Tricks", "Extracting Conventional Lights from SH"):
 * - direction: the luminance-weighted linear band (c₃, c₁, c₂) normalised: the direction the light comes from;
 *   with no linear band (a constant environment) there is no key light (colour 0, direction +Y);
 * - colour: per channel, the least-squares intensity C of a directional light C·δ(ω − d) whose irradiance best
 *   matches the environment's over bands 1 and 2 (band 0, which is the same in every direction, stays ambient,
 *   so a constant environment gives no key light): C = Σᵢ Aₗ² cᵢ Yᵢ(d) / Σᵢ Aₗ² Yᵢ(d)², i = 1…8, clamped at 0;
 *   a single directional light is recovered exactly. C is irradiance at normal incidence (three's
 *   `DirectionalLight` colour);
 * - ambient: cᵢ − s·C·Yᵢ(d), with s ≤ 1 the largest scale that keeps the remainder's irradiance ≥ 0 in each of
 *   {@link KEY_LIGHT_TEST_DIRECTIONS} directions where the environment's own irradiance is ≥ 0 (the key light
 *   is scaled by s too, so key + ambient stays the environment where s = 1).
 * Sloan fits over every band; Sinew fits bands 1–2 so the constant part remains ambient light (Lambertian,
 * as GI in MToon), which the shading ramp would otherwise take over.
 * @param sh radiance coefficients (27)
 * @param direction out `Float32Array(3)`: unit, towards the light
 * @param color out `Float32Array(3)`: linear irradiance at normal incidence, ≥ 0
 * @param ambient out `Float32Array(27)`: the remainder's radiance coefficients
 */
export function extractKeyLight(sh: ArrayLike<number>, direction: Float32Array, color: Float32Array, ambient: Float32Array): void {
  for (let i = 0; i < 27; i++) ambient[i] = sh[i];
  const lx = LUMA[0] * sh[9] + LUMA[1] * sh[10] + LUMA[2] * sh[11];
  const ly = LUMA[0] * sh[3] + LUMA[1] * sh[4] + LUMA[2] * sh[5];
  const lz = LUMA[0] * sh[6] + LUMA[1] * sh[7] + LUMA[2] * sh[8];
  const length = Math.hypot(lx, ly, lz);
  const dc = Math.abs(LUMA[0] * sh[0] + LUMA[1] * sh[1] + LUMA[2] * sh[2]);
  color.fill(0);
  if (!(length > 1e-6 * Math.max(dc, 1e-30))) {
    direction[0] = 0; direction[1] = 1; direction[2] = 0;
    return;
  }
  const dx = lx / length, dy = ly / length, dz = lz / length;
  direction[0] = dx; direction[1] = dy; direction[2] = dz;
  const y = shBasis(new Float64Array(SH_COEFFICIENTS), 0, dx, dy, dz);
  let denominator = 0;
  for (let i = 1; i < SH_COEFFICIENTS; i++) denominator += BAND_FACTOR[i] * BAND_FACTOR[i] * y[i] * y[i];
  const c = [0, 0, 0];
  for (let ch = 0; ch < 3; ch++) {
    let numerator = 0;
    for (let i = 1; i < SH_COEFFICIENTS; i++) numerator += BAND_FACTOR[i] * BAND_FACTOR[i] * sh[3 * i + ch] * y[i];
    c[ch] = Math.max(0, numerator / denominator);
  }
  // The largest s in [0, 1] keeping E(n) − s·K(n) ≥ 0 where E(n) ≥ 0 (K: the key light's band-limited irradiance).
  let s = 1;
  const environment = [0, 0, 0], key = [0, 0, 0];
  const keySh = new Float64Array(27);
  for (let i = 0; i < SH_COEFFICIENTS; i++) for (let ch = 0; ch < 3; ch++) keySh[3 * i + ch] = c[ch] * y[i];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let k = 0; k < KEY_LIGHT_TEST_DIRECTIONS; k++) {
    const ny = 1 - (2 * (k + 0.5)) / KEY_LIGHT_TEST_DIRECTIONS, radius = Math.sqrt(1 - ny * ny);
    const nx = Math.cos(golden * k) * radius, nz = Math.sin(golden * k) * radius;
    evaluateShIrradiance(environment, sh, nx, ny, nz);
    evaluateShIrradiance(key, keySh, nx, ny, nz);
    for (let ch = 0; ch < 3; ch++) {
      if (environment[ch] >= 0 && key[ch] > 0 && s * key[ch] > environment[ch]) s = environment[ch] / key[ch];
    }
  }
  for (let ch = 0; ch < 3; ch++) color[ch] = s * c[ch];
  for (let i = 0; i < 27; i++) ambient[i] = sh[i] - s * keySh[i];
}
