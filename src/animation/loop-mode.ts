/**
 * How a clip's playhead behaves at its ends:
 * - `loop`: wraps around, time mod duration;
 * - `once`: clamps at 0 and duration (and holds the end pose);
 * - `pingpong`: bounces, forward then backward, period 2·duration.
 */
export type LoopMode = 'loop' | 'once' | 'pingpong';

/**
 * Reduces a playhead to one period of `mode` and derives the clip time it shows. With D the duration and
 * p the playhead (seconds, any sign): the period is D for `loop` and 2D for `pingpong`, and p becomes
 * `p − period·⌊p/period⌋` in [0, period); `once` clamps p to [0, D]. The clip time is then p, or `2D − p`
 * in the backward half of a `pingpong` period. A clip of duration 0 (or NaN) maps every playhead to 0.
 * Keeping the playhead reduced keeps its float precision however long a clip plays. Allocates nothing.
 *
 * @param clock `Float64Array(3)`: [0] clip time in [0, D] (written), [1] the playhead (read and written
 *   reduced), [2] the duration D (read); seconds. Typed, so no floating-point value crosses the call (V8
 *   would box it on the heap).
 */
export function wrapPlayhead(clock: Float64Array, mode: LoopMode): void {
  const d = clock[2];
  let p = clock[1];
  if (!(d > 0)) {
    clock[1] = 0;
    clock[0] = 0;
    return;
  }
  if (mode === 'once') {
    p = p < 0 ? 0 : p > d ? d : p;
    clock[1] = p;
    clock[0] = p;
    return;
  }
  const period = mode === 'loop' ? d : 2 * d;
  p -= period * Math.floor(p / period);
  if (!(p >= 0 && p < period)) p = 0; // rounding can land on `period` itself; NaN or ±∞ restart
  clock[1] = p;
  clock[0] = p <= d ? p : 2 * d - p;
}
