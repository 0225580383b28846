// AssemblyScript source of the sampling kernel: the WebAssembly SIMD back end of `sampleClip`'s channels in
// the clip's streams — LINEAR and STEP (RuntimeClip.vec3Stream, quatStream), CUBICSPLINE, HERMITE and
// CATMULLROM (vec3HermiteStream, quatHermiteStream) and morph weights (weightChannels), BEZIER only with handles at thirds in time;
// src/animation/sample-clip.ts holds the formulas and the portable back end. Compiled by `npm run build:wasm`
// into sampling-kernel-binary.ts; a unit test keeps the two in step. Not type-checked by tsc (AssemblyScript
// types); `asc` checks it.
//
// It samples as ozz-animation's SamplingJob does (docs/explanation/animation-sampling.md): tracks of c components
// (3: translations and scales, 4: rotations) in groups of four, one track per f32x4 lane; a morph `weights`
// channel's n weights share one timeline, so they are its lanes instead, four per f32x4.
// Byte offsets into the instance's memory, chosen by SamplingKernel (src/pose/sampling-kernel.ts):
//
// - key stream (KeyStream), `count` entries of 3 + c words: [needed-at time f32, key time f32, track i32,
//   value f32×c], sorted by needed-at time (the time of the track's previous key; −∞ for each track's first
//   two keys); its cache, per group of four tracks: [left key times, right key times, left values c×, right
//   values c×], each an f32x4 (lane = track & 3); per group one i32x4 mask, all ones where the track is STEP;
// - Hermite stream (HermiteStream), `count` entries of 4 + 4c words: [needed-at f32, t_k f32, t_{k+1} f32,
//   track i32, v_k c×, Δm_k c×, v_{k+1} c×, Δm_{k+1} c×], one per interval, needed at t_k; its cache, per
//   group: [t_k, t_{k+1}, v_k c×, Δm_k c×, v_{k+1} c×, Δm_{k+1} c×], each an f32x4; per group one i32x4 mask,
//   all ones where the track holds v_k (a track of one key);
// - morph weights (WeightChannels), per channel a record of 7 i32: [key times, key count K, values, weights n,
//   mode (0 cubic, 1 LINEAR, 2 STEP), output, cursor]; at `key times` K f32 seconds, at `values` per interval
//   [v_k, Δm_k, v_{k+1}, Δm_{k+1}] (n4 = 4⌈n/4⌉ f32 each) then the last key's n4 values; the output the first
//   weight's byte address;
// - outputs, per group an i32x4 of byte addresses (the joint's x in the pose, or the morph weight; padding
//   lanes: a sink);
// - the time t, f64 seconds, at `time` (read from memory: no floating-point argument crosses the call);
// - per clip, a block of five records, 7 i32 each: four streams [groups, stream, count, cursor, cache,
//   outputs, masks] — translations and scales, rotations (key streams), then cubic translations and scales,
//   cubic rotations (Hermite streams) — and the morph weights [channels, records, 0…]; `sample` moves every
//   cursor.

/**
 * Moves the cursor forward: every entry from `cursor` on whose needed-at time is ≤ t enters its track's cache
 * (right key → left key, the entry → right key). Returns the new cursor.
 */
function advance(c: i32, t: f64, stream: usize, count: i32, cursor: i32, cache: usize): i32 {
  const stride = <usize>(3 + c) << 2, groupBytes = <usize>(2 + 2 * c) << 4;
  let e = stream + <usize>cursor * stride;
  while (cursor < count && <f64>load<f32>(e) <= t) {
    const track = load<i32>(e, 8);
    const lane = cache + <usize>(track >> 2) * groupBytes + (<usize>(track & 3) << 2);
    store<f32>(lane, load<f32>(lane, 16));
    store<f32>(lane, load<f32>(e, 4), 16);
    for (let k = 0; k < c; k++) {
      const left = lane + 32 + (<usize>k << 4), right = left + (<usize>c << 4);
      store<f32>(left, load<f32>(right));
      store<f32>(right, load<f32>(e + 12 + (<usize>k << 2)));
    }
    cursor++;
    e += stride;
  }
  return cursor;
}

/**
 * Per group: s = (t − t_left)/(t_right − t_left) per lane; the right key where s ≥ 1 (after the last key),
 * the left key where s ≤ 0 (before the first key) or the track is STEP, else this value of the interval.
 */
@inline function ratio(t: v128, cacheGroup: usize): v128 {
  const left = v128.load(cacheGroup), right = v128.load(cacheGroup, 16);
  return f32x4.div(f32x4.sub(t, left), f32x4.sub(right, left));
}

@inline function pick(s: v128, step: v128, left: v128, right: v128, interpolated: v128): v128 {
  const after = f32x4.ge(s, f32x4.splat(1));
  const held = v128.or(v128.or(after, f32x4.le(s, f32x4.splat(0))), step);
  return v128.bitselect(v128.bitselect(right, left, after), interpolated, held);
}

@inline function lerp(s: v128, left: v128, right: v128): v128 {
  return f32x4.add(left, f32x4.mul(s, f32x4.sub(right, left)));
}

/**
 * LINEAR and STEP tracks of three components (translations, scales) at t (f32x4 splat, seconds): writes
 * `v_k + s·(v_{k+1} − v_k)` (or the held key) to each track's output address.
 */
function interpolateVec3(t: v128, groups: i32, cache: usize, outputs: usize, steps: usize): void {
  for (let g = 0; g < groups; g++) {
    const q = cache + <usize>g * 128;
    const s = ratio(t, q), step = v128.load(steps + (<usize>g << 4));
    const lx = v128.load(q, 32), ly = v128.load(q, 48), lz = v128.load(q, 64);
    const rx = v128.load(q, 80), ry = v128.load(q, 96), rz = v128.load(q, 112);
    const x = pick(s, step, lx, rx, lerp(s, lx, rx)), y = pick(s, step, ly, ry, lerp(s, ly, ry)), z = pick(s, step, lz, rz, lerp(s, lz, rz));
    const o = outputs + (<usize>g << 4);
    const o0 = <usize>load<i32>(o), o1 = <usize>load<i32>(o, 4), o2 = <usize>load<i32>(o, 8), o3 = <usize>load<i32>(o, 12);
    store<f32>(o0, f32x4.extract_lane(x, 0)); store<f32>(o0, f32x4.extract_lane(y, 0), 4); store<f32>(o0, f32x4.extract_lane(z, 0), 8);
    store<f32>(o1, f32x4.extract_lane(x, 1)); store<f32>(o1, f32x4.extract_lane(y, 1), 4); store<f32>(o1, f32x4.extract_lane(z, 1), 8);
    store<f32>(o2, f32x4.extract_lane(x, 2)); store<f32>(o2, f32x4.extract_lane(y, 2), 4); store<f32>(o2, f32x4.extract_lane(z, 2), 8);
    store<f32>(o3, f32x4.extract_lane(x, 3)); store<f32>(o3, f32x4.extract_lane(y, 3), 4); store<f32>(o3, f32x4.extract_lane(z, 3), 8);
  }
}

/**
 * LINEAR and STEP rotations (x y z w) at t (f32x4 splat, seconds): writes the shortest-arc normalised lerp
 * `normalize(q_k + s·(±q_{k+1} − q_k))` (q_{k+1} negated when q_k·q_{k+1} < 0), or the held key, to each
 * track's output address.
 */
function interpolateQuat(t: v128, groups: i32, cache: usize, outputs: usize, steps: usize): void {
  for (let g = 0; g < groups; g++) {
    const q = cache + <usize>g * 160;
    const s = ratio(t, q), step = v128.load(steps + (<usize>g << 4));
    const lx = v128.load(q, 32), ly = v128.load(q, 48), lz = v128.load(q, 64), lw = v128.load(q, 80);
    const rx = v128.load(q, 96), ry = v128.load(q, 112), rz = v128.load(q, 128), rw = v128.load(q, 144);
    const dot = f32x4.add(f32x4.add(f32x4.mul(lx, rx), f32x4.mul(ly, ry)), f32x4.add(f32x4.mul(lz, rz), f32x4.mul(lw, rw)));
    // The sign bit of each lane where the dot product is negative: XOR flips q_{k+1} into q_k's hemisphere.
    const flip = v128.and(f32x4.lt(dot, f32x4.splat(0)), i32x4.splat(0x80000000));
    const nx = lerp(s, lx, v128.xor(rx, flip)), ny = lerp(s, ly, v128.xor(ry, flip));
    const nz = lerp(s, lz, v128.xor(rz, flip)), nw = lerp(s, lw, v128.xor(rw, flip));
    const len = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(nx, nx), f32x4.mul(ny, ny)), f32x4.add(f32x4.mul(nz, nz), f32x4.mul(nw, nw))));
    const inv = f32x4.div(f32x4.splat(1), len); // one division, four products
    const x = pick(s, step, lx, rx, f32x4.mul(nx, inv)), y = pick(s, step, ly, ry, f32x4.mul(ny, inv));
    const z = pick(s, step, lz, rz, f32x4.mul(nz, inv)), w = pick(s, step, lw, rw, f32x4.mul(nw, inv));
    // Transpose the four lanes into four x y z w quaternions, one v128 store each.
    const xy01 = v128.shuffle<f32>(x, y, 0, 4, 1, 5), zw01 = v128.shuffle<f32>(z, w, 0, 4, 1, 5);
    const xy23 = v128.shuffle<f32>(x, y, 2, 6, 3, 7), zw23 = v128.shuffle<f32>(z, w, 2, 6, 3, 7);
    const o = outputs + (<usize>g << 4);
    v128.store(<usize>load<i32>(o), v128.shuffle<f32>(xy01, zw01, 0, 1, 4, 5));
    v128.store(<usize>load<i32>(o, 4), v128.shuffle<f32>(xy01, zw01, 2, 3, 6, 7));
    v128.store(<usize>load<i32>(o, 8), v128.shuffle<f32>(xy23, zw23, 0, 1, 4, 5));
    v128.store(<usize>load<i32>(o, 12), v128.shuffle<f32>(xy23, zw23, 2, 3, 6, 7));
  }
}

/**
 * Moves a Hermite stream's cursor forward: every entry from `cursor` on whose needed-at time is ≤ t replaces
 * its track's cache (an entry holds the whole interval). Returns the new cursor.
 */
function advanceHermite(c: i32, t: f64, stream: usize, count: i32, cursor: i32, cache: usize): i32 {
  const words = 4 * c, stride = <usize>(4 + words) << 2, groupBytes = <usize>(2 + words) << 4;
  let e = stream + <usize>cursor * stride;
  while (cursor < count && <f64>load<f32>(e) <= t) {
    const track = load<i32>(e, 12);
    const lane = cache + <usize>(track >> 2) * groupBytes + (<usize>(track & 3) << 2);
    store<f32>(lane, load<f32>(e, 4));
    store<f32>(lane, load<f32>(e, 8), 16);
    for (let k = 0; k < words; k++) store<f32>(lane + 32 + (<usize>k << 4), load<f32>(e + 16 + (<usize>k << 2)));
    cursor++;
    e += stride;
  }
  return cursor;
}

/** `v_k + h01·(v_{k+1} − v_k) + h10·Δm_k + h11·Δm_{k+1}` (the Hermite basis with h00 = 1 − h01). */
@inline function hermite(h01: v128, h10: v128, h11: v128, v0: v128, m0: v128, v1: v128, m1: v128): v128 {
  return f32x4.add(f32x4.add(v0, f32x4.mul(h01, f32x4.sub(v1, v0))), f32x4.add(f32x4.mul(h10, m0), f32x4.mul(h11, m1)));
}

/** The Hermite basis at s: h01 = s²(3 − 2s), h10 = s(s − 1)², h11 = s²(s − 1). */
@inline function basis01(s: v128): v128 {
  return f32x4.mul(f32x4.mul(s, s), f32x4.sub(f32x4.splat(3), f32x4.add(s, s)));
}
@inline function basis10(s: v128): v128 {
  const r = f32x4.sub(s, f32x4.splat(1));
  return f32x4.mul(s, f32x4.mul(r, r));
}
@inline function basis11(s: v128): v128 {
  return f32x4.mul(f32x4.mul(s, s), f32x4.sub(s, f32x4.splat(1)));
}

/**
 * Cubic tracks of three components (translations, scales) at t (f32x4 splat, seconds): writes the Hermite
 * cubic (or the held value: v_k where s ≤ 0 or the STEP mask is set — a track of one key —, v_{k+1} where
 * s ≥ 1) to each track's output address.
 */
function hermiteVec3(t: v128, groups: i32, cache: usize, outputs: usize, masks: usize): void {
  for (let g = 0; g < groups; g++) {
    const q = cache + <usize>g * 224, step = v128.load(masks + (<usize>g << 4));
    const s = ratio(t, q), h01 = basis01(s), h10 = basis10(s), h11 = basis11(s);
    const ax = v128.load(q, 32), ay = v128.load(q, 48), az = v128.load(q, 64);
    const bx = v128.load(q, 128), by = v128.load(q, 144), bz = v128.load(q, 160);
    const x = pick(s, step, ax, bx, hermite(h01, h10, h11, ax, v128.load(q, 80), bx, v128.load(q, 176)));
    const y = pick(s, step, ay, by, hermite(h01, h10, h11, ay, v128.load(q, 96), by, v128.load(q, 192)));
    const z = pick(s, step, az, bz, hermite(h01, h10, h11, az, v128.load(q, 112), bz, v128.load(q, 208)));
    const o = outputs + (<usize>g << 4);
    const o0 = <usize>load<i32>(o), o1 = <usize>load<i32>(o, 4), o2 = <usize>load<i32>(o, 8), o3 = <usize>load<i32>(o, 12);
    store<f32>(o0, f32x4.extract_lane(x, 0)); store<f32>(o0, f32x4.extract_lane(y, 0), 4); store<f32>(o0, f32x4.extract_lane(z, 0), 8);
    store<f32>(o1, f32x4.extract_lane(x, 1)); store<f32>(o1, f32x4.extract_lane(y, 1), 4); store<f32>(o1, f32x4.extract_lane(z, 1), 8);
    store<f32>(o2, f32x4.extract_lane(x, 2)); store<f32>(o2, f32x4.extract_lane(y, 2), 4); store<f32>(o2, f32x4.extract_lane(z, 2), 8);
    store<f32>(o3, f32x4.extract_lane(x, 3)); store<f32>(o3, f32x4.extract_lane(y, 3), 4); store<f32>(o3, f32x4.extract_lane(z, 3), 8);
  }
}

/**
 * Cubic rotations (x y z w) at t: the Hermite cubic on the four components, normalised (glTF 2.0 Appendix C;
 * left as is where it is zero), or the held key exactly, to each track's output address.
 */
function hermiteQuat(t: v128, groups: i32, cache: usize, outputs: usize, masks: usize): void {
  const zero = f32x4.splat(0);
  for (let g = 0; g < groups; g++) {
    const q = cache + <usize>g * 288, step = v128.load(masks + (<usize>g << 4));
    const s = ratio(t, q), h01 = basis01(s), h10 = basis10(s), h11 = basis11(s);
    const ax = v128.load(q, 32), ay = v128.load(q, 48), az = v128.load(q, 64), aw = v128.load(q, 80);
    const bx = v128.load(q, 160), by = v128.load(q, 176), bz = v128.load(q, 192), bw = v128.load(q, 208);
    const nx = hermite(h01, h10, h11, ax, v128.load(q, 96), bx, v128.load(q, 224));
    const ny = hermite(h01, h10, h11, ay, v128.load(q, 112), by, v128.load(q, 240));
    const nz = hermite(h01, h10, h11, az, v128.load(q, 128), bz, v128.load(q, 256));
    const nw = hermite(h01, h10, h11, aw, v128.load(q, 144), bw, v128.load(q, 272));
    const len2 = f32x4.add(f32x4.add(f32x4.mul(nx, nx), f32x4.mul(ny, ny)), f32x4.add(f32x4.mul(nz, nz), f32x4.mul(nw, nw)));
    const inv = v128.bitselect(f32x4.div(f32x4.splat(1), f32x4.sqrt(len2)), f32x4.splat(1), f32x4.gt(len2, zero));
    const x = pick(s, step, ax, bx, f32x4.mul(nx, inv)), y = pick(s, step, ay, by, f32x4.mul(ny, inv));
    const z = pick(s, step, az, bz, f32x4.mul(nz, inv)), w = pick(s, step, aw, bw, f32x4.mul(nw, inv));
    const xy01 = v128.shuffle<f32>(x, y, 0, 4, 1, 5), zw01 = v128.shuffle<f32>(z, w, 0, 4, 1, 5);
    const xy23 = v128.shuffle<f32>(x, y, 2, 6, 3, 7), zw23 = v128.shuffle<f32>(z, w, 2, 6, 3, 7);
    const o = outputs + (<usize>g << 4);
    v128.store(<usize>load<i32>(o), v128.shuffle<f32>(xy01, zw01, 0, 1, 4, 5));
    v128.store(<usize>load<i32>(o, 4), v128.shuffle<f32>(xy01, zw01, 2, 3, 6, 7));
    v128.store(<usize>load<i32>(o, 8), v128.shuffle<f32>(xy23, zw23, 0, 1, 4, 5));
    v128.store(<usize>load<i32>(o, 12), v128.shuffle<f32>(xy23, zw23, 2, 3, 6, 7));
  }
}

/** Writes the n − 4j weights left (at most four) of `v` at `out` + 16j: one v128 store, or the tail lane by lane. */
@inline function storeWeights(out: usize, j: i32, n: i32, v: v128): void {
  const at = out + (<usize>j << 4), left = n - (j << 2);
  if (left >= 4) {
    v128.store(at, v);
    return;
  }
  store<f32>(at, f32x4.extract_lane(v, 0));
  if (left > 1) store<f32>(at, f32x4.extract_lane(v, 1), 4);
  if (left > 2) store<f32>(at, f32x4.extract_lane(v, 2), 8);
}

/**
 * Morph weights at t (f64 seconds), channel by channel, four weights per f32x4: as the portable loops, the
 * first key's values where t ≤ t_0 (or NaN, or a single key), the last key's where t ≥ t_{K−1}, else the
 * interval k with t_k ≤ t < t_{k+1} (found from the channel's cursor: forward from it, from 0 after a step
 * back) and s = (t − t_k)/(t_{k+1} − t_k) in double: STEP v_k, LINEAR `v_k + s·(v_{k+1} − v_k)`, else the
 * Hermite cubic.
 */
function sampleWeights(t: f64, channels: i32, records: usize): void {
  for (let c = 0; c < channels; c++) {
    const r = records + <usize>c * 28;
    const times = <usize>load<i32>(r), keys = load<i32>(r, 4), values = <usize>load<i32>(r, 8);
    const n = load<i32>(r, 12), mode = load<i32>(r, 16), out = <usize>load<i32>(r, 20);
    const vectors = (n + 3) >> 2, block = <usize>vectors << 4;
    let from = values;
    if (keys > 1 && t > <f64>load<f32>(times)) {
      if (t >= <f64>load<f32>(times + (<usize>(keys - 1) << 2))) {
        from = values + <usize>(4 * (keys - 1)) * block;
      } else {
        let k = load<i32>(r, 24);
        if (k > keys - 2 || t < <f64>load<f32>(times + (<usize>k << 2))) k = 0;
        while (t >= <f64>load<f32>(times + (<usize>(k + 1) << 2))) k++;
        store<i32>(r, k, 24);
        from = values + <usize>(4 * k) * block;
        if (mode !== 2) {
          const t0 = <f64>load<f32>(times + (<usize>k << 2)), t1 = <f64>load<f32>(times + (<usize>(k + 1) << 2));
          const s = f32x4.splat(<f32>((t - t0) / (t1 - t0)));
          if (mode === 1) {
            for (let j = 0; j < vectors; j++) {
              const a = from + (<usize>j << 4);
              storeWeights(out, j, n, lerp(s, v128.load(a), v128.load(a + 2 * block)));
            }
          } else {
            const h01 = basis01(s), h10 = basis10(s), h11 = basis11(s);
            for (let j = 0; j < vectors; j++) {
              const a = from + (<usize>j << 4);
              storeWeights(out, j, n, hermite(h01, h10, h11, v128.load(a), v128.load(a + block), v128.load(a + 2 * block), v128.load(a + 3 * block)));
            }
          }
          continue;
        }
      }
    }
    for (let j = 0; j < vectors; j++) storeWeights(out, j, n, v128.load(from + (<usize>j << 4)));
  }
}

/**
 * One clip at the time t (seconds) at `time`: per stream record at `block` (layout above), moves the cursor
 * forward and writes the moved cursor back, then interpolates.
 */
export function sample(time: usize, block: usize): void {
  const t = load<f64>(time), t4 = f32x4.splat(<f32>t);
  for (let k = 0; k < 5; k++) {
    const r = block + <usize>(28 * k), groups = load<i32>(r);
    if (groups === 0) continue;
    const cache = <usize>load<i32>(r, 16), outputs = <usize>load<i32>(r, 20), masks = <usize>load<i32>(r, 24);
    if (k < 2) {
      const c = 3 + k;
      store<i32>(r, advance(c, t, load<i32>(r, 4), load<i32>(r, 8), load<i32>(r, 12), cache), 12);
      if (c === 3) interpolateVec3(t4, groups, cache, outputs, masks);
      else interpolateQuat(t4, groups, cache, outputs, masks);
    } else if (k < 4) {
      store<i32>(r, advanceHermite(k + 1, t, load<i32>(r, 4), load<i32>(r, 8), load<i32>(r, 12), cache), 12);
      if (k === 2) hermiteVec3(t4, groups, cache, outputs, masks);
      else hermiteQuat(t4, groups, cache, outputs, masks);
    } else {
      sampleWeights(t, groups, <usize>load<i32>(r, 4));
    }
  }
}
