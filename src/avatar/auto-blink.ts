/**
 * Automatic blinking on a fixed, repeatable schedule (the issue's `auto-blink`, off by default): the `blink`
 * weight at a time, a pure function of that time, so frames, tests and screenshots agree whatever the frame rate.
 *
 * Time is cut into periods of {@link AUTO_BLINK_PERIOD} seconds; period k holds one blink of
 * {@link AUTO_BLINK_DURATION} seconds starting at `k·period + offsetₖ`, with `offsetₖ` in [0, period − duration)
 * from an integer hash of k (so blinks do not come at a metronome's beat, yet every run has the same ones).
 * Within a blink the weight is `sin(π·s)`, s ∈ [0, 1] the fraction of the blink gone by: closing then opening.
 * Not in the VRM specification (which leaves blinking to the application) nor in three-vrm.
 */
export const AUTO_BLINK_PERIOD = 4;
/** Seconds one automatic blink lasts, closing and opening. */
export const AUTO_BLINK_DURATION = 0.3;

/** The automatic `blink` weight at `timeSeconds` (schedule above), in [0, 1]; 0 for a time that is not finite. */
export function autoBlinkWeight(timeSeconds: number): number {
  const out = new Float64Array(1);
  writeAutoBlinkWeight(out, 0, Float64Array.of(timeSeconds));
  return out[0];
}

/**
 * {@link autoBlinkWeight} for per-frame use: the weight at the time `clock[0]` (seconds) into `out[o]`. Time and
 * weight travel in arrays, so the call allocates nothing.
 */
export function writeAutoBlinkWeight(out: Float32Array | Float64Array, o: number, clock: ArrayLike<number>): void {
  const t = clock[0];
  if (!Number.isFinite(t)) {
    out[o] = 0;
    return;
  }
  const k = Math.floor(t / AUTO_BLINK_PERIOD);
  const start = k * AUTO_BLINK_PERIOD + blinkOffset(k);
  const s = (t - start) / AUTO_BLINK_DURATION;
  out[o] = s >= 0 && s <= 1 ? Math.sin(Math.PI * s) : 0;
}

/** Seconds into period k where its blink starts: a 32-bit integer hash of k (Wang-style mix) scaled into [0, period − duration). */
export function blinkOffset(k: number): number {
  let h = (k | 0) ^ 0x9e3779b9;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) / 4294967296) * (AUTO_BLINK_PERIOD - AUTO_BLINK_DURATION);
}
