import { describe, expect, it } from 'vitest';
import type { AnimationClip } from '../../../src/asset/animation-clip.ts';
import { Animator } from '../../../src/animation/animator.ts';
import { AnimationEventList } from '../../../src/animation/animation-events.ts';
import { compileClip, type RuntimeClip } from '../../../src/animation/runtime-clip.ts';
import type { LoopMode } from '../../../src/animation/loop-mode.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';

/** One joint sliding along x over `duration` seconds, with markers at 0, D/4, D/2 and D. */
function markedClip(duration = 1): RuntimeClip {
  const clip: AnimationClip = {
    name: 'slide',
    duration,
    channels: [{ joint: 0, path: 'translation', interpolation: 'LINEAR', times: Float32Array.of(0, duration), values: Float32Array.of(0, 0, 0, 1, 0, 0) }],
    markers: [{ time: duration / 2, name: 'b' }, { time: duration, name: 'end' }, { time: 0, name: 'start' }, { time: duration / 4, name: 'a' }],
  };
  return compileClip(clip, 1);
}

type Seen = string;

/** Plays `clip` with `steps` (seconds each) and lists every event as `type:name:count@time`. */
function run(clip: RuntimeClip, steps: readonly number[], loop: LoopMode, speed = 1, repetitions?: number): Seen[] {
  const animator = new Animator(clip.requiredJointCount);
  animator.play(clip, { loop, speed, repetitions });
  const events = new AnimationEventList();
  const seen: Seen[] = [];
  for (const dt of steps) {
    animator.update(dt, events);
    for (let i = 0; i < events.length; i++) {
      const e = events.events[i];
      expect(e.clip).toBe(clip);
      seen.push(`${e.type}:${e.name}:${e.count}@${e.time}`);
    }
  }
  return seen;
}

/** Steps that add up to `total`, multiples of 1/64 s (exact in binary, so partitions agree to the bit). */
function partition(total: number, seed: number): number[] {
  let s = seed;
  const steps: number[] = [];
  let left = total * 64;
  while (left > 0) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const n = Math.min(left, 1 + (s % 150)); // up to 2.3 clip durations in one step
    steps.push(n / 64);
    left -= n;
  }
  return steps;
}

describe('animation events (loop, finished, marker)', () => {
  const clip = markedClip();

  it('loop mode: each marker once per crossing, in order, however dt cuts the path (one step of 10 loops included)', () => {
    const fine = run(clip, Array(640).fill(1 / 64), 'loop');
    expect(fine.filter((e) => e === 'marker:b:0@0.5')).toHaveLength(1);
    expect(fine.filter((e) => e.startsWith('marker:b:'))).toHaveLength(10);
    expect(fine.filter((e) => e.startsWith('loop:'))).toEqual(Array.from({ length: 10 }, (_, k) => `loop::${k + 1}@1`));
    // `start` (t = 0) is not crossed when the clip starts, then once per wrap (the 10th ends on it).
    expect(fine.filter((e) => e.startsWith('marker:start'))).toHaveLength(10);
    expect(fine.slice(0, 6)).toEqual(['marker:a:0@0.25', 'marker:b:0@0.5', 'marker:end:0@1', 'loop::1@1', 'marker:start:1@0', 'marker:a:1@0.25']);
    expect(run(clip, [10], 'loop')).toEqual(fine);
    for (const seed of [1, 2, 3]) expect(run(clip, partition(10, seed), 'loop')).toEqual(fine);
  });

  it('dt longer than the clip: every crossing of the step, in order', () => {
    expect(run(clip, [2.5], 'loop')).toEqual([
      'marker:a:0@0.25', 'marker:b:0@0.5', 'marker:end:0@1', 'loop::1@1',
      'marker:start:1@0', 'marker:a:1@0.25', 'marker:b:1@0.5', 'marker:end:1@1', 'loop::2@1',
      'marker:start:2@0', 'marker:a:2@0.25', 'marker:b:2@0.5',
    ]);
  });

  it('backwards: markers in reverse order, once each, independent of dt', () => {
    const fine = run(clip, Array(320).fill(1 / 64), 'loop', -1);
    // Starting at 0 ≡ the end: `end` is the start instant, not crossed until the first wrap.
    expect(fine.slice(0, 6)).toEqual(['marker:b:0@0.5', 'marker:a:0@0.25', 'marker:start:0@0', 'loop::1@0', 'marker:end:1@1', 'marker:b:1@0.5']);
    expect(fine.filter((e) => e.startsWith('marker:a:'))).toHaveLength(5);
    expect(fine.filter((e) => e.startsWith('loop:'))).toHaveLength(5);
    expect(fine.at(-1)).toBe('marker:end:5@1');
    expect(run(clip, [5], 'loop', -1)).toEqual(fine);
    for (const seed of [4, 5]) expect(run(clip, partition(5, seed), 'loop', -1)).toEqual(fine);
  });

  it('ping-pong: a marker on a bounce fires once per bounce; others once per pass each way', () => {
    const fine = run(clip, Array(256).fill(1 / 64), 'pingpong');
    expect(fine.slice(0, 9)).toEqual([
      'marker:a:0@0.25', 'marker:b:0@0.5', 'marker:end:0@1', 'loop::1@1',
      'marker:b:1@0.5', 'marker:a:1@0.25', 'marker:start:1@0', 'loop::2@0', 'marker:a:2@0.25',
    ]);
    expect(fine.filter((e) => e.startsWith('marker:end'))).toHaveLength(2);
    expect(fine.filter((e) => e.startsWith('marker:start'))).toHaveLength(2);
    expect(fine.filter((e) => e.startsWith('marker:b'))).toHaveLength(4);
    expect(run(clip, [4], 'pingpong')).toEqual(fine);
    for (const seed of [6, 7]) expect(run(clip, partition(4, seed), 'pingpong')).toEqual(fine);
    const back = run(clip, Array(256).fill(1 / 64), 'pingpong', -1);
    expect(run(clip, partition(4, 8), 'pingpong', -1)).toEqual(back);
    expect(back.filter((e) => e.startsWith('marker:b'))).toHaveLength(4);
  });

  it('once: `finished` fires once at the end (forward and backward), markers on the way, then nothing', () => {
    expect(run(clip, [0.3, 0.3, 0.3, 0.3, 0.3, 5], 'once')).toEqual(['marker:a:0@0.25', 'marker:b:0@0.5', 'marker:end:0@1', 'finished::1@1']);
    expect(run(clip, [7], 'once')).toEqual(['marker:a:0@0.25', 'marker:b:0@0.5', 'marker:end:0@1', 'finished::1@1']);
    expect(run(clip, [0.5, 0.5, 0.5], 'once', -1)).toEqual(['marker:b:0@0.5', 'marker:a:0@0.25', 'marker:start:0@0', 'finished::1@0']);
  });

  it('repetitions: n − 1 loops then `finished`, holding the end pose', () => {
    const animator = new Animator(1);
    const player = animator.play(clip, { repetitions: 3 });
    const events = new AnimationEventList();
    const types: string[] = [];
    for (let i = 0; i < 20; i++) {
      animator.update(0.25, events);
      for (let k = 0; k < events.length; k++) if (events.events[k].type !== 'marker') types.push(`${events.events[k].type}${events.events[k].count}`);
    }
    expect(types).toEqual(['loop1', 'loop2', 'finished3']);
    expect(player.finished).toBe(true);
    expect(player.time).toBe(1);
    expect(player.loopCount).toBe(3);
    expect(run(clip, [10], 'loop', 1, 2).filter((e) => !e.startsWith('marker'))).toEqual(['loop::1@1', 'finished::2@1']);
    expect(run(clip, [10], 'pingpong', 1, 2).filter((e) => !e.startsWith('marker'))).toEqual(['loop::1@1', 'finished::2@0']);
    expect(() => animator.play(clip, { repetitions: 0 })).toThrow(RangeError);
    expect(() => animator.play(clip, { repetitions: 1.5 })).toThrow(RangeError);
  });

  it('addMarker: reported for the clip this animator plays, also when added while it plays; bad times throw', () => {
    const animator = new Animator(1);
    animator.play(clip);
    animator.addMarker(clip, 0.75, 'c');
    const events = new AnimationEventList();
    animator.update(0.8, events);
    const names = events.events.slice(0, events.length).map((e) => e.name);
    expect(names).toEqual(['a', 'b', 'c']);
    expect(() => animator.addMarker(clip, 1.5, 'late')).toThrow(RangeError);
    expect(() => animator.addMarker(clip, Number.NaN, 'nan')).toThrow(RangeError);
    // The clip itself is unchanged: another animator reports only its own markers.
    expect(run(clip, [0.8], 'loop')).toEqual(['marker:a:0@0.25', 'marker:b:0@0.5']);
  });

  it('a crossfade: the clip fading out reports too, with its weight, on its layer; the list reuses its records', () => {
    const other = markedClip(2);
    const animator = new Animator(1);
    animator.play(clip);
    animator.update(0.2);
    animator.play(other, { fade: 1 });
    const events = new AnimationEventList();
    animator.update(0.01, events);
    expect(events.length).toBe(0);
    animator.update(0.1, events);
    expect(events.length).toBe(1);
    expect(events.events[0]).toMatchObject({ type: 'marker', name: 'a', layer: 0, clip, count: 0 });
    expect(events.events[0].weight).toBeCloseTo(0.99, 6);
    const record = events.events[0];
    animator.update(0.25, events);
    expect(events.length).toBe(1);
    expect(events.events[0]).toBe(record);
    expect(events.events[0]).toMatchObject({ name: 'b', clip });
  });

  it('update without a list moves time as before and returns null', () => {
    const animator = new Animator(1);
    const player = animator.play(clip);
    expect(animator.update(2.25)).toBeNull();
    expect(player.time).toBe(0.25);
    expect(player.loopCount).toBe(2);
  });
});

describe('compileClip markers', () => {
  it('sorts markers by time and rejects one outside the clip', () => {
    expect(Array.from(markedClip().markers.names)).toEqual(['start', 'a', 'b', 'end']);
    const bad: AnimationClip = { name: 'x', duration: 1, channels: [], markers: [{ time: 2, name: 'late' }] };
    expect(() => compileClip(bad, 1)).toThrow(/marker 0: time 2/);
  });
});

describe('glTF animation extras markers', () => {
  it('loads `extras: { markers: [{ time, name }] }` into AnimationClip.markers; malformed entries are skipped with a warning', async () => {
    const b = skinnedQuad();
    b.json.animations[0].extras = { markers: [{ time: 0.5, name: 'step' }, { time: 0.25, name: 'lift' }, { time: 3, name: 'late' }, { name: 'no time' }] };
    const asset = await parseGltf('marked.glb', b.glb());
    expect(asset.clips[0].markers).toEqual([{ time: 0.5, name: 'step' }, { time: 0.25, name: 'lift' }]);
    // The loader folds warnings alike into one.
    expect(asset.warnings.filter((w) => w.includes('/extras/markers'))).toEqual([expect.stringMatching(/\/animations\/0\/extras\/markers\/2 is not .*skipped \(and 1 more like it\)/)]);
    const runtime = compileClip(asset.clips[0], asset.skeleton.jointCount);
    expect(run(runtime, [1], 'once')).toEqual(['marker:lift:0@0.25', 'marker:step:0@0.5', 'finished::1@1']);
    const plain = await parseGltf('plain.glb', skinnedQuad().glb());
    expect(plain.clips[0].markers).toBeUndefined();
  });
});
