import { mat3, mat4, quat, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import {
  mat3FromQuatAt, quatBetween, quatConjugateMultiply, quatConjugateMultiplyAt, quatConjugateRotateAt, quatIdentity,
  quatMultiply, quatMultiplyAt, quatNormalizeAt, quatRotate, quatRotateAt,
} from '../../../src/math/quaternion.ts';
import { invertAffine, multiplyAffine, originIn, transformPoint, transformVector } from '../../../src/math/affine-mat4.ts';

// src/math against gl-matrix where it has the same operation: gl-matrix computes in float32 storage, so the
// expectations are its results to float32 precision, from inputs that are float32-exact.

/** A quaternion from an axis and angle by gl-matrix (float32), made unit in f64. */
function unit(axis: [number, number, number], radians: number): Float64Array {
  const q = quat.setAxisAngle(quat.create(), vec3.normalize(vec3.create(), axis), radians);
  const l = Math.hypot(...q);
  return Float64Array.from(q, (c) => c / l);
}

const a = unit([1, 2, 3], 0.7), b = unit([-2, 0.5, 1], 2.1), v = Float64Array.of(0.25, -1.5, 2);

function close(actual: ArrayLike<number>, expected: ArrayLike<number>, digits = 6): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(actual[i], `entry ${i}`).toBeCloseTo(expected[i], digits);
}

describe('quaternions (src/math/quaternion.ts) agree with gl-matrix', () => {
  it('quatMultiply is quat.multiply (apply b, then a)', () => {
    close(quatMultiply(new Float64Array(4), a, b), quat.multiply(quat.create(), a as unknown as quat, b as unknown as quat));
  });

  it('quatConjugateMultiply is quat.multiply with quat.conjugate of a', () => {
    const c = quat.conjugate(quat.create(), a as unknown as quat);
    close(quatConjugateMultiply(new Float64Array(4), a, b), quat.multiply(quat.create(), c, b as unknown as quat));
  });

  it('quatRotate is vec3.transformQuat, and its conjugate form undoes it', () => {
    const rotated = quatRotate(new Float64Array(3), a, v);
    close(rotated, vec3.transformQuat(vec3.create(), v as unknown as vec3, a as unknown as quat));
    close(quatConjugateRotateAt(new Float64Array(3), 0, a, 0, rotated, 0), v, 12);
  });

  it('mat3FromQuatAt is mat3.fromQuat', () => {
    close(mat3FromQuatAt(new Float64Array(9), b, 0), mat3.fromQuat(mat3.create(), b as unknown as quat));
  });

  it('quatNormalizeAt is quat.normalize, and leaves zero as zero', () => {
    const q = Float64Array.of(9, 1, 2, 0.5, -3, 4, 0);
    close(quatNormalizeAt(q, 3).subarray(3), quat.normalize(quat.create(), [0.5, -3, 4, 0]));
    expect(q[0]).toBe(9);
    expect(Array.from(quatNormalizeAt(new Float64Array(4), 0))).toEqual([0, 0, 0, 0]);
  });

  it('quatBetween is quat.rotationTo for unit vectors, takes any length, and turns half way for opposite ones', () => {
    const u = vec3.normalize(vec3.create(), [1, 2, -1]), w = vec3.normalize(vec3.create(), [-3, 0.5, 2]);
    close(quatBetween(new Float64Array(4), u, w), quat.rotationTo(quat.create(), u, w));
    close(quatBetween(new Float64Array(4), [2, 4, -2], [-6, 1, 4]), quat.rotationTo(quat.create(), u, w));
    const opposite = quatBetween(new Float64Array(4), [0, 2, 0], [0, -1, 0]);
    close(quatRotate(new Float64Array(3), opposite, [0, 1, 0]), [0, -1, 0], 12);
    expect(Array.from(quatBetween(new Float64Array(4), [0, 0, 0], [1, 0, 0]))).toEqual([0, 0, 0, 1]);
    expect(Array.from(quatIdentity(Float64Array.of(5, 5, 5, 5)))).toEqual([0, 0, 0, 1]);
  });

  it('the strided forms read and write at their offsets and equal the plain forms bit for bit', () => {
    const packed = Float64Array.of(7, ...a, ...b, 8);
    const out = new Float64Array(6).fill(-1);
    quatMultiplyAt(out, 1, packed, 1, packed, 5);
    expect(Array.from(out.subarray(1, 5))).toEqual(Array.from(quatMultiply(new Float64Array(4), a, b)));
    expect([out[0], out[5]]).toEqual([-1, -1]);
    quatConjugateMultiplyAt(out, 2, packed, 1, packed, 5);
    expect(Array.from(out.subarray(2, 6))).toEqual(Array.from(quatConjugateMultiply(new Float64Array(4), a, b)));
    const vs = Float64Array.of(0, 0, ...v);
    quatRotateAt(vs, 2, packed, 5, vs, 2);
    expect(Array.from(vs.subarray(2))).toEqual(Array.from(quatRotate(new Float64Array(3), b, v)));
  });

  it('outputs may alias inputs', () => {
    const q = Float64Array.from(a);
    expect(Array.from(quatMultiply(q, q, b))).toEqual(Array.from(quatMultiply(new Float64Array(4), a, b)));
    const r = Float64Array.from(b);
    expect(Array.from(quatMultiply(r, a, r))).toEqual(Array.from(quatMultiply(new Float64Array(4), a, b)));
  });
});

describe('affine matrices (src/math/affine-mat4.ts) agree with gl-matrix', () => {
  const m = mat4.fromRotationTranslationScale(mat4.create(), a as unknown as quat, [1, -2, 0.5], [2, 0.5, 3]);
  const n = mat4.fromRotationTranslationScale(mat4.create(), b as unknown as quat, [-0.25, 3, 1], [1, 1.5, 0.75]);
  const m64 = Float64Array.from(m), n64 = Float64Array.from(n);

  it('transformPoint is vec3.transformMat4; transformVector drops the translation', () => {
    close(transformPoint(new Float64Array(3), m64, v), vec3.transformMat4(vec3.create(), v as unknown as vec3, m));
    const direction = vec3.sub(vec3.create(), vec3.transformMat4(vec3.create(), v as unknown as vec3, m), mat4.getTranslation(vec3.create(), m));
    close(transformVector(new Float64Array(3), m64, v), direction, 5);
  });

  it('invertAffine is mat4.invert, and refuses a singular matrix', () => {
    const inverse = new Float64Array(16);
    expect(invertAffine(inverse, m64)).toBe(true);
    close(inverse, mat4.invert(mat4.create(), m)!, 5);
    expect(invertAffine(inverse, Float64Array.of(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))).toBe(false);
  });

  it('multiplyAffine is mat4.multiply; originIn is the inverse applied to the other matrix\'s translation', () => {
    close(multiplyAffine(new Float64Array(16), m64, n64), mat4.multiply(mat4.create(), m, n), 5);
    const inverse = new Float64Array(16);
    invertAffine(inverse, m64);
    close(originIn(new Float64Array(3), inverse, n64), vec3.transformMat4(vec3.create(), mat4.getTranslation(vec3.create(), n), mat4.invert(mat4.create(), m)!), 5);
  });
});
