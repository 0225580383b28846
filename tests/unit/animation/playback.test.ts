import { describe, expect, it } from 'vitest';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { ClipPlayer } from '../../../src/animation/clip-player.ts';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { findKeyframe } from './sample-channel-oracle.ts';
import { wrapClipTime } from './wrap-clip-time.ts';
import { createLocalPose } from '../../../src/skeleton/local-pose.ts';

/** A clip whose joint 0 x-translation equals clip time (LINEAR keys on x = t), so sampling reads time back. */
function rampClip(duration: number, keys = 9): AnimationClip {
  const times = Float32Array.from({ length: keys }, (_, i) => (duration * i) / (keys - 1));
  const values = Float32Array.from({ length: 3 * keys }, (_, i) => (i % 3 === 0 ? times[i / 3] : 0));
  return { name: 'ramp', duration, channels: [{ joint: 0, path: 'translation', interpolation: 'LINEAR', times, values }] };
}

/** |a − b|, except that for `loop` times D apart are the same instant (0 ≡ D). */
function clipTimeDistance(a: number, b: number, duration: number, loop: string): number {
  const d = Math.abs(a - b);
  return loop === 'loop' ? Math.min(d, duration - d) : d;
}

describe('wrapClipTime', () => {
  it('loop is t mod D for any sign', () => {
    expect(wrapClipTime(0.5, 2, 'loop')).toBeCloseTo(0.5, 12);
    expect(wrapClipTime(4.5, 2, 'loop')).toBeCloseTo(0.5, 12);
    expect(wrapClipTime(-0.5, 2, 'loop')).toBeCloseTo(1.5, 12);
    expect(wrapClipTime(-4.5, 2, 'loop')).toBeCloseTo(1.5, 12);
  });
  it('once clamps to [0, D]', () => {
    expect(wrapClipTime(-1, 2, 'once')).toBe(0);
    expect(wrapClipTime(1.25, 2, 'once')).toBe(1.25);
    expect(wrapClipTime(7, 2, 'once')).toBe(2);
  });
  it('pingpong bounces with period 2D', () => {
    expect(wrapClipTime(0.5, 2, 'pingpong')).toBeCloseTo(0.5, 12);
    expect(wrapClipTime(2.5, 2, 'pingpong')).toBeCloseTo(1.5, 12);
    expect(wrapClipTime(3.9, 2, 'pingpong')).toBeCloseTo(0.1, 12);
    expect(wrapClipTime(4.5, 2, 'pingpong')).toBeCloseTo(0.5, 12);
    expect(wrapClipTime(-0.5, 2, 'pingpong')).toBeCloseTo(0.5, 12);
  });
  it('a zero-length clip maps every time to 0', () => {
    for (const mode of ['loop', 'once', 'pingpong'] as const) expect(wrapClipTime(3, 0, mode)).toBe(0);
  });
});

describe('ClipPlayer', () => {
  const pose = createLocalPose(1);
  const x = (player: ClipPlayer) => player.sample(pose).translations[0];

  it('advances by dt·speed and samples between keys, for every loop mode and both directions', () => {
    for (const loop of ['loop', 'once', 'pingpong'] as const) {
      for (const speed of [1, 2.5, -1, -0.7]) {
        const player = new ClipPlayer(compileClip(rampClip(2), 1), loop, speed);
        let t = 0;
        for (let frame = 0; frame < 200; frame++) {
          player.advance(1 / 60);
          t += speed / 60;
          expect(clipTimeDistance(player.time, wrapClipTime(t, 2, loop), 2, loop)).toBeLessThan(1e-6);
          expect(x(player)).toBeCloseTo(player.time, 5);
        }
      }
    }
  });

  it('once reports finished at the end in the direction of play', () => {
    const forward = new ClipPlayer(compileClip(rampClip(1), 1), 'once', 1);
    forward.advance(0.5);
    expect(forward.finished).toBe(false);
    forward.advance(0.6);
    expect(forward.finished).toBe(true);
    expect(forward.time).toBe(1);
    const backward = new ClipPlayer(compileClip(rampClip(1), 1), 'once', -1);
    backward.seek(1);
    backward.advance(0.4);
    expect(backward.time).toBeCloseTo(0.6, 6);
    expect(backward.finished).toBe(false);
    backward.advance(1);
    expect(backward.finished).toBe(true);
    expect(new ClipPlayer(compileClip(rampClip(1), 1), 'loop').finished).toBe(false);
  });

  it('seek jumps anywhere (wrapping by mode) and playback continues from there', () => {
    const player = new ClipPlayer(compileClip(rampClip(2), 1), 'loop');
    player.advance(1.9);
    player.seek(0.3);
    expect(x(player)).toBeCloseTo(0.3, 5);
    player.seek(5.25);
    expect(player.time).toBeCloseTo(1.25, 6);
    player.advance(0.5);
    expect(x(player)).toBeCloseTo(1.75, 5);
    player.advance(0.5);
    expect(x(player)).toBeCloseTo(0.25, 5);
  });

  it('keeps full precision after hours of looping (the playhead stays reduced)', () => {
    const player = new ClipPlayer(compileClip(rampClip(1.5), 1), 'loop');
    for (let i = 0; i < 3600 * 60; i++) player.advance(1 / 60);
    // 216 000 float64 additions of 1/60 drift by ~1e-9 s; the wrapped time must stay that close.
    expect(clipTimeDistance(player.time, wrapClipTime(3600, 1.5, 'loop'), 1.5, 'loop')).toBeLessThan(1e-6);
  });
});

describe('findKeyframe cursor walks', () => {
  it('moves backward by a few keys without a binary search, and still matches a scan', () => {
    const times = Float32Array.from({ length: 40 }, (_, i) => i * 0.25);
    let hint = 38;
    for (let t = 9.9; t > -0.5; t -= 0.07) {
      const k = findKeyframe(times, t, hint);
      let scan = 0;
      while (scan < times.length - 2 && times[scan + 1] <= t) scan++;
      expect(k).toBe(scan);
      hint = k;
    }
  });
});
