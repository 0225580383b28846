// AssemblyScript source of the sampling kernel: the WebAssembly SIMD back end of the LINEAR and STEP channels
// of `sampleClip` (src/animation/sample-clip.ts holds the formulas and the portable back end). Compiled by
// `npm run build:wasm` into sampling-kernel-binary.ts; a unit test keeps the two in step. Not type-checked by
// tsc (AssemblyScript types); `asc` checks it.
//
// It samples as ozz-animation's SamplingJob does (docs/animation-sampling.md): tracks of c components
// (3: translations and scales, 4: rotations) in groups of four, one track per f32x4 lane. Byte offsets into the
// instance's memory, chosen by SamplingKernel (src/pose/sampling-kernel.ts):
//
// - key stream, `count` entries of 3 + c words: [needed-at time f32, key time f32, track i32, value f32×c],
//   sorted by needed-at time (the time of the track's previous key; −∞ for each track's first two keys);
// - cache, per group of four tracks: [left key times, right key times, left values c×, right values c×], each
//   an f32x4 (lane = track & 3);
// - outputs, per group an i32x4 of byte addresses (the joint's x in the pose; padding lanes: a sink);
// - step masks, per group an i32x4: all ones where the track is STEP;
// - the time t, f64 seconds, at `time` (read from memory: no floating-point argument crosses the call);
// - per clip, a block of two stream records, translations and scales then rotations, 7 i32 each: [groups,
//   stream, count, cursor, cache, outputs, steps]; `sample` moves both cursors.

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
 * One clip at the time t (seconds) at `time`: per stream record at `block` (translations and scales, then
 * rotations; layout above), moves the cursor forward and writes the moved cursor back, then interpolates.
 */
export function sample(time: usize, block: usize): void {
  const t = load<f64>(time), t4 = f32x4.splat(<f32>t);
  for (let c = 3; c <= 4; c++) {
    const r = block + <usize>(28 * (c - 3)), groups = load<i32>(r);
    if (groups === 0) continue;
    store<i32>(r, advance(c, t, load<i32>(r, 4), load<i32>(r, 8), load<i32>(r, 12), load<i32>(r, 16)), 12);
    if (c === 3) interpolateVec3(t4, groups, load<i32>(r, 16), load<i32>(r, 20), load<i32>(r, 24));
    else interpolateQuat(t4, groups, load<i32>(r, 16), load<i32>(r, 20), load<i32>(r, 24));
  }
}
