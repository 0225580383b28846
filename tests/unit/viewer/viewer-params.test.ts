import { describe, expect, it } from 'vitest';
import { parseViewerParams } from '../../../src/viewer/viewer-params.ts';
import {
  parseLoopSetting, parseNumberSetting, parsePaletteSetting, parseSkinningSetting, parseWeightsSetting,
} from '../../../src/view/settings.ts';
import { findClipIndex } from '../../../src/animation/find-clip.ts';

describe('parseViewerParams', () => {
  it('gives defaults for an empty query', () => {
    const { params, errors } = parseViewerParams('');
    expect(errors).toEqual([]);
    expect(params).toEqual({
      model: null, anim: null, clip: null, time: null, palette: 'auto', skinning: 'lbs', weights: 'normalize', yaw: null, pitch: null,
      distance: null, ui: true, speed: null, loop: null, fade: null,
    });
  });

  it('reads every parameter, degrees to radians', () => {
    const { params, errors } = parseViewerParams('?model=/a/Fox.glb&clip=Run&time=0.5&palette=texture&yaw=90&pitch=-30&distance=2&ui=0');
    expect(errors).toEqual([]);
    expect(params.model).toBe('/a/Fox.glb');
    expect(params.clip).toBe('Run');
    expect(params.time).toBe(0.5);
    expect(params.palette).toBe('texture');
    expect(params.yaw).toBeCloseTo(Math.PI / 2, 12);
    expect(params.pitch).toBeCloseTo(-Math.PI / 6, 12);
    expect(params.distance).toBe(2);
    expect(params.ui).toBe(false);
  });

  it('reads the playback settings: speed (any sign), loop mode, fade seconds', () => {
    const { params, errors } = parseViewerParams('?speed=-0.5&loop=pingpong&fade=0');
    expect(errors).toEqual([]);
    expect([params.speed, params.loop, params.fade]).toEqual([-0.5, 'pingpong', 0]);
    expect(parseViewerParams('?loop=once&speed=2&fade=1.5').params).toMatchObject({ loop: 'once', speed: 2, fade: 1.5 });
    expect(parseViewerParams('?loop=ping-pong').params.loop).toBe('pingpong');
  });

  it('reports malformed playback settings by name and ignores them', () => {
    const { params, errors } = parseViewerParams('?speed=fast&loop=forever&fade=-1');
    expect([params.speed, params.loop, params.fade]).toEqual([null, null, null]);
    expect(errors).toEqual([
      'URL parameter speed=fast: expected a playback rate (1 real time, -1 backwards)',
      'URL parameter fade=-1: expected seconds ≥ 0',
      'URL parameter loop=forever: expected loop, once or pingpong',
    ]);
  });

  it('reports malformed values by name and ignores them', () => {
    const { params, errors } = parseViewerParams('?time=-1&palette=gpu&pitch=100&distance=0&yaw=abc');
    expect(params.time).toBeNull();
    expect(params.palette).toBe('auto');
    expect(params.pitch).toBeNull();
    expect(params.distance).toBeNull();
    expect(params.yaw).toBeNull();
    expect(errors.map((e) => e.split('=')[0])).toEqual([
      'URL parameter yaw', 'URL parameter pitch', 'URL parameter distance', 'URL parameter time', 'URL parameter palette',
    ]);
  });
});

describe('findClipIndex', () => {
  const names = ['Survey', 'Walk', 'Run', '7'];
  it('matches a name first, then an index, rest / −1 for the rest pose', () => {
    expect(findClipIndex('Run', names)).toBe(2);
    expect(findClipIndex('1', names)).toBe(1);
    expect(findClipIndex('7', names)).toBe(3); // a clip named "7" wins over index 7
    expect(findClipIndex('rest', names)).toBe(-1);
    expect(findClipIndex('-1', names)).toBe(-1);
  });
  it('gives null for unknown names and out-of-range indices', () => {
    expect(findClipIndex('Jump', names)).toBeNull();
    expect(findClipIndex('4', names)).toBeNull();
    expect(findClipIndex('-2', names)).toBeNull();
  });
});

describe('parseNumberSetting / parsePaletteSetting (shared with <sinew-viewer> attributes)', () => {
  it('reads values in their written units; absent or blank is null', () => {
    expect(parseNumberSetting('yaw', '-450')).toEqual({ value: -450, error: null });
    expect(parseNumberSetting('pitch', '90')).toEqual({ value: 90, error: null });
    expect(parseNumberSetting('time', null)).toEqual({ value: null, error: null });
    expect(parseNumberSetting('distance', '  ')).toEqual({ value: null, error: null });
  });
  it('says what was expected for malformed or out-of-range values', () => {
    expect(parseNumberSetting('time', 'soon')).toEqual({ value: null, error: 'expected seconds ≥ 0' });
    expect(parseNumberSetting('pitch', '-91').error).toBe('expected degrees in [-90, 90]');
    expect(parseNumberSetting('distance', '0').error).toBe('expected a positive multiple of the framed distance');
    expect(parseNumberSetting('yaw', 'Infinity').error).toBe('expected degrees');
  });
  it('reads loop modes; absent or blank is null', () => {
    expect(parseLoopSetting(null)).toEqual({ value: null, error: null });
    expect(parseLoopSetting(' ')).toEqual({ value: null, error: null });
    expect(parseLoopSetting('once')).toEqual({ value: 'once', error: null });
    expect(parseLoopSetting('Loop')).toEqual({ value: 'loop', error: null });
    expect(parseLoopSetting('bounce')).toEqual({ value: null, error: 'expected loop, once or pingpong' });
  });
  it('reads palette modes, auto when absent', () => {
    expect(parsePaletteSetting(null)).toEqual({ value: 'auto', error: null });
    expect(parsePaletteSetting('texture')).toEqual({ value: 'texture', error: null });
    expect(parsePaletteSetting('gpu')).toEqual({ value: 'auto', error: 'expected uniform, texture, ubo or auto' });
    expect(parsePaletteSetting('ubo')).toEqual({ value: 'ubo', error: null });
  });
  it('reads skinning modes and weight policies; malformed ones are reported and read as the defaults', () => {
    expect(parseSkinningSetting(null)).toEqual({ value: 'lbs', error: null });
    expect(parseSkinningSetting('DQS')).toEqual({ value: 'dqs', error: null });
    expect(parseSkinningSetting('cor')).toEqual({ value: 'lbs', error: 'expected lbs or dqs' });
    expect(parseWeightsSetting(null)).toEqual({ value: 'normalize', error: null });
    expect(parseWeightsSetting('rest-remainder')).toEqual({ value: 'rest-remainder', error: null });
    expect(parseWeightsSetting('sum')).toEqual({ value: 'normalize', error: 'expected normalize, as-stored, rest-remainder, implicit-last' });
    const { params, errors } = parseViewerParams('?skinning=dqs&weights=implicit-last');
    expect(errors).toEqual([]);
    expect([params.skinning, params.weights]).toEqual(['dqs', 'implicit-last']);
    expect(parseViewerParams('?skinning=x').errors).toEqual(['URL parameter skinning=x: expected lbs or dqs']);
  });
});
