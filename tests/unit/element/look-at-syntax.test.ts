import { describe, expect, it } from 'vitest';
import { parseLookAt } from '../../../src/element/look-at-syntax.ts';

describe('parseLookAt (`look-at`)', () => {
  it('reads camera, cursor and none in any case; absent or blank is none', () => {
    expect(parseLookAt('camera')).toEqual({ value: { kind: 'camera' }, error: null });
    expect(parseLookAt(' Cursor ')).toEqual({ value: { kind: 'cursor' }, error: null });
    expect(parseLookAt('NONE')).toEqual({ value: { kind: 'none' }, error: null });
    expect(parseLookAt(null)).toEqual({ value: { kind: 'none' }, error: null });
    expect(parseLookAt('  ')).toEqual({ value: { kind: 'none' }, error: null });
  });

  it('reads "X Y Z" in metres, with m, cm and mm, spaces or commas', () => {
    expect(parseLookAt('0 1.5 2')).toEqual({ value: { kind: 'point', point: [0, 1.5, 2] }, error: null });
    const { value } = parseLookAt('10cm, 1500mm -2m');
    expect(value.kind).toBe('point');
    if (value.kind !== 'point') return;
    expect(value.point[0]).toBeCloseTo(0.1, 12);
    expect(value.point[1]).toBeCloseTo(1.5, 12);
    expect(value.point[2]).toBe(-2);
  });

  it('refuses anything else with one error, falling back to none', () => {
    for (const raw of ['0 1.5', '0 1.5 2 3', 'camera cursor', 'eyes', '0 NaN 1', '1 2 3deg', 'auto']) {
      const reading = parseLookAt(raw);
      expect(reading.value, raw).toEqual({ kind: 'none' });
      expect(reading.error, raw).toMatch(/expected camera, cursor, none or "X Y Z"/);
    }
  });
});
