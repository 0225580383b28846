import { describe, expect, it } from 'vitest';
import { frameTime, MAX_APNG_PIXELS, MAX_VIDEO_FRAMES, planVideo, type VideoSubject } from '../../../src/element/element-video.ts';

// toVideo's options (src/element/element-video.ts): defaults, checks, and the time of each frame.

const FOX: VideoSubject = {
  model: 'Fox.glb',
  clipNames: ['Survey', 'Walk', 'Run'],
  clipDurations: [3.4166667461395264, 0.7083333134651184, 1.1583333015441895],
  clipIndex: 1,
  width: 480,
  height: 480,
};

describe('planVideo', () => {
  it('defaults: the clip shown, 30 fps, its whole duration, WebM, no turn', () => {
    expect(planVideo(undefined, FOX)).toEqual({
      clipIndex: 1, clipDuration: FOX.clipDurations[1], mimeType: 'video/webm', fps: 30, frameCount: Math.round(0.7083333134651184 * 30), turntable: 0,
    });
    expect(planVideo({}, FOX).frameCount).toBe(21);
  });

  it('takes a clip by name, a duration, an fps, a format and a turn; frameCount = round(duration · fps)', () => {
    const plan = planVideo({ clip: 'Run', duration: 5, fps: 24, mimeType: 'image/apng', turntable: 360 }, { ...FOX, width: 100, height: 100 });
    expect(plan).toEqual({ clipIndex: 2, clipDuration: FOX.clipDurations[2], mimeType: 'image/apng', fps: 24, frameCount: 120, turntable: 360 });
    expect(planVideo({ duration: 1.02, fps: 10 }, FOX).frameCount).toBe(10);
    expect(planVideo({ clip: 'rest', duration: 2 }, FOX)).toMatchObject({ clipIndex: -1, clipDuration: 0, frameCount: 60 });
  });

  it('rejects each bad option with what is allowed', () => {
    expect(() => planVideo({ mimeType: 'video/ogg' }, FOX)).toThrow(new TypeError('toVideo: unsupported mimeType "video/ogg"; use one of video/webm, video/mp4, image/apng, image/gif'));
    expect(() => planVideo({ clip: 'Wlak' }, FOX)).toThrow(/^toVideo: Fox\.glb has no clip "Wlak"; did you mean "Walk"\? clips: "Survey", "Walk", "Run"$/);
    expect(() => planVideo({ fps: 0 }, FOX)).toThrow(new RangeError('toVideo: fps must be a number in (0, 240], got 0'));
    expect(() => planVideo({ fps: 241 }, FOX)).toThrow(RangeError);
    expect(() => planVideo({ fps: 60, mimeType: 'image/gif' }, FOX)).toThrow(/\(0, 50\] for image\/gif/);
    expect(() => planVideo({ duration: 0 }, FOX)).toThrow(new RangeError('toVideo: duration must be a positive number of seconds, got 0'));
    expect(() => planVideo({ duration: Infinity }, FOX)).toThrow(RangeError);
    expect(() => planVideo({ duration: 0.01 }, FOX)).toThrow(/less than one frame/);
    expect(() => planVideo({ duration: (MAX_VIDEO_FRAMES + 1) / 30 }, FOX)).toThrow(`is ${MAX_VIDEO_FRAMES + 1} frames; at most ${MAX_VIDEO_FRAMES}`);
    expect(() => planVideo({ duration: MAX_VIDEO_FRAMES / 30 }, FOX)).not.toThrow();
    expect(() => planVideo({ clip: 'rest' }, FOX)).toThrow(/the rest pose has no duration; give options\.duration/);
    expect(() => planVideo({ turntable: Number.NaN }, FOX)).toThrow(RangeError);
    expect(() => planVideo({ onProgress: 3 as never }, FOX)).toThrow(TypeError);
    expect(() => planVideo(null as never, FOX)).toThrow(TypeError);
    // APNG keeps every frame's pixels until it compresses them.
    const frames = Math.floor(MAX_APNG_PIXELS / (480 * 480));
    expect(() => planVideo({ mimeType: 'image/apng', fps: 1, duration: frames }, FOX)).not.toThrow();
    expect(() => planVideo({ mimeType: 'image/apng', fps: 1, duration: frames + 1 }, FOX)).toThrow(/image\/apng/);
  });
});

describe('frameTime', () => {
  it('is k / fps, wrapped into the clip (a longer recording loops it); 0 for a clip without duration', () => {
    const plan = planVideo({ clip: 'Run', fps: 30, duration: 3 }, FOX);
    for (const k of [0, 1, 7, 30, 34]) expect(frameTime(plan, k)).toBe(k / 30);
    const d = FOX.clipDurations[2];
    expect(frameTime(plan, 35)).toBeCloseTo(35 / 30 - d, 12);
    expect(frameTime(plan, 89)).toBeCloseTo(89 / 30 - 2 * d, 12);
    for (let k = 0; k < plan.frameCount; k++) {
      expect(frameTime(plan, k)).toBeGreaterThanOrEqual(0);
      expect(frameTime(plan, k)).toBeLessThan(d);
    }
    expect(frameTime(planVideo({ clip: 'rest', duration: 1 }, FOX), 12)).toBe(0);
  });
});
