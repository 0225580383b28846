/**
 * Key times that repeat a time, made strictly increasing so that every sampler can read them, keeping what
 * the repeat means: a step. Exporters write a repeated time (…, 0.1666, 0.1666, …) for a jump; glTF 2.0
 * §3.11 asks for strictly increasing times, yet three.js, Babylon.js and the Khronos Sample Viewer play such
 * files. three.js's interval search (`t0 ≤ t < t1`) approaches the first of two equal keys from before and
 * holds the second from that time on; Sinew does the same by moving each earlier key of a run of equal times
 * down by one float32 step (below the next key), so the interval that ends at the repeat ends one ulp early
 * (≈ 1.5e-8 s at 0.17 s) and the later key is the one at the time itself.
 *
 * @param times `Float32Array(k)` key times, seconds, finite (checked before)
 * @returns a new array with every run of equal times spread downwards, or null when no two consecutive keys
 *   are equal (strictly decreasing times are left to the caller's check, which refuses them)
 */
export function spreadRepeatedKeyTimes(times: Float32Array): Float32Array | null {
  let first = -1;
  for (let i = 1; i < times.length; i++) {
    if (times[i] === times[i - 1]) {
      first = i;
      break;
    }
  }
  if (first < 0) return null;
  const out = Float32Array.from(times);
  for (let i = out.length - 2; i >= first - 1; i--) {
    if (out[i] >= out[i + 1] && times[i] === times[i + 1]) out[i] = float32Below(out[i + 1]);
  }
  return out;
}

/** The largest float32 below `x` (finite x). */
function float32Below(x: number): number {
  const bits = new Float32Array([x]);
  const view = new Int32Array(bits.buffer);
  if (x === 0) {
    view[0] = 0x80000001; // the negative float32 nearest to zero
  } else if (x > 0) {
    view[0]--;
  } else {
    view[0]++;
  }
  return bits[0];
}
