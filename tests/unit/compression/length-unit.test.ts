import { describe, expect, it } from 'vitest';
import { parseLength } from '../../../src/compression/length-unit.ts';

describe('parseLength', () => {
  it('reads mm, cm, m and bare metres', () => {
    expect(parseLength('0.1mm', '--max-error')).toBeCloseTo(0.0001, 15);
    expect(parseLength('3cm', '--joint-distance')).toBeCloseTo(0.03, 15);
    expect(parseLength('2 m', '--max-error')).toBe(2);
    expect(parseLength('0.002', '--max-error')).toBe(0.002);
    expect(parseLength('0', '--max-error')).toBe(0);
    expect(parseLength('1e-4', '--max-error')).toBe(0.0001);
  });

  it('refuses no number, a negative number and an unknown unit, naming the option', () => {
    expect(() => parseLength('mm', '--max-error')).toThrow('--max-error: "mm" is not a length');
    expect(() => parseLength('-1mm', '--max-error')).toThrow('--max-error: "-1mm" is negative');
    expect(() => parseLength('3in', '--joint-distance')).toThrow('--joint-distance: unknown unit "in"');
    expect(() => parseLength('', '--max-error')).toThrow('is not a length');
  });
});
