import { describe, expect, it } from 'vitest';
import { parseSpringBones, parseSpringVector } from '../../../src/element/spring-syntax.ts';

describe('parseSpringBones', () => {
  it('reads on (absent, empty, any case) and off; anything else is on with an error', () => {
    expect(parseSpringBones(null)).toEqual({ value: 'on', error: null });
    expect(parseSpringBones('  ')).toEqual({ value: 'on', error: null });
    expect(parseSpringBones('ON')).toEqual({ value: 'on', error: null });
    expect(parseSpringBones(' off ')).toEqual({ value: 'off', error: null });
    expect(parseSpringBones('false')).toEqual({ value: 'on', error: 'expected on or off; using on' });
    expect(parseSpringBones('0')).toEqual({ value: 'on', error: 'expected on or off; using on' });
  });
});

describe('parseSpringVector', () => {
  it('reads three numbers split at spaces or commas (model-viewer\'s vector syntax)', () => {
    expect(parseSpringVector('4 0 0')).toEqual({ value: [4, 0, 0], error: null });
    expect(parseSpringVector(' -1.5,  2e-1 ,.25 ')).toEqual({ value: [-1.5, 0.2, 0.25], error: null });
    expect(parseSpringVector('+3 -0 9.81')).toEqual({ value: [3, -0, 9.81], error: null });
  });

  it('absent or empty is 0 0 0 without an error', () => {
    expect(parseSpringVector(null)).toEqual({ value: [0, 0, 0], error: null });
    expect(parseSpringVector('')).toEqual({ value: [0, 0, 0], error: null });
  });

  it('anything but three finite numbers is 0 0 0 with one error naming the syntax', () => {
    const error = 'expected "X Y Z", three numbers in m/s² (world space, e.g. "4 0 0"); using 0 0 0';
    for (const bad of ['4 0', '1 2 3 4', 'east', '4m 0 0', 'NaN 0 0', 'Infinity 0 0', '1 2 x', '0x10 0 0']) {
      expect(parseSpringVector(bad), bad).toEqual({ value: [0, 0, 0], error });
    }
  });
});
