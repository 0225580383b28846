import { describe, expect, it } from 'vitest';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { Playback, startClip } from '../../../src/view/playback.ts';

/** A playback bound to a fresh octopus, its first clip started at `startTime` (a cut). */
function setup(startTime?: number): { playback: Playback; model: AnimatedModel; duration: number } {
  const model = new AnimatedModel(createOctopusAsset());
  const playback = new Playback();
  playback.bind(model, startClip(model, 0, playback.startOptions(0, startTime)));
  return { playback, model, duration: model.asset.clips[0].duration };
}

describe('viewer Playback over the Animator', () => {
  it('reports the current clip time and duration; advance moves it at the speed, looping', () => {
    const { playback, model, duration } = setup();
    expect(duration).toBeGreaterThan(0.5);
    expect([playback.time, playback.duration, playback.clipIndex, playback.activeClips]).toEqual([0, duration, 0, 1]);
    playback.advance(0.25);
    expect(playback.time).toBeCloseTo(0.25, 12);
    playback.speed = 2;
    playback.advance(0.1);
    expect(playback.time).toBeCloseTo(0.45, 12);
    playback.advance(duration / 2);
    expect(playback.time).toBeCloseTo(0.45, 9); // 2 × d/2 = one full loop
    expect(model.animator.player()!.speed).toBe(2);
  });

  it('negative speed plays backwards, wrapping through 0', () => {
    const { playback, duration } = setup(0.5);
    playback.speed = -1;
    playback.advance(0.2);
    expect(playback.time).toBeCloseTo(0.3, 12);
    playback.advance(0.5);
    expect(playback.time).toBeCloseTo(duration - 0.2, 9);
  });

  it('once clamps at the end and reports finished; pingpong comes back', () => {
    const { playback, duration } = setup();
    playback.loop = 'once';
    playback.seek(duration - 0.1);
    playback.advance(0.3);
    expect(playback.time).toBe(duration);
    expect(playback.finished).toBe(true);
    playback.loop = 'pingpong';
    expect(playback.time).toBe(duration); // changing the mode keeps the time
    expect(playback.finished).toBe(false);
    playback.seek(duration - 0.1);
    playback.advance(0.3);
    expect(playback.time).toBeCloseTo(duration - 0.2, 9);
    playback.advance(0.1);
    expect(playback.time).toBeCloseTo(duration - 0.3, 9);
  });

  it('seeks clamp to [0, duration]; a looping clip sought to its end shows the end, then wraps on', () => {
    const { playback, model, duration } = setup();
    playback.seek(-3);
    expect(playback.time).toBe(0);
    playback.seek(1e6);
    expect(playback.time).toBe(duration);
    expect(playback.loop).toBe('loop');
    playback.advance(0.1);
    expect(playback.time).toBeCloseTo(0.1, 12);
    expect(model.animator.player()!.loop).toBe('loop');
    // Starting at the end (as ?time=duration does) behaves the same.
    const atEnd = setup(1e6);
    expect(atEnd.playback.time).toBe(atEnd.duration);
    atEnd.playback.advance(0.2);
    expect(atEnd.playback.time).toBeCloseTo(0.2, 12);
  });

  it('select crossfades from the current clip; seek cuts the crossfade; −1 fades to rest', () => {
    const model = new AnimatedModel(createOctopusAsset());
    const playback = new Playback();
    playback.bind(model, startClip(model, 0, playback.startOptions(0)));
    const clips = model.asset.clips.length;
    const other = clips > 1 ? 1 : 0;
    playback.advance(0.2);
    playback.select(other, 0.5);
    expect(playback.clipIndex).toBe(other);
    expect(playback.time).toBe(0);
    expect(playback.activeClips).toBe(2);
    playback.advance(0.25);
    expect(playback.activeClips).toBe(2);
    expect(playback.time).toBeCloseTo(0.25, 12);
    playback.seek(0.1);
    expect(playback.activeClips).toBe(1);
    expect(playback.time).toBeCloseTo(0.1, 12);
    expect(playback.clipIndex).toBe(other);
    // A paused selection keeps the time (a cut).
    playback.select(0, 0, 0.4);
    expect([playback.clipIndex, playback.activeClips]).toEqual([0, 1]);
    expect(playback.time).toBeCloseTo(0.4, 12);
    playback.select(-1, 0.5);
    expect([playback.clipIndex, playback.time, playback.duration]).toEqual([-1, 0, 0]);
    expect(playback.activeClips).toBe(1); // still fading out
    playback.advance(0.6);
    expect(playback.activeClips).toBe(0);
  });

  it('negative speed with once starts a selected clip at its end', () => {
    const { playback, duration } = setup();
    playback.speed = -1;
    playback.loop = 'once';
    playback.select(0, 0);
    expect(playback.time).toBe(duration);
    playback.advance(0.1);
    expect(playback.time).toBeCloseTo(duration - 0.1, 9);
  });

  it('a once clip ending while playing stops playback; play() restarts it from the start', () => {
    const { playback, duration } = setup();
    playback.loop = 'once';
    playback.seek(duration - 0.1);
    expect(playback.playing).toBe(true);
    expect(playback.advance(0.05)).toBe(false);
    expect(playback.playing).toBe(true);
    expect(playback.advance(0.1)).toBe(true); // reached the end: stopped there
    expect([playback.playing, playback.finished, playback.time]).toEqual([false, true, duration]);
    // Stepping while paused never reports a stop.
    expect(playback.advance(0.1)).toBe(false);
    expect(playback.time).toBe(duration);
    playback.play();
    expect([playback.playing, playback.finished, playback.time]).toEqual([true, false, 0]);
    playback.advance(0.2);
    expect(playback.time).toBeCloseTo(0.2, 12);
    // play() while not finished keeps the time.
    playback.playing = false;
    playback.play();
    expect(playback.time).toBeCloseTo(0.2, 12);
  });

  it('backwards, a once clip stops at 0 and play() restarts it from the end', () => {
    const { playback, duration } = setup(0.3);
    playback.loop = 'once';
    playback.speed = -1;
    expect(playback.advance(0.5)).toBe(true);
    expect([playback.playing, playback.finished, playback.time]).toEqual([false, true, 0]);
    playback.play();
    expect([playback.playing, playback.time]).toEqual([true, duration]);
    playback.advance(0.1);
    expect(playback.time).toBeCloseTo(duration - 0.1, 9);
    // Turning forwards at 0: not finished any more, so play() goes on from 0.
    expect(playback.advance(duration)).toBe(true);
    playback.speed = 1;
    expect(playback.finished).toBe(false);
    playback.play();
    expect(playback.time).toBe(0);
  });

  it('a once clip ending during a crossfade stops playback; play() cuts the fade and restarts', () => {
    const { playback, model } = setup();
    const other = model.asset.clips.length > 1 ? 1 : 0;
    const otherDuration = model.asset.clips[other].duration;
    playback.loop = 'once';
    playback.select(other, otherDuration + 1); // a fade longer than the clip
    expect(playback.advance(otherDuration + 0.1)).toBe(true);
    expect(playback.activeClips).toBe(2);
    playback.play();
    expect([playback.time, playback.activeClips, playback.clipIndex]).toEqual([0, 1, other]);
  });

  it('loop and pingpong clips never stop playback; a looping clip sought to its end is not finished', () => {
    const { playback, duration } = setup();
    playback.seek(duration);
    expect(playback.finished).toBe(false);
    playback.play();
    expect(playback.time).toBe(duration); // play() does not restart it (the end shows until time moves)
    expect(playback.advance(duration * 2.5)).toBe(false);
    playback.loop = 'pingpong';
    expect(playback.advance(duration * 2.5)).toBe(false);
    expect(playback.playing).toBe(true);
  });

  it('speed applies to every clip playing: the one fading out follows a change made during the fade', () => {
    const { playback, model } = setup();
    const other = model.asset.clips.length > 1 ? 1 : 0;
    playback.advance(0.5);
    const fadingOut = model.animator.player()!;
    playback.select(other, 1);
    const current = model.animator.player()!;
    expect(current).not.toBe(fadingOut);
    expect(playback.activeClips).toBe(2);
    playback.speed = -0.5;
    expect([fadingOut.speed, current.speed]).toEqual([-0.5, -0.5]);
    playback.advance(0.2);
    expect(fadingOut.time).toBeCloseTo(0.4, 12); // 0.5 − 0.2 × 0.5: backwards at the new speed
    expect(current.time).toBeCloseTo(model.asset.clips[other].duration - 0.1, 9);
    // After the fade the old slot is reused with the speed then in force.
    playback.advance(1);
    expect(playback.activeClips).toBe(1);
    playback.speed = 2;
    playback.select(0, 0.5);
    expect(model.animator.player()!.speed).toBe(2);
    expect(current.speed).toBe(2);
    // A new model starts afresh: players of the old one are not touched any more.
    const next = new AnimatedModel(createOctopusAsset());
    const nextPlayer = startClip(next, 0, playback.startOptions(0));
    playback.bind(next, nextPlayer);
    playback.speed = 3;
    expect([nextPlayer!.speed, current.speed]).toEqual([3, 2]);
  });

  it('rejects settings that are not numbers or modes', () => {
    const playback = new Playback();
    expect(() => (playback.speed = Number.NaN)).toThrow(RangeError);
    expect(() => (playback.fade = -1)).toThrow(RangeError);
    expect(() => (playback.loop = 'bounce' as never)).toThrow(RangeError);
    expect(playback.settings()).toEqual({ speed: 1, loop: 'loop', fade: 0.3 });
  });
});

describe('resolveStartClip: an unknown clip', () => {
  it('warns with a case-insensitive "did you mean" and the clips, and plays the first clip', async () => {
    const { resolveStartClip } = await import('../../../src/view/playback.ts');
    const octopus = createOctopusAsset(); // clips: swim, curl, wave
    expect(resolveStartClip(octopus, 'Swim')).toEqual({
      clipIndex: 0,
      warning: 'octopus (built-in): no clip "Swim" (did you mean "swim"? clips: "swim", "curl", "wave"); playing "swim"',
    });
    // "dance" is over three edits from each: no suggestion.
    expect(resolveStartClip(octopus, 'dance').warning).toBe('octopus (built-in): no clip "dance" (clips: "swim", "curl", "wave"); playing "swim"');
    expect(resolveStartClip(octopus, 'wave')).toEqual({ clipIndex: 2, warning: null });
  });
});
