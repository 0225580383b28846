import { describe, expect, it } from 'vitest';
import {
  cubeTexelDirection, evaluateShIrradiance, evaluateShRadiance, extractKeyLight, projectCubeRadiance, shBasis,
} from '../../../src/math/spherical-harmonics.ts';

/** Six RGBA faces of `size`² texels with radiance `f(direction)` (RGB). */
function cube(size: number, f: (x: number, y: number, z: number) => [number, number, number]): Float32Array {
  const faces = new Float32Array(6 * size * size * 4);
  const d = [0, 0, 0];
  for (let face = 0; face < 6; face++) for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
    cubeTexelDirection(d, face, c, r, size);
    const p = ((face * size + r) * size + c) * 4;
    faces.set(f(d[0], d[1], d[2]), p);
    faces[p + 3] = 1;
  }
  return faces;
}

/** A directional light of colour `color` from unit `d`: its SH coefficients C·Yᵢ(d) (the projection of C·δ(ω − d)). */
function deltaSh(d: [number, number, number], color: [number, number, number]): Float32Array {
  const y = shBasis(new Float64Array(9), 0, ...d);
  const sh = new Float32Array(27);
  for (let i = 0; i < 9; i++) for (let ch = 0; ch < 3; ch++) sh[3 * i + ch] = color[ch] * y[i];
  return sh;
}

function fibonacci(n: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let k = 0; k < n; k++) {
    // Offset from the clamp's own set (k + 0.25), so the test does not check only the directions the code tested.
    const y = 1 - (2 * (k + 0.25)) / n, r = Math.sqrt(1 - y * y);
    out.push([Math.cos(golden * k) * r, y, Math.sin(golden * k) * r]);
  }
  return out;
}

describe('spherical harmonics (three.js SphericalHarmonics3 order)', () => {
  it('cube texel directions follow the GL cube map rule: face centres are the axes', () => {
    const d = [0, 0, 0];
    const axes = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
    for (let f = 0; f < 6; f++) {
      // 2×2 face: the four texels average to the axis.
      const sum = [0, 0, 0];
      for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) {
        cubeTexelDirection(d, f, c, r, 2);
        for (let k = 0; k < 3; k++) sum[k] += d[k];
      }
      const len = Math.hypot(...sum);
      for (let k = 0; k < 3; k++) expect(sum[k] / len).toBeCloseTo(axes[f][k], 6);
    }
    // +X face, texel at s → +1 (last column) points towards −Z (Table 3.21: sc = −rz).
    cubeTexelDirection(d, 0, 31, 16, 32);
    expect(d[2]).toBeLessThan(-0.9 * Math.abs(d[1]));
  });

  it('projects a constant radiance L to c₀ = L·√(4π)·… and irradiance πL everywhere', () => {
    const sh = projectCubeRadiance(new Float32Array(27), cube(16, () => [0.5, 1, 2]), 16);
    // c₀ = ∫ L·Y₀ = L · 0.282095 · 4π.
    expect(sh[0]).toBeCloseTo(0.5 * 0.282095 * 4 * Math.PI, 4);
    expect(sh[2]).toBeCloseTo(2 * 0.282095 * 4 * Math.PI, 4);
    for (let i = 3; i < 27; i++) expect(Math.abs(sh[i])).toBeLessThan(1e-4);
    const e = [0, 0, 0];
    evaluateShIrradiance(e, sh, 0.6, 0, 0.8);
    expect(e[0]).toBeCloseTo(0.5 * Math.PI, 3);
    expect(e[1]).toBeCloseTo(Math.PI, 3);
  });

  it('projects L = z onto c₂ = ∫ z·0.488603·z = 0.488603·4π/3 alone', () => {
    const sh = projectCubeRadiance(new Float32Array(27), cube(32, (_x, _y, z) => [z, z, z]), 32);
    expect(sh[6]).toBeCloseTo((0.488603 * 4 * Math.PI) / 3, 3);
    for (let i = 0; i < 9; i++) if (i !== 2) expect(Math.abs(sh[3 * i])).toBeLessThan(1e-3);
    // Irradiance of L = z: E(n) = 2π/3 · n_z (the linear band is exact in R&H).
    const e = [0, 0, 0];
    evaluateShIrradiance(e, sh, 0, 0.6, 0.8);
    expect(e[0]).toBeCloseTo(((2 * Math.PI) / 3) * 0.8, 3);
  });

  it('projects L = xy onto c₄ (Y₄ = 1.092548·xy): ∫ x²y² = 4π/15', () => {
    const sh = projectCubeRadiance(new Float32Array(27), cube(32, (x, y) => [x * y, 0, 0]), 32);
    expect(sh[12]).toBeCloseTo((1.092548 * 4 * Math.PI) / 15, 3);
    const radiance = [0, 0, 0];
    evaluateShRadiance(radiance, sh, Math.SQRT1_2, Math.SQRT1_2, 0);
    expect(radiance[0]).toBeCloseTo(0.5, 2);
  });

  it('a constant environment has no key light and keeps all of it as ambient', () => {
    const sh = projectCubeRadiance(new Float32Array(27), cube(8, () => [0.3, 0.4, 0.5]), 8);
    const direction = new Float32Array(3), color = new Float32Array(3), ambient = new Float32Array(27);
    extractKeyLight(sh, direction, color, ambient);
    expect([...color]).toEqual([0, 0, 0]);
    expect([...ambient]).toEqual([...sh]);
  });

  it('a single directional light is recovered exactly: direction, colour, no ambient', () => {
    const d: [number, number, number] = [0.48, 0.6, -0.64];
    const sh = deltaSh(d, [3, 2, 1]);
    const direction = new Float32Array(3), color = new Float32Array(3), ambient = new Float32Array(27);
    extractKeyLight(sh, direction, color, ambient);
    for (let k = 0; k < 3; k++) expect(direction[k]).toBeCloseTo(d[k], 5);
    expect(color[0]).toBeCloseTo(3, 4);
    expect(color[1]).toBeCloseTo(2, 4);
    expect(color[2]).toBeCloseTo(1, 4);
    for (let i = 0; i < 27; i++) expect(Math.abs(ambient[i])).toBeLessThan(1e-4);
  });

  it('a bright sun over a sky: key light along the sun, ambient irradiance never negative', () => {
    const sun: [number, number, number] = [0, 0.8, 0.6];
    // A sky (constant + a little gradient) and a narrow bright lobe about the sun.
    const sh = projectCubeRadiance(new Float32Array(27), cube(32, (x, y, z) => {
      const c = x * sun[0] + y * sun[1] + z * sun[2];
      const lobe = c > 0.97 ? 40 : 0;
      return [0.2 + 0.05 * y + lobe, 0.25 + 0.05 * y + lobe, 0.3 + 0.05 * y + lobe * 0.9];
    }), 32);
    const direction = new Float32Array(3), color = new Float32Array(3), ambient = new Float32Array(27);
    extractKeyLight(sh, direction, color, ambient);
    const cosine = direction[0] * sun[0] + direction[1] * sun[1] + direction[2] * sun[2];
    expect(cosine).toBeGreaterThan(0.999);
    expect(color[0]).toBeGreaterThan(1);
    const e = [0, 0, 0];
    for (const n of fibonacci(500)) {
      evaluateShIrradiance(e, ambient, ...n);
      for (let ch = 0; ch < 3; ch++) expect(e[ch]).toBeGreaterThanOrEqual(-1e-3);
    }
    // Key + ambient is the environment where nothing was clamped: check one direction's irradiance adds up to within the clamp.
    evaluateShIrradiance(e, sh, ...sun);
    const a = [0, 0, 0];
    evaluateShIrradiance(a, ambient, ...sun);
    const keyAtSun = e[0] - a[0];
    expect(keyAtSun).toBeGreaterThan(0);
  });
});
