import { describe, expect, it } from 'vitest';
import { Euler, Matrix4, Quaternion, Vector3 } from 'three';
import {
  DEFAULT_ORIENTATION, DEFAULT_SCALE, parseOrientation, parseScale, placementMatrix,
} from '../../../src/element/placement-syntax.ts';

const DEG = Math.PI / 180;

describe('parseOrientation (model-viewer\'s "roll pitch yaw")', () => {
  it('reads deg and rad, no unit as radians, space- or comma-separated', () => {
    const { value, error } = parseOrientation('10deg 0.5rad, 2');
    expect(error).toBeNull();
    expect(value.roll).toBeCloseTo(10 * DEG, 12);
    expect(value.pitch).toBe(0.5);
    expect(value.yaw).toBe(2);
  });

  it('absent or blank: 0deg 0deg 0deg', () => {
    expect(parseOrientation(null)).toEqual({ value: DEFAULT_ORIENTATION, error: null });
    expect(parseOrientation('  ')).toEqual({ value: DEFAULT_ORIENTATION, error: null });
    expect(DEFAULT_ORIENTATION).toEqual({ roll: 0, pitch: 0, yaw: 0 });
  });

  it('malformed: an error naming the syntax, and the default', () => {
    for (const raw of ['90deg', '0 0 0 0', '0deg 90m 0deg', 'auto auto auto', 'a b c', '0 Infinity 0']) {
      const reading = parseOrientation(raw);
      expect(reading.value, raw).toBe(DEFAULT_ORIENTATION);
      expect(reading.error, raw).toMatch(/^expected "roll pitch yaw"/);
    }
  });
});

describe('parseScale (model-viewer\'s "x y z")', () => {
  it('reads three factors, negative ones mirror', () => {
    expect(parseScale('2 0.5 -1')).toEqual({ value: [2, 0.5, -1], error: null });
    expect(parseScale('1e-2,3,4').value).toEqual([0.01, 3, 4]);
  });

  it('absent: 1 1 1; malformed or zero: an error and 1 1 1', () => {
    expect(parseScale(null)).toEqual({ value: DEFAULT_SCALE, error: null });
    for (const raw of ['2', '1 1', '1 0 1', '1m 1 1', 'x y z', '1 1 1 1']) {
      const reading = parseScale(raw);
      expect(reading.value, raw).toBe(DEFAULT_SCALE);
      expect(reading.error, raw).toMatch(/^expected "x y z"/);
    }
  });
});

describe('placementMatrix', () => {
  /** model-viewer's applyTransform: quaternion from Euler(pitch, yaw, roll, 'YXZ'), then scale (three.js). */
  function threeJs(roll: number, pitch: number, yaw: number, scale: [number, number, number]): number[] {
    const q = new Quaternion().setFromEuler(new Euler(pitch, yaw, roll, 'YXZ'));
    return new Matrix4().compose(new Vector3(0, 0, 0), q, new Vector3(...scale)).toArray();
  }

  it("equals three.js's model matrix for model-viewer's Euler order and scale", () => {
    const cases: Array<[number, number, number, [number, number, number]]> = [
      [0, 0, 0, [1, 1, 1]], [0.3, 0, 0, [1, 1, 1]], [0, 0.7, 0, [1, 1, 1]], [0, 0, -1.1, [1, 1, 1]],
      [0.4, -0.9, 2.5, [2, 0.5, -3]], [Math.PI / 2, Math.PI / 3, Math.PI / 4, [1, 2, 3]],
    ];
    for (const [roll, pitch, yaw, scale] of cases) {
      const ours = Array.from(placementMatrix(new Float32Array(16), { roll, pitch, yaw }, scale));
      const theirs = threeJs(roll, pitch, yaw, scale);
      for (let i = 0; i < 16; i++) expect(ours[i], `${roll} ${pitch} ${yaw} ${scale}: [${i}]`).toBeCloseTo(theirs[i], 6);
    }
  });

  it('yaw 90deg turns the model\'s front (+Z) to +X; pitch 90deg turns +Z to −Y', () => {
    const front = (m: Float32Array) => [m[8], m[9], m[10]].map((v) => Math.round(v * 1e6) / 1e6 + 0);
    expect(front(placementMatrix(new Float32Array(16), { roll: 0, pitch: 0, yaw: Math.PI / 2 }, [1, 1, 1]))).toEqual([1, 0, 0]);
    expect(front(placementMatrix(new Float32Array(16), { roll: 0, pitch: Math.PI / 2, yaw: 0 }, [1, 1, 1]))).toEqual([0, -1, 0]);
  });
});
