/**
 * KHR_texture_transform's matrix as lit.frag applies it (`u_uvTransform`), against the extension's definition
 * T(offset)·R(rotation)·S(scale) worked by hand on points: (u, v) → scale, then rotate with rows
 * (cos r, sin r), (−sin r, cos r), then offset.
 */
import { describe, expect, it } from 'vitest';
import { writeUvTransform } from '../../../src/gl/gpu-model.ts';

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
