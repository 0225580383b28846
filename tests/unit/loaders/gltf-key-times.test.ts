import { describe, expect, it } from 'vitest';
import { spreadRepeatedKeyTimes } from '../../../src/loaders/gltf/gltf-key-times.ts';

const increasing = (times: Float32Array): boolean => times.every((t, i) => i === 0 || t > times[i - 1]);

describe('spreadRepeatedKeyTimes', () => {
  it('null when no two consecutive keys are equal (decreasing times are left to the caller)', () => {
    expect(spreadRepeatedKeyTimes(Float32Array.of(0, 1, 2))).toBeNull();
    expect(spreadRepeatedKeyTimes(Float32Array.of(0, 2, 1))).toBeNull();
  });

  it('a run of equal times keeps its last key at the time and moves the earlier ones down by float32 steps', () => {
    const times = Float32Array.of(0, 1 / 6, 1 / 6, 1 / 6, 0.5);
    const spread = spreadRepeatedKeyTimes(times)!;
    expect(increasing(spread)).toBe(true);
    expect(spread[3]).toBe(times[3]);
    expect(spread[3] - spread[1]).toBeLessThan(1e-7);
    expect(Array.from(times)).toEqual(Array.from(Float32Array.of(0, 1 / 6, 1 / 6, 1 / 6, 0.5))); // input untouched
  });

  it('a repeat at 0 moves the first key just below 0', () => {
    const spread = spreadRepeatedKeyTimes(Float32Array.of(0, 0, 1))!;
    expect(spread[0]).toBeLessThan(0);
    expect(spread[0]).toBeGreaterThan(-1e-40);
    expect(Array.from(spread.subarray(1))).toEqual([0, 1]);
  });
});
