import type { LocalPose } from '../skeleton/local-pose.ts';
import type { AnimationEvent, AnimationEventList } from './animation-events.ts';
import type { MarkerTrack } from './clip-markers.ts';
import { wrapPlayhead, type LoopMode } from './loop-mode.ts';
import type { RuntimeClip } from './runtime-clip.ts';
import { sampleClipAt } from './sample-clip.ts';
import { SamplingContext } from './sampling-context.ts';

/**
 * The playhead of one clip: time in seconds, speed (negative plays backwards), loop mode, and its own
 * {@link SamplingContext}, so forward (or backward) playback finds each timeline's interval in O(1) amortised
 * and a {@link ClipPlayer.seek} costs O(log k) per timeline (`findKeyframe`).
 *
 * The playhead is kept reduced to one period ({@link wrapPlayhead}). Allocation happens only in the
 * constructor and in {@link ClipPlayer.setClip} when a clip has more timelines than any before; `advance` and
 * `sample` allocate nothing (`advance` writes events into the caller's list).
 *
 * Events (ozz-animation's track triggering job, docs/guide/events.md): `advance` sweeps the
 * playhead's path, unreduced, and reports each end reached (`loop`, `finished`) and each marker crossed, in
 * the order met, however many periods one step spans, in either direction. Going forward the swept span is
 * (from, to], backward [to, from): an instant is crossed once even when a step ends on it, and the instant
 * the playhead starts from is not crossed (a marker at 0 fires at each wrap, not when the clip starts).
 */
export class ClipPlayer {
  /** Playback rate: 1 real time, 2 double speed, −1 backwards, 0 paused. */
  speed = 1;
  loop: LoopMode = 'loop';
  /**
   * `[clip time, playhead, duration]`, seconds: the time {@link sample} evaluates (first, so the array is the
   * clock the sampler reads), the playhead reduced to one period, the clip's duration ({@link wrapPlayhead}).
   */
  readonly clock = new Float64Array(3);
  /**
   * `loop` and `pingpong`: plays before the clip finishes (each wrap or bounce ends one); `Infinity` (default)
   * never finishes. `once` plays once whatever this says. Set it before time moves; {@link seek} restarts the
   * count.
   */
  repetitions = Infinity;
  /**
   * `[from, to, event time]`: the playhead's path for {@link sweep} and the clip time of the event being
   * reported, seconds (typed: no floating-point value crosses a call).
   */
  private readonly span = new Float64Array(3);
  /** The weight written into the events {@link advance} reports, in [0, 1] (the animator sets the fade weight). */
  eventWeight = 0.5;
  /** The markers {@link advance} reports (the clip's own, `RuntimeClip.markers`, unless the owner sets others). */
  markers: MarkerTrack;
  private current: RuntimeClip;
  private readonly context: SamplingContext;
  /** Wraps and bounces completed since the clip was started or sought (`once`: 1 once finished). */
  private loops = 0;
  /** The repetitions are played: the playhead holds at the last end reached. */
  private done = false;
  /** `loop` mode: wraps forward minus wraps backward since the clip was started or sought. */
  private netWraps = 0;

  /**
   * @param context the player's own sampling context (cursors, and the back end of its streamed
   *   channels); default a new portable one
   */
  constructor(clip: RuntimeClip, loop: LoopMode = 'loop', speed = 1, context: SamplingContext = new SamplingContext()) {
    this.context = context;
    this.current = clip;
    this.markers = clip.markers;
    this.clock[2] = clip.duration;
    this.loop = loop;
    this.speed = speed;
  }

  /** Plays completed since the clip was started or sought: wraps and bounces so far, 1 for a finished `once`. */
  get loopCount(): number {
    return this.loops;
  }

  /**
   * `loop` mode: wraps forward minus wraps backward since the clip was started or sought (0 in the other
   * modes), so that playhead = cycles·duration + time: root motion counts whole clips by it.
   */
  get cycles(): number {
    return this.netWraps;
  }

  /** The clip played ({@link setClip} changes it). */
  get clip(): RuntimeClip {
    return this.current;
  }

  /** Binds another clip, rewinds to 0 (or to the end for negative speed with `once`), keeps speed and mode. */
  setClip(clip: RuntimeClip): void {
    this.current = clip;
    this.markers = clip.markers;
    this.loops = 0;
    this.netWraps = 0;
    this.done = false;
    this.clock[2] = clip.duration;
    this.clock[1] = this.speed < 0 && this.loop === 'once' ? clip.duration : 0;
    wrapPlayhead(this.clock, this.loop);
  }

  /** Clip time in seconds, in [0, duration], that {@link sample} evaluates. */
  get time(): number {
    return this.clock[0];
  }

  /**
   * True when a `once` clip has reached its end in the direction of play (duration for speed ≥ 0, 0 for
   * negative speed), or a clip has played its {@link repetitions}. Looping clips never finish otherwise.
   */
  get finished(): boolean {
    if (this.done) return true;
    if (this.loop !== 'once') return false;
    return this.speed >= 0 ? this.clock[1] >= this.clock[2] : this.clock[1] <= 0;
  }

  /**
   * Starts the {@link repetitions} count over from here without moving the playhead (`<model-viewer>`'s
   * `play({repetitions})` counts from the call; a finished clip plays again). Root-motion cycles are kept.
   */
  restartCount(): void {
    this.loops = 0;
    this.done = false;
  }

  /**
   * Moves the playhead to `timeSeconds` (clip time; out-of-range times wrap, clamp or bounce by the loop
   * mode). The next sample re-finds each timeline's key by binary search, O(log k).
   */
  seek(timeSeconds: number): void {
    this.loops = 0;
    this.netWraps = 0;
    this.done = false;
    this.clock[1] = timeSeconds;
    wrapPlayhead(this.clock, this.loop);
  }

  /**
   * Advances the playhead by `dtSeconds · speed` (nothing once the {@link repetitions} are played), reporting
   * what it crosses into `events` when given (see the class comment).
   * @param events the caller's list, appended to (not cleared); null: count loops only
   * @param layer written into each event (the animator layer), with {@link eventWeight}
   */
  advance(dtSeconds: number, events: AnimationEventList | null = null, layer = 0): void {
    if (this.done) return;
    const clock = this.clock;
    const d = clock[2];
    const from = clock[1];
    let to = from + dtSeconds * this.speed;
    if (d > 0 && to !== from && to - from < Infinity && from - to < Infinity) {
      if (this.loop === 'once') {
        const end = to > from ? d : 0;
        if (events !== null) {
          this.span[0] = from;
          this.span[1] = to > d ? d : to < 0 ? 0 : to;
          this.sweep(events, layer);
        }
        if (from !== end && (to > from ? to >= d : to <= 0)) {
          this.loops = 1;
          if (events !== null) {
            this.span[2] = end;
            this.report(events.add('finished', layer, this.current, '', 1));
          }
        }
      } else {
        const n = to > from ? Math.floor(to / d) - Math.floor(from / d) : Math.ceil(from / d) - Math.ceil(to / d);
        let left = n;
        if (this.loops + n >= this.repetitions) {
          // The last repetition ends inside this step: stop on that end.
          left = Math.max(1, this.repetitions - this.loops);
          to = (to > from ? Math.floor(from / d) + left : Math.ceil(from / d) - left) * d;
          this.done = true;
        }
        if (events !== null) {
          this.span[0] = from;
          this.span[1] = to;
          this.sweep(events, layer);
        }
        this.loops += left;
        // A stop on the end going forward holds clip time D of the span before the boundary.
        if (this.loop === 'loop') this.netWraps += Math.floor(to / d) - Math.floor(from / d) - (this.done && to > from ? 1 : 0);
      }
    }
    clock[1] = to;
    wrapPlayhead(clock, this.loop);
    if (this.done) {
      // Hold the end reached, which the reduced playhead would show as the other end.
      const h = Math.round(to / d);
      clock[0] = this.loop === 'pingpong' ? (h & 1 ? d : 0) : from < to ? d : 0;
    }
  }

  /** Fills an event's time (seconds, from `span[2]`) and weight. */
  private report(event: AnimationEvent): void {
    event.time = this.span[2];
    event.weight = this.eventWeight;
  }

  /**
   * Reports the markers and ends met going from playhead `from` to `to` ({@link span}: seconds, unreduced;
   * `once`: clamped to [0, D]) in the order met: the path is cut into spans of one duration D (span h = [hD, (h+1)D], played
   * backwards in odd spans of `pingpong`), each span's markers then its far end. In `pingpong` a marker on a
   * bounce belongs to the span ending there only.
   */
  private sweep(events: AnimationEventList, layer: number): void {
    const d = this.clock[2], from = this.span[0], to = this.span[1];
    const times = this.markers.times, names = this.markers.names, n = times.length;
    const clip = this.current, once = this.loop === 'once', pingpong = this.loop === 'pingpong';
    const last = this.repetitions;
    let count = this.loops;
    if (to > from) {
      // Up to the span starting at or before `to`: its markers at 0 may sit on `to` itself.
      const hEnd = once ? 0 : Math.floor(to / d);
      for (let h = Math.floor(from / d); h <= hEnd; h++) {
        const base = h * d, reversed = pingpong && (h & 1) !== 0;
        for (let i = 0; i < n; i++) {
          const k = reversed ? n - 1 - i : i;
          const local = reversed ? d - times[k] : times[k];
          const at = base + local;
          if (at > from && at <= to && !(pingpong && local === 0)) {
            this.span[2] = times[k];
            this.report(events.add('marker', layer, clip, names[k], count));
          }
        }
        const end = base + d;
        if (!once && end > from && end <= to) {
          count++;
          this.span[2] = reversed ? 0 : d;
          this.report(events.add(count >= last ? 'finished' : 'loop', layer, clip, '', count));
        }
      }
    } else {
      // Down to the span ending at or after `to`: its markers at D may sit on `to` itself.
      const hStart = once ? 0 : Math.floor(to / d) - 1;
      for (let h = Math.ceil(from / d) - 1; h >= hStart; h--) {
        const base = h * d, reversed = pingpong && (h & 1) !== 0;
        for (let i = n - 1; i >= 0; i--) {
          const k = reversed ? n - 1 - i : i;
          const local = reversed ? d - times[k] : times[k];
          const at = base + local;
          if (at >= to && at < from && !(pingpong && local === 0)) {
            this.span[2] = times[k];
            this.report(events.add('marker', layer, clip, names[k], count));
          }
        }
        if (!once && base >= to && base < from) {
          count++;
          this.span[2] = reversed ? d : 0;
          this.report(events.add(count >= last ? 'finished' : 'loop', layer, clip, '', count));
        }
      }
    }
  }

  /**
   * Samples the clip at {@link time} into `out` (only animated properties are written: start from the rest
   * pose; `sampleClip`). Returns `out`.
   * @throws RangeError when `out` has fewer joints than the clip animates
   */
  sample(out: LocalPose): LocalPose {
    return sampleClipAt(out, this.current, this.clock, this.context);
  }
}
