import { describe, expect, it } from 'vitest';
import { isHotspotSlot, parseLength, parseSurface, parseVector, readHotspotSpec } from '../../../src/element/hotspot-syntax.ts';

// The data attributes of <sinew-viewer>'s hotspots, in <model-viewer>'s syntax (docs/guide/hotspots.md).

describe('hotspot data attributes', () => {
  it('reads lengths in metres, with or without a unit', () => {
    expect(parseLength('1')).toBe(1);
    expect(parseLength('1m')).toBe(1);
    expect(parseLength('-2.5cm')).toBeCloseTo(-0.025, 15);
    expect(parseLength('10mm')).toBeCloseTo(0.01, 15);
    expect(parseLength('.5')).toBe(0.5);
    expect(parseLength('1e-3m')).toBe(0.001);
    for (const bad of ['NaN', 'Infinity', '0x10', '1km', '', 'm', '1 m', '1e999']) expect(parseLength(bad), bad).toBeNull();
  });

  it('reads three numbers for a position, naming the attribute and the token when one is wrong', () => {
    expect(parseVector('0.1m 2cm 3', 'data-position')).toEqual([0.1, 0.02, 3]);
    expect(parseVector('  1, 2 ,3 ', 'data-position')).toEqual([1, 2, 3]);
    expect(() => parseVector('1 2', 'data-offset')).toThrow('data-offset="1 2": expected three numbers (x y z, optionally in m, cm or mm), got 2');
    expect(() => parseVector('1 NaN 3', 'data-position')).toThrow('data-position="1 NaN 3": "NaN" is not a finite number');
  });

  it('reads data-surface as model-viewer writes it (eight numbers), or with the third weight implied (seven)', () => {
    expect(parseSurface('0 1 10 11 12 0.2 0.3 0.5')).toEqual({ kind: 'surface', mesh: 0, primitive: 1, vertices: [10, 11, 12], weights: [0.2, 0.3, 0.5] });
    const seven = parseSurface('2 0 4 5 6 0.25 0.25');
    expect(seven.weights).toEqual([0.25, 0.25, 0.5]);
    expect(() => parseSurface('0 0 1 2 3 0.5')).toThrow('expected "MESH PRIMITIVE A B C U V W" (7 or 8 numbers), got 6');
    expect(() => parseSurface('0 0 1 -2 3 0.2 0.3 0.5')).toThrow('"-2" is not a mesh, primitive or vertex index');
    expect(() => parseSurface('0 0 1 2.5 3 0.2 0.3 0.5')).toThrow('"2.5" is not a mesh, primitive or vertex index');
    expect(() => parseSurface('0 0 1 2 3 0.2 NaN 0.5')).toThrow('"NaN" is not a finite barycentric weight');
    expect(() => parseSurface('0 0 1 2 3 0.2 0.3m 0.5')).toThrow('"0.3m" is not a finite barycentric weight');
  });

  it('chooses surface, then joint, then position; defaults as model-viewer (0m 0m 0m, normal 0m 1m 0m)', () => {
    expect(readHotspotSpec({})).toEqual({ kind: 'position', position: [0, 0, 0], normal: [0, 1, 0] });
    expect(readHotspotSpec({ position: '1 2 3', normal: '0 0 1' })).toEqual({ kind: 'position', position: [1, 2, 3], normal: [0, 0, 1] });
    expect(readHotspotSpec({ joint: ' head ', position: '1 2 3' })).toEqual({ kind: 'joint', joint: 'head', offset: [0, 0, 0], normal: null });
    expect(readHotspotSpec({ joint: 'head', offset: '0 10cm 0', normal: '1 0 0' })).toEqual({ kind: 'joint', joint: 'head', offset: [0, 0.1, 0], normal: [1, 0, 0] });
    expect(readHotspotSpec({ surface: '0 0 1 2 3 1 0 0', joint: 'head' }).kind).toBe('surface');
    expect(() => readHotspotSpec({ joint: '  ' })).toThrow('data-joint="": expected a joint name');
    // A malformed attribute of the kind not chosen does not matter; one of the chosen kind does.
    expect(readHotspotSpec({ joint: 'head', position: 'x' }).kind).toBe('joint');
    expect(() => readHotspotSpec({ joint: 'head', normal: '0 1' })).toThrow('data-normal="0 1"');
  });

  it('takes slots that begin with "hotspot", as model-viewer does', () => {
    expect(isHotspotSlot('hotspot-hand')).toBe(true);
    expect(isHotspotSlot('hotspot')).toBe(true);
    expect(isHotspotSlot('my-hotspot')).toBe(false);
    expect(isHotspotSlot('')).toBe(false);
  });
});
