/**
 * KHR_texture_transform's matrix as lit.frag applies it (`u_uvTransform`): worked by hand on points, and its
 * rotation sign and matrix order held against the extension's own words, not against
 * another renderer (the shared assets hold no TextureTransformTest or other sample with an expected look):
 *
 * - `rotation`: "Rotate the UVs by this many radians counter-clockwise around the origin. This is equivalent
 *   to a similar rotation of the image clockwise", in UV space as glTF lays it out: origin at the image's
 *   upper left corner, u to the right, v downward (the extension's implementation note; glTF 2.0 §3.8.5);
 * - order: `translation * rotation * scale` applied to `(u, v, 1)`: scale, then rotate, then offset;
 * - its example: offset [0, 1], rotation π/2, scale [0.5, 0.5] "utilizes only the lower left quadrant of the
 *   source image, rotated clockwise 90°".
 *
 * (The extension's GLSL listing writes the rotation `mat3(cos, sin, 0, -sin, cos, 0, 0, 0, 1)`; read as GLSL's
 * column-major constructor it would turn the UVs clockwise and take the example to the upper right quadrant,
 * against the prose and the example. Its rows are what the prose means, and what three.js's GLTFLoader applies.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeUvTransform } from '../../../../src/gpu/skinning/gpu-model.ts';

/** The column-major 3×3 at `m` applied to (u, v, 1). */
function apply(m: Float32Array, u: number, v: number): [number, number] {
  return [m[0] * u + m[3] * v + m[6], m[1] * u + m[4] * v + m[7]];
}

describe('writeUvTransform', () => {
  it('is the identity without a transform', () => {
    const m = new Float32Array(9);
    writeUvTransform(m, 0, { texCoord: 0 });
    expect(Array.from(m, (x) => x + 0)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('scales, then rotates, then offsets; written at the given offset', () => {
    const m = new Float32Array(18);
    writeUvTransform(m, 9, { texCoord: 1, transform: { offset: [0.5, -0.25], rotation: Math.PI / 2, scale: [2, 3] } });
    const at = m.subarray(9);
    // (1, 0) → scaled (2, 0) → rotated (cos·2, −sin·2) = (0, −2) → offset (0.5, −2.25)
    const [u1, v1] = apply(at, 1, 0);
    expect(u1).toBeCloseTo(0.5, 6);
    expect(v1).toBeCloseTo(-2.25, 6);
    // (0, 1) → (0, 3) → (sin·3, cos·3) = (3, 0) → (3.5, −0.25)
    const [u2, v2] = apply(at, 0, 1);
    expect(u2).toBeCloseTo(3.5, 6);
    expect(v2).toBeCloseTo(-0.25, 6);
    expect(Array.from(m.subarray(0, 9))).toEqual(new Array(9).fill(0));
  });
});

function transform(offset: [number, number], rotation: number, scale: [number, number]): Float32Array {
  const m = new Float32Array(9);
  writeUvTransform(m, 0, { texCoord: 0, transform: { offset, rotation, scale } });
  return m;
}

/**
 * (u, v) turned by `r` counter-clockwise as seen with v downward: drawn at (x, y) = (u, −v) in the usual
 * y-up plane, turned there by the usual counter-clockwise rotation, and read back as (x, −y).
 */
function counterClockwiseVDown(r: number, u: number, v: number): [number, number] {
  const x = u, y = -v;
  const xr = x * Math.cos(r) - y * Math.sin(r), yr = x * Math.sin(r) + y * Math.cos(r);
  return [xr, -yr];
}

const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

describe('KHR_texture_transform as the extension describes it', () => {
  it('its example takes the unit square to the lower left quadrant, turned clockwise 90° on the image', () => {
    const m = transform([0, 1], Math.PI / 2, [0.5, 0.5]);
    const at = (u: number, v: number) => apply(m, u, v).map((x) => Math.round(x * 1e6) / 1e6 + 0);
    // The quadrant u ∈ [0, 0.5], v ∈ [0.5, 1] (v downward: the lower half). Turned clockwise 90°, its upper left
    // corner shows at the surface's upper right, its upper right at the lower right, and so on round.
    const quadrant = { upperLeft: [0, 0.5], upperRight: [0.5, 0.5], lowerRight: [0.5, 1], lowerLeft: [0, 1] };
    expect(at(1, 0)).toEqual(quadrant.upperLeft);
    expect(at(1, 1)).toEqual(quadrant.upperRight);
    expect(at(0, 1)).toEqual(quadrant.lowerRight);
    expect(at(0, 0)).toEqual(quadrant.lowerLeft);
  });

  it('turns the UVs counter-clockwise with v downward: a quarter turn takes +u (right) up to −v', () => {
    const m = transform([0, 0], Math.PI / 2, [1, 1]);
    const [u, v] = apply(m, 1, 0);
    expect(u).toBeCloseTo(0, 6);
    expect(v).toBeCloseTo(-1, 6);
  });

  it('is offset + rotation(scale ⊙ uv) for any offset, rotation and scale', () => {
    fc.assert(fc.property(
      fc.tuple(finite(-4, 4), finite(-4, 4)), finite(-7, 7), fc.tuple(finite(-4, 4), finite(-4, 4)), fc.tuple(finite(-2, 2), finite(-2, 2)),
      (offset, rotation, scale, [u, v]) => {
        const [ru, rv] = counterClockwiseVDown(rotation, scale[0] * u, scale[1] * v);
        const expected = [offset[0] + ru, offset[1] + rv];
        const actual = apply(transform(offset, rotation, scale), u, v);
        const bound = 1e-5 * (1 + Math.abs(expected[0]) + Math.abs(expected[1]));
        expect(Math.abs(actual[0] - expected[0])).toBeLessThan(bound);
        expect(Math.abs(actual[1] - expected[1])).toBeLessThan(bound);
      },
    ), { numRuns: 500 });
  });
});
