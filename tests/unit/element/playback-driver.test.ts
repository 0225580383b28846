import { describe, expect, it } from 'vitest';
import type { AnimationEventList } from '../../../src/animation/animation-events.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { Playback, startClip, type PlaybackDriver } from '../../../src/view/playback.ts';

// `Playback.driver`: what `<sinew-viewer>`'s animation graph plugs into the view's clock. While set, `advance`
// moves the animator through it (real dt; the clip's own player stands still), a `once` clip never stops
// playback, and binding another model drops it.

describe('Playback.driver', () => {
  it('takes over advance, with the real dt and the events list; bind drops it', () => {
    const model = new AnimatedModel(createOctopusAsset());
    const playback = new Playback();
    playback.loop = 'once';
    playback.bind(model, startClip(model, 0, playback.startOptions(0)));
    const calls: number[] = [];
    const driver: PlaybackDriver = {
      update: (dt: number, events: AnimationEventList) => {
        calls.push(dt);
        events.addGraphEvent('state-enter', 0, 'Swim', '');
      },
    };
    const heard: string[] = [];
    playback.onEvents = (events) => heard.push(events.events[0].name);
    playback.driver = driver;
    playback.speed = 3; // the driver applies a rate itself: advance hands it real seconds
    expect(playback.advance(100)).toBe(false); // far past the `once` clip's end: it does not stop playback
    expect(playback.advance(0.25)).toBe(false);
    expect(calls).toEqual([100, 0.25]);
    expect(heard).toEqual(['Swim', 'Swim']);
    expect(playback.time).toBe(0); // the clip's player did not move
    expect(playback.finished).toBe(false);
    expect(playback.playing).toBe(true);

    playback.bind(model, startClip(model, 0, playback.startOptions(0)));
    expect(playback.driver).toBeNull();
    playback.advance(100);
    expect(calls).toHaveLength(2);
    expect(playback.finished).toBe(true);
    expect(playback.playing).toBe(false);
  });
});
