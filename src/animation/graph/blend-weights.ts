/**
 * The weights of a blend tree's children from its parameters: the four kinds of PlayCanvas's and Unity's blend
 * trees. Each writes `out[start … start+count−1]` for the children whose points are `xs[start + k]` (and
 * `ys[start + k]` in 2D), and the weights sum to 1, from the input point `p` (`Float64Array`: [x] or [x, y];
 * typed, so no floating-point value crosses the call, which V8 would box on the heap). Pure, allocation-free;
 * figures in docs/guide/animation-graph.md ("Blend weights").
 */

/**
 * 1D: piecewise linear between the two children whose points bracket `p` (points ascending, as the graph
 * compiles them): `w_i = (x_{i+1} − p)/(x_{i+1} − x_i)`, `w_{i+1} = 1 − w_i`; at or beyond the first or last
 * point that child alone (Unity's 1D blend; PlayCanvas gives every child 0 outside the points, Sinew clamps).
 * Equal neighbouring points share a bracket's weight half and half (as PlayCanvas).
 */
export function blendWeights1D(out: Float64Array, xs: Float64Array, start: number, count: number, input: Float64Array): void {
  const end = start + count, p = input[0];
  out.fill(0, start, end);
  if (count === 1 || !(p > xs[start])) {
    out[start] = 1;
    return;
  }
  if (p >= xs[end - 1]) {
    // The last of equal end points (ties share nothing here: the last point is the end).
    out[end - 1] = 1;
    return;
  }
  for (let i = start; i < end - 1; i++) {
    const a = xs[i], b = xs[i + 1];
    if (p >= a && p < b) {
      const w = (b - p) / (b - a);
      out[i] = w;
      out[i + 1] = 1 - w;
      return;
    }
    if (a === b && p === a) {
      out[i] = 0.5;
      out[i + 1] = 0.5;
      return;
    }
  }
}

/**
 * 2D cartesian: gradient band interpolation (R. S. Johansen, "Automated Semi-Procedural Animation for Character
 * Locomotion", 2009, section 6.3; Unity's "2D Freeform Cartesian", PlayCanvas's `2D_CARTESIAN`):
 * `h_i = min_{j≠i} clamp(1 − (p − p_i)·(p_j − p_i) / |p_j − p_i|², 0, 1)`, `w_i = h_i / Σ h`. At a child's point
 * that child has weight 1. Points must be distinct (the reader refuses duplicates).
 */
export function blendWeightsCartesian(out: Float64Array, xs: Float64Array, ys: Float64Array, start: number, count: number, input: Float64Array): void {
  const end = start + count, px = input[0], py = input[1];
  let sum = 0;
  for (let i = start; i < end; i++) {
    const xi = xs[i], yi = ys[i], ax = px - xi, ay = py - yi;
    let h = 1;
    for (let j = start; j < end; j++) {
      if (j === i) continue;
      const bx = xs[j] - xi, by = ys[j] - yi;
      const t = 1 - (ax * bx + ay * by) / (bx * bx + by * by);
      const c = t < 0 ? 0 : t > 1 ? 1 : t;
      if (c < h) h = c;
    }
    out[i] = h;
    sum += h;
  }
  normalise(out, start, count, sum);
}

/**
 * 2D directional: gradient bands in polar space (Johansen 2009, section 6.3, "gradient band interpolation in
 * polar space"; Unity's "2D Freeform Directional", PlayCanvas's `2D_DIRECTIONAL`). With magnitudes |·| and
 * the signed angle θ(a, b) = atan2(a×b, a·b) (0 when either vector is 0, so a child at the origin has a
 * direction that agrees with every input):
 * `v_ij = ((|p_j| − |p_i|)/m, α·θ(p_i, p_j))`, `v_ip = ((|p| − |p_i|)/m, α·θ(p_i, p))`, `m = (|p_i| + |p_j|)/2`,
 * α = 2 (PlayCanvas's weighting of angle against magnitude), `h_i = min_{j≠i} clamp(1 − v_ip·v_ij/|v_ij|², 0, 1)`,
 * `w_i = h_i/Σ h`. Sinew follows Johansen's formula; PlayCanvas takes the absolute value of the projection,
 * which gives weight to children on the far side of the input.
 */
export function blendWeightsDirectional(out: Float64Array, xs: Float64Array, ys: Float64Array, start: number, count: number, input: Float64Array): void {
  const end = start + count, px = input[0], py = input[1];
  const pLength = Math.hypot(px, py);
  let sum = 0;
  for (let i = start; i < end; i++) {
    const xi = xs[i], yi = ys[i], li = Math.hypot(xi, yi);
    const angleP = Math.atan2(xi * py - yi * px, xi * px + yi * py);
    let h = 1;
    for (let j = start; j < end; j++) {
      if (j === i) continue;
      const lj = Math.hypot(xs[j], ys[j]), mean = (li + lj) / 2;
      const ijx = (lj - li) / mean, ijy = ANGLE_WEIGHT * Math.atan2(xi * ys[j] - yi * xs[j], xi * xs[j] + yi * ys[j]);
      const ipx = (pLength - li) / mean, ipy = ANGLE_WEIGHT * angleP;
      const t = 1 - (ipx * ijx + ipy * ijy) / (ijx * ijx + ijy * ijy);
      const c = t < 0 ? 0 : t > 1 ? 1 : t;
      if (c < h) h = c;
    }
    out[i] = h;
    sum += h;
  }
  normalise(out, start, count, sum);
}

/**
 * DIRECT: each child's weight is its parameter's value, clamped at 0, normalised by their sum
 * (`w_i = max(0, v_i)/Σ max(0, v_j)`); all 0: equal weights (PlayCanvas leaves them all at 0, a pose of nothing).
 */
export function blendWeightsDirect(out: Float64Array, values: Float64Array, start: number, count: number): void {
  let sum = 0;
  for (let i = start; i < start + count; i++) {
    const v = values[i] > 0 ? values[i] : 0;
    out[i] = v;
    sum += v;
  }
  normalise(out, start, count, sum);
}

/** α of {@link blendWeightsDirectional}: radians of angle weighed as much as a magnitude ratio of 1/α. */
const ANGLE_WEIGHT = 2;

/** Divides by `sum`; a sum of 0 (no child in reach) gives equal weights. */
function normalise(out: Float64Array, start: number, count: number, sum: number): void {
  const end = start + count;
  if (sum > 0) {
    for (let i = start; i < end; i++) out[i] /= sum;
  } else {
    for (let i = start; i < end; i++) out[i] = 1 / count;
  }
}
