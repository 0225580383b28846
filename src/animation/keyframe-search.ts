/**
 * Finds the keyframe interval holding the time t = `clock[0]`: the largest k with `times[k] ≤ t`, clamped to
 * [0, times.length − 2] (0 for a single key, for t before the first key, and for NaN). `hint` is the previous
 * answer for these times: playback moves it by a key or two per frame (forward, or back at negative speed),
 * so those are tried first and the search is O(1) amortised; a far jump (a seek, a loop wrapping round)
 * falls back to binary search, O(log k). The time travels in a typed array because V8 boxes a
 * floating-point argument on the heap for every call it does not inline (samplers/linear.ts). Allocates
 * nothing.
 *
 * @param times `Float32Array(k)`, k ≥ 1: strictly increasing key times, seconds
 * @param clock `Float64Array(≥ 1)`: the time t in seconds at index 0
 * @param hint a previous answer; any integer (out-of-range hints are clamped)
 * @returns the interval index k, in [0, max(0, k − 2)]
 */
export function findKeyframe(times: Float32Array, clock: Float64Array, hint: number): number {
  const t = clock[0];
  const last = times.length - 2;
  if (last < 0 || !(t > times[0])) return 0;
  if (t >= times[last + 1]) return last;
  // times[0] < t < times[last + 1]: find k in [0, last] with times[k] ≤ t < times[k + 1].
  let k = hint > last ? last : hint < 0 ? 0 : hint;
  let lo: number, hi: number;
  if (times[k] <= t) {
    // Forward a key or two (playback), then binary search (a seek). times[last + 1] > t ends the walk.
    if (times[k + 1] > t) return k;
    k++;
    if (times[k + 1] > t) return k;
    k++;
    if (times[k + 1] > t) return k;
    lo = k + 1; hi = last;
  } else {
    if (times[k - 1] <= t) return k - 1; // one key back (reverse playback); k > 0 since times[0] < t
    lo = 0; hi = k - 2;
  }
  // The largest k in [lo, hi] with times[k] ≤ t, given times[lo] ≤ t.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
