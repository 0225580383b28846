/**
 * How a clip's playhead behaves at its ends:
 * - `loop`: wraps around, time mod duration;
 * - `once`: clamps at 0 and duration (and holds the end pose);
 * - `pingpong`: bounces, forward then backward, period 2·duration.
 */
export type LoopMode = 'loop' | 'once' | 'pingpong';

/**
 * Maps an unbounded playhead `time` (seconds, any sign) to clip time in [0, duration] for `mode`:
 * loop `t − D·⌊t/D⌋`; once `clamp(t, 0, D)`; pingpong `D − |D − (t mod 2D)|`. A clip of duration 0 maps
 * every time to 0.
 */
export function wrapClipTime(time: number, duration: number, mode: LoopMode): number {
  if (!(duration > 0)) return 0;
  if (mode === 'once') return time < 0 ? 0 : time > duration ? duration : time;
  if (mode === 'loop') return positiveModulo(time, duration);
  const phase = positiveModulo(time, 2 * duration);
  return phase <= duration ? phase : 2 * duration - phase;
}

/** `x mod m` in [0, m) for m > 0, any sign of x. */
export function positiveModulo(x: number, m: number): number {
  const r = x - m * Math.floor(x / m);
  return r >= m ? 0 : r < 0 ? 0 : r;
}
