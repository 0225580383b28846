import { describe, expect, it } from 'vitest';
import { idealAspectOf, snapshotRect } from '../../../src/element/element-snapshot.ts';
import { parseRevealSetting } from '../../../src/element/element-attributes.ts';

describe('snapshotRect (toBlob idealAspect, as <model-viewer>)', () => {
  it('is the whole buffer without an ideal aspect', () => {
    expect(snapshotRect(640, 400, null)).toEqual({ x: 0, y: 0, width: 640, height: 400 });
  });

  it('keeps the full height and crops the width, centred, for a model narrower than the canvas', () => {
    expect(snapshotRect(640, 400, 0.5)).toEqual({ x: 220, y: 0, width: 200, height: 400 });
  });

  it('keeps the full width and crops the height, centred, for a model wider than the canvas', () => {
    expect(snapshotRect(300, 480, 2)).toEqual({ x: 0, y: 165, width: 300, height: 150 });
  });

  it('never grows past the buffer nor shrinks below a pixel; nonsense aspects give the whole buffer', () => {
    expect(snapshotRect(640, 400, 640 / 400)).toEqual({ x: 0, y: 0, width: 640, height: 400 });
    expect(snapshotRect(640, 400, 1e-9)).toEqual({ x: 319, y: 0, width: 1, height: 400 });
    expect(snapshotRect(640, 400, Number.NaN)).toEqual({ x: 0, y: 0, width: 640, height: 400 });
    expect(snapshotRect(640, 400, -1)).toEqual({ x: 0, y: 0, width: 640, height: 400 });
  });
});

describe('idealAspectOf', () => {
  it('is the horizontal diagonal of the bounds over their height', () => {
    expect(idealAspectOf({ min: [-0.3, 0, -0.4], max: [0.3, 2, 0.4] })).toBeCloseTo(0.5, 12);
  });

  it('is 1 for bounds without height or extent', () => {
    expect(idealAspectOf({ min: [0, 0, 0], max: [1, 0, 1] })).toBe(1);
    expect(idealAspectOf({ min: [0, 0, 0], max: [0, 0, 0] })).toBe(1);
  });
});

describe('parseRevealSetting', () => {
  it('reads auto (absent, empty) and manual, case-insensitively; anything else is auto with an error', () => {
    expect(parseRevealSetting(null)).toEqual({ value: 'auto', error: null });
    expect(parseRevealSetting(' Manual ')).toEqual({ value: 'manual', error: null });
    expect(parseRevealSetting('interaction')).toEqual({ value: 'auto', error: 'expected auto or manual' });
  });
});
