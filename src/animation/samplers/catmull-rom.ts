/**
 * Catmull-Rom spline through the keys (Catmull & Rom, "A class of local interpolating splines", 1974), in
 * its non-uniform Hermite form: interior key k gets the tangent
 *
 *   `m_k = (v_{k+1} − v_{k−1}) / (t_{k+1} − t_{k−1})`   (units per second),
 *
 * and the curve between keys is the cubic Hermite of `hermiteInterval` (cubic-hermite.ts). End behaviour: the first
 * and last keys take the one-sided secant slope, `m_0 = (v_1 − v_0)/(t_1 − t_0)` and
 * `m_{n−1} = (v_{n−1} − v_{n−2})/(t_{n−1} − t_{n−2})` — the same as reflecting a phantom key linearly,
 * v₋₁ = 2v₀ − v₁ at t₋₁ = 2t₀ − t₁; three.js calls this `ZeroCurvatureEnding`. With evenly spaced keys
 * this is exactly three.js's `CubicInterpolant`. Outside the key range the end value holds (glTF clamp).
 *
 * Rotations (`rotation`): the neighbouring keys are flipped into the hemisphere of key k before use, and the
 * caller normalises the result; other channels (a morph `weights` channel of four targets too) are plain
 * component-wise. Allocates nothing.
 *
 * @param times `Float32Array(n)`, n ≥ 2, strictly increasing seconds
 * @param values `Float32Array(n·c)`, value of key j at `j·c`
 * @param key interval index k (t_k ≤ t < t_{k+1})
 * @param clock `Float64Array(1)`: the time t in seconds (see samplers/linear.ts for why)
 * @param rotation c = 4 unit quaternions (x y z w), flipped into one hemisphere
 */
export function catmullRomInterval(
  times: Float32Array, values: Float32Array, key: number, clock: Float64Array, c: number, rotation: boolean, out: Float32Array, o: number,
): void {
  const n = times.length;
  const t = clock[0], t0 = times[key], t1 = times[key + 1], dt = t1 - t0;
  const s = (t - t0) / dt;
  const a = key * c, b = a + c;
  const hasPrev = key > 0, hasNext = key + 2 < n;
  const p = hasPrev ? a - c : 0, q = hasNext ? b + c : 0;
  const dPrev = hasPrev ? t1 - times[key - 1] : dt;
  const dNext = hasNext ? times[key + 2] - t0 : dt;
  // Hemisphere signs of the neighbours relative to key k (rotations only).
  let sb = 1, sp = 1, sq = 1;
  if (rotation) {
    const v = values;
    sb = v[a] * v[b] + v[a + 1] * v[b + 1] + v[a + 2] * v[b + 2] + v[a + 3] * v[b + 3] < 0 ? -1 : 1;
    if (hasPrev) sp = v[a] * v[p] + v[a + 1] * v[p + 1] + v[a + 2] * v[p + 2] + v[a + 3] * v[p + 3] < 0 ? -1 : 1;
    if (hasNext) sq = v[b] * v[q] + v[b + 1] * v[q + 1] + v[b + 2] * v[q + 2] + v[b + 3] * v[q + 3] < 0 ? -sb : sb;
  }
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * dt, h01 = -2 * s3 + 3 * s2, h11 = (s3 - s2) * dt;
  for (let i = 0; i < c; i++) {
    const v0 = values[a + i], v1 = sb * values[b + i];
    const m0 = ((hasPrev ? v1 - sp * values[p + i] : v1 - v0)) / dPrev;
    const m1 = ((hasNext ? sq * values[q + i] - v0 : v1 - v0)) / dNext;
    out[o + i] = h00 * v0 + h10 * m0 + h01 * v1 + h11 * m1;
  }
}
