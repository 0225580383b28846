import { describe, expect, it } from 'vitest';
import {
  blendWeights1D, blendWeightsCartesian, blendWeightsDirect, blendWeightsDirectional,
} from '../../../../src/animation/graph/blend-weights.ts';

// Expected weights are worked by hand from the formulas (docs/guide/animation-graph.md, "Blend weights"):
// 1D piecewise linear; Johansen's gradient bands, cartesian and polar (α = 2).

const sum = (w: Float64Array): number => w.reduce((a, b) => a + b, 0);

function expectWeights(w: Float64Array, expected: number[]): void {
  expect(w.length).toBe(expected.length);
  expected.forEach((x, i) => expect(w[i], `weight ${i}`).toBeCloseTo(x, 12));
  expect(sum(w)).toBeCloseTo(1, 12);
}

describe('1D weights', () => {
  const xs = Float64Array.of(0, 1, 3);
  const at = (p: number): Float64Array => {
    const w = new Float64Array(3);
    blendWeights1D(w, xs, 0, 3, Float64Array.of(p));
    return w;
  };
  it('one at each point', () => {
    expectWeights(at(0), [1, 0, 0]);
    expectWeights(at(1), [0, 1, 0]);
    expectWeights(at(3), [0, 0, 1]);
  });
  it('piecewise linear between neighbours', () => {
    expectWeights(at(0.25), [0.75, 0.25, 0]);
    expectWeights(at(2), [0, 0.5, 0.5]);
    expectWeights(at(2.5), [0, 0.25, 0.75]);
  });
  it('clamped beyond the ends (Unity), not zero (PlayCanvas)', () => {
    expectWeights(at(-5), [1, 0, 0]);
    expectWeights(at(7), [0, 0, 1]);
  });
  it('reads its slice of the arrays only', () => {
    const w = new Float64Array(5).fill(9);
    blendWeights1D(w, Float64Array.of(7, 7, 0, 2, 7), 2, 2, Float64Array.of(0.5));
    expect(Array.from(w)).toEqual([9, 9, 0.75, 0.25, 9]);
  });
});

describe('2D cartesian gradient bands', () => {
  // Points (0,0), (1,0), (0,1).
  const xs = Float64Array.of(0, 1, 0), ys = Float64Array.of(0, 0, 1);
  const at = (px: number, py: number): Float64Array => {
    const w = new Float64Array(3);
    blendWeightsCartesian(w, xs, ys, 0, 3, Float64Array.of(px, py));
    return w;
  };
  it('one at each point', () => {
    expectWeights(at(0, 0), [1, 0, 0]);
    expectWeights(at(1, 0), [0, 1, 0]);
    expectWeights(at(0, 1), [0, 0, 1]);
  });
  it('between: (0.5, 0) → ½, ½, 0; (⅓, ⅓) → h = ⅔, ⅓, ⅓ normalised ½, ¼, ¼', () => {
    expectWeights(at(0.5, 0), [0.5, 0.5, 0]);
    expectWeights(at(1 / 3, 1 / 3), [0.5, 0.25, 0.25]);
  });
});

describe('2D directional gradient bands (polar)', () => {
  // Idle (0,0), forward (0,1), right (1,0), left (−1,0).
  const xs = Float64Array.of(0, 0, 1, -1), ys = Float64Array.of(0, 1, 0, 0);
  const at = (px: number, py: number): Float64Array => {
    const w = new Float64Array(4);
    blendWeightsDirectional(w, xs, ys, 0, 4, Float64Array.of(px, py));
    return w;
  };
  it('one at each point', () => {
    expectWeights(at(0, 0), [1, 0, 0, 0]);
    expectWeights(at(0, 1), [0, 1, 0, 0]);
    expectWeights(at(1, 0), [0, 0, 1, 0]);
    expectWeights(at(-1, 0), [0, 0, 0, 1]);
  });
  it('half-way forward: idle ½, forward ½', () => {
    expectWeights(at(0, 0.5), [0.5, 0.5, 0, 0]);
  });
  it('diagonal at full speed: forward ½, right ½ (the angle splits, the magnitude stays)', () => {
    expectWeights(at(Math.SQRT1_2, Math.SQRT1_2), [0, 0.5, 0.5, 0]);
  });
});

describe('DIRECT weights', () => {
  it('the parameters normalised; negative ones count 0; all 0 gives equal weights', () => {
    const w = new Float64Array(3);
    blendWeightsDirect(w, Float64Array.of(1, 3, -2), 0, 3);
    expectWeights(w, [0.25, 0.75, 0]);
    blendWeightsDirect(w, Float64Array.of(0, 0, 0), 0, 3);
    expectWeights(w, [1 / 3, 1 / 3, 1 / 3]);
  });
});
