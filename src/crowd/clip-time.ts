/**
 * `time` (seconds) looped into [0, duration) of a clip of `duration` seconds; 0 for a clip of duration 0 (the rest
 * pose's). Floating-point rounding up to `duration` gives 0.
 */
export function wrapClipTime(duration: number, time: number): number {
  if (!(duration > 0)) return 0;
  const t = time - Math.floor(time / duration) * duration;
  return t < duration ? t : 0;
}

/**
 * `times[k]` ← its clip's time `dt · speeds[k]` seconds on, looped within the clip of `duration` seconds
 * ({@link wrapClipTime}); returns the whole loops crossed (negative backwards; 0 for a clip of duration 0). Arrays
 * and an index, not a time, cross the call, so that V8 boxes no double per instance and frame.
 */
export function stepClipTime(times: Float64Array, speeds: Float32Array, duration: number, k: number, dt: number): number {
  const raw = times[k] + dt * speeds[k], t = wrapClipTime(duration, raw);
  times[k] = t;
  return t !== raw && duration > 0 ? Math.round((raw - t) / duration) : 0;
}
