/**
 * Finds the keyframe interval holding time `t`: the largest k with `times[k] ≤ t`, clamped to
 * [0, times.length − 2] (or 0 for a single key). `hint` is the previous answer for this channel: forward
 * playback moves it at most a few keys (and backward playback, negative speed, too), so the search is
 * O(1) amortised; a far jump (a seek, a loop wrapping round) falls back to binary search, O(log k).
 *
 * @param times `Float32Array(k)` of strictly increasing key times, seconds
 */
export function findKeyframe(times: Float32Array, t: number, hint: number): number {
  scratchClock[0] = t;
  return findKeyframeAt(times, scratchClock, hint);
}

const scratchClock = new Float64Array(1);

/**
 * {@link findKeyframe} at the time `clock[0]` (seconds, a `Float64Array(1)`), the hot path's form: no
 * floating-point argument to box (see samplers/linear.ts). Allocates nothing.
 */
export function findKeyframeAt(times: Float32Array, clock: Float64Array, hint: number): number {
  const t = clock[0];
  const last = times.length - 2;
  if (last < 0) return 0;
  let k = hint > last ? last : hint < 0 ? 0 : hint;
  if (times[k] <= t) {
    // Walk forward a few keys before giving up on the hint.
    for (let steps = 0; steps < 4; steps++) {
      if (k >= last || times[k + 1] > t) return k;
      k++;
    }
  } else {
    // Walk backward a few keys (reverse playback) before giving up on the hint.
    for (let steps = 0; steps < 4; steps++) {
      if (k === 0) return 0;
      k--;
      if (times[k] <= t) return k;
    }
  }
  let lo = 0, hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
