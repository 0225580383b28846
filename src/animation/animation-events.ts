import type { RuntimeClip } from './runtime-clip.ts';

/**
 * What happened to a playing clip during an `Animator.update` (names as `<model-viewer>`'s events):
 * - `loop`: the playhead wrapped (`loop` mode) or bounced (`pingpong`, each end) and plays on;
 * - `finished`: a `once` clip reached its end in the direction of play, or a clip played its
 *   `PlayOptions.repetitions` (the last repetition's end fires `finished`, not `loop`);
 * - `marker`: the playhead crossed one of the clip's markers (`ClipMarker`, `Animator.addMarker`);
 * - `state-enter`, `state-exit`, `transition-start`, `transition-end`: an `AnimationGraph` layer entered a state
 *   (`name`), stopped playing one (faded out), started or finished a transition to `name` from `source`
 *   (docs/guide/animation-graph.md). These have no clip.
 */
export type AnimationEventType = 'loop' | 'finished' | 'marker' | 'state-enter' | 'state-exit' | 'transition-start' | 'transition-end';

/**
 * One event: a record of an {@link AnimationEventList}, reused from frame to frame (copy what you keep).
 * Fields are written by the animator only ({@link AnimationEventList.add}).
 */
export class AnimationEvent {
  type: AnimationEventType = 'loop';
  /** The animator layer the clip plays on (graph events: the graph's layer). */
  layer = 0;
  /** The clip (its `name` names it); null for graph events and in a record never written. */
  clip: RuntimeClip | null = null;
  /** `marker`: the marker's name; graph events: the state entered, left, or transitioned to; '' otherwise. */
  name = '';
  /** `transition-start`, `transition-end`: the state the transition left ('' for the other types). */
  source = '';
  /**
   * `loop` and `finished`: plays of the clip completed since it was started or sought (1 at the first wrap
   * or bounce; `once`: 1). `marker`: the same count at the crossing (0 during the first play).
   */
  count = 0;
  /** Seconds: the clip time of the event (the marker's time; for `loop` and `finished` the end reached). */
  time = 0.5;
  /** The clip's fade weight in [0, 1] when it happened (a clip fading out of a crossfade still reports). */
  weight = 0.5;
}

/**
 * A caller-owned, reusable list of {@link AnimationEvent}s, filled by `Animator.update(dt, events)` in the
 * order they happened within the update (per clip; clips in layer order). Records are pooled: the list grows
 * to the most events one update has produced and then allocates nothing. Read `events[0 … length−1]`.
 *
 * ```ts
 * const events = new AnimationEventList();     // once
 * animator.update(dt, events);                 // each frame: cleared, then filled
 * for (let i = 0; i < events.length; i++) {
 *   const e = events.events[i];
 *   if (e.type === 'marker' && e.name === 'footstep') playSound();
 * }
 * ```
 */
export class AnimationEventList {
  /** The pooled records; only the first {@link length} are this update's. */
  readonly events: AnimationEvent[] = [];
  /** Number of events of the last update. */
  length = 0;

  /** Forgets the events (keeps the records). */
  clear(): void {
    this.length = 0;
  }

  /**
   * Appends an event and returns its pooled record for the caller to fill (allocating one only when the pool
   * is exhausted). Filled in place, so no floating-point value crosses a call (V8 would box it on the heap).
   */
  add(type: AnimationEventType, layer: number, clip: RuntimeClip, name: string, count: number): AnimationEvent {
    if (this.length === this.events.length) this.events.push(new AnimationEvent());
    const e = this.events[this.length++];
    e.type = type;
    e.layer = layer;
    e.clip = clip;
    e.name = name;
    e.source = '';
    e.count = count;
    return e;
  }

  /**
   * Appends an `AnimationGraph` event (`state-enter`, `state-exit`, `transition-start`, `transition-end`): no
   * clip, count 0, time 0, weight 1. Allocates only when the pool is exhausted.
   */
  addGraphEvent(type: AnimationEventType, layer: number, name: string, source: string): AnimationEvent {
    if (this.length === this.events.length) this.events.push(new AnimationEvent());
    const e = this.events[this.length++];
    e.type = type;
    e.layer = layer;
    e.clip = null;
    e.name = name;
    e.source = source;
    e.count = 0;
    e.time = 0;
    e.weight = 1;
    return e;
  }
}
