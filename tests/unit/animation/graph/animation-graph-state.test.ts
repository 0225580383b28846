import { describe, expect, it } from 'vitest';
import { AnimationGraph } from '../../../../src/animation/graph/animation-graph.ts';
import { AnimationGraphState } from '../../../../src/animation/graph/animation-graph-state.ts';
import { jumpGraphClips, locomotionJumpGraph } from './graph-fixtures.ts';

describe('AnimationGraphState in a shared buffer (how a crowd lays out its instances)', () => {
  const graph = new AnimationGraph(locomotionJumpGraph(), jumpGraphClips());

  it('byteLength holds every array exactly: neighbours in one buffer do not overlap', () => {
    const stride = AnimationGraphState.byteLength(graph.stateSizes);
    expect(stride % 8).toBe(0);
    const buffer = new ArrayBuffer(3 * stride);
    const middle = graph.createState({ buffer, byteOffset: stride });
    const arrays = Object.values(middle) as ArrayBufferView[];
    const end = Math.max(...arrays.map((a) => a.byteOffset + a.byteLength));
    expect(end).toBeLessThanOrEqual(2 * stride);
    expect(end).toBeGreaterThan(2 * stride - 8);
    expect(Math.min(...arrays.map((a) => a.byteOffset))).toBe(stride);
    const bytes = arrays.reduce((sum, a) => sum + a.byteLength, 0);
    expect(bytes).toBe(end - stride); // no gaps, no overlaps (the views are laid end to end)
  });

  it('a state in a shared buffer runs exactly as one with arrays of its own, and its neighbours are untouched', () => {
    const stride = AnimationGraphState.byteLength(graph.stateSizes), buffer = new ArrayBuffer(3 * stride);
    const left = graph.createState({ buffer, byteOffset: 0 }), shared = graph.createState({ buffer, byteOffset: stride }), own = graph.createState();
    const leftBytes = new Uint8Array(buffer, 0, stride).slice();
    const speed = graph.parameterIndex('speed'), jump = graph.parameterIndex('jump');
    for (let frame = 0; frame < 240; frame++) {
      for (const s of [shared, own]) {
        s.parameters[speed] = 0.5 + 0.5 * Math.sin(frame * 0.05);
        if (frame % 60 === 30) s.parameters[jump] = 1;
        graph.update(s, 1 / 60, null);
      }
      for (const key of Object.keys(own) as (keyof AnimationGraphState)[]) {
        expect(Array.from(shared[key] as ArrayLike<number>), `${key} at frame ${frame}`).toEqual(Array.from(own[key] as ArrayLike<number>));
      }
    }
    expect(graph.activeState(shared, 0)).toBe(graph.activeState(own, 0));
    expect(new Uint8Array(buffer, 0, stride)).toEqual(leftBytes);
    expect(new Uint8Array(buffer, 2 * stride, stride).every((b) => b === 0)).toBe(true);
    expect(graph.activeState(left, 0)).toBe('START'); // never updated
  });

  it('storage too small or misaligned: RangeError', () => {
    const stride = AnimationGraphState.byteLength(graph.stateSizes);
    expect(() => graph.createState({ buffer: new ArrayBuffer(stride - 8), byteOffset: 0 })).toThrow(RangeError);
    expect(() => graph.createState({ buffer: new ArrayBuffer(2 * stride), byteOffset: 4 })).toThrow(RangeError);
  });
});
