// AssemblyScript source of the crowd kernel: every live instance's pose in one call — sample its clip, model-space
// matrices, skinning matrices, packed palette rows and its box — for `CrowdKernel` (src/crowd/crowd-kernel.ts).
// Compiled by `npm run build:wasm` (build/compile-crowd-kernel.ts) together with the kernels it calls, the
// sampling kernel's `sample` and the blending kernel's `blend` (src/pose/wasm/): the same functions, so an
// instance's local pose is the one a `SamplingKernel` computes. Its matrices are the pose kernel's
// (pose-kernel.as.ts `modelMatrices`, `skinMatrices`) bit for bit — the same float32 operations in the same order —
// computed four instances per f32x4 (four joints per f32x4 for the quaternion-to-matrix step). Not type-checked
// by tsc (AssemblyScript types); `asc` checks it.
//
// Byte offsets into the crowd's memory, chosen by CrowdKernel. The header, i32 words:
//   0 joints n · 1 scratch pose (T, then R, S at 2, 3) · 4 rest pose (the same layout) · 5 pose bytes ·
//   6 parents i32[n] · 7 model matrices (n lane matrices, see `MATRIX`) · 8 skins · 9 skin table · 10 rigid nodes · 11 rigid table ·
//   12 instance clips i16[N] · 13 instance times f64[N] · 14 last sampled times f64[2N] (clip, then blended
//   clip) · 15 instance records · 16 clip table · 17 local matrices (4⌈n/4⌉ lane
//   matrices, `localMatrices`) · 18 the batch's scratch (`animate`) · 19 boxes ·
//   20 base box · 21 time slot (f64) · 22 second scratch pose (the
//   blended clip's; the same layout) · 23 blended clips i16[N] · 24 their times f64[N] · 25 blend weights f32[N] ·
//   26 world matrices f32[16N] (column-major) · 27 world boxes f64[6N] · 28 blocks · 29 draw order i32[N] ·
//   30 the view-projection matrix f64[16], then room for its six planes f64[24] (0: no culling) · 31 capacity N · 32 bytes per block · 33 bytes of a
//   block's world rows · 34 (written by `animate`) mirrored blocks · 35 the blending job (blending-kernel.as.ts:
//   two normal layers, the scratch pose at weight 1 − w and the second one at w, into the scratch pose) · 36 the
//   local matrices' staging (4 lanes × ⌈n/4⌉ groups of 12 f32x4, `localMatrices`) · 37 clip slots per instance
//   S ≥ 2 (its clip, its blended clip, then E = S − 2 extra clips) · 38 extra clips i16[E·N] · 39 their times
//   f64[E·N] · then at byte 160 the model origin, three f64 · 46 extra weights f32[E·N] · 47 the extra clips'
//   scratch poses (E poses, the scratch pose's layout each).
//   The blending job holds S normal layers: the scratch pose, the second one, then the extra poses.
// - skin table, 8 words each: [m, joints i32[m], inverse binds f32[16m], joint boxes (centre f32x4, extent
//   f32x4)[m] — the centre's fourth word i32 1 when the joint has a box, 0 when it has none —, first byte of its
//   rows in an instance's rows, skinning matrices (m lane matrices), 0, 0];
// - rigid table, 48 bytes each: [node, first byte of its rows, 1 when it has a box, 0], centre f32x4, extent f32x4;
// - instance records, RECORD bytes each, S per instance (its clip's, its blended clip's, its extra clips'): the
//   sampling kernel's block of five records (35 words, sampling-kernel.as.ts: the key and Hermite streams, no
//   morph weights), what it is bound to (word 35: S·clip + the clip table block b it was copied from; −1
//   nothing), its cache (word 36); last sampled times f64[S] per instance likewise;
// - clip table, S·RECORD bytes per clip: the block for that clip with each stream's cache word relative to an
//   instance's cache, block b writing into pose b (the scratch pose, the second one, the extra poses);
// - boxes, 32 bytes per instance: min f32x4, max f32x4 (xyz; relative to the model origin);
// - world boxes, 48 bytes per instance: min x y z, max x y z (f64, world space);
// - base box: the rest boxes of the vertices without weights (min, max), where every instance's box starts.

import { sample } from '../../pose/wasm/sampling-kernel.as';
import { blend } from '../../pose/wasm/blending-kernel.as';

/** Bytes of an instance record: the sampling block's 5 × 7 words, then the bound clip and the cache. */
const RECORD: usize = 160;
/** The sampling block's bytes, and the byte offsets of its four streams' records. */
const BLOCK: usize = 140;
/** Where the record keeps what it is bound to, and its cache. */
const BOUND: usize = 140, CACHE: usize = 144;

/** Relative growth of a box's extent, so that float32 rounding of c' and e' cannot shrink it (a few ulps). */
const GROW: f32 = 1.0 / 262144.0;

@inline function word(h: usize, i: i32): usize { return <usize>load<i32>(h + (<usize>i << 2)); }

/**
 * Binds instance record `record` to clip `clip` of the clip table, its block `target` (writing into pose
 * `target`: the scratch pose, the second one, then the extra poses): copies the block, fixes its caches, cursors at 0.
 */
function bind(h: usize, record: usize, clip: i32, target: i32): void {
  const slots = load<i32>(h, 148);
  const template = word(h, 16) + <usize>(clip * slots + target) * RECORD, cache = load<i32>(record, CACHE);
  memory.copy(record, template, BLOCK);
  for (let k: usize = 0; k < 4; k++) store<i32>(record + 28 * k, load<i32>(record + 28 * k, 16) + cache, 16);
  store<i32>(record, clip * slots + target, BOUND);
}

/**
 * Samples clip `clip` at time `t` (seconds) through instance record `record` (its cursors; `last` the time it
 * sampled last, f64) into pose `target` (0 the scratch pose, 1 the second, 2… the extra poses): a time
 * before the last starts its cursors over; NaN samples as before the first key.
 */
function sampleInto(h: usize, record: usize, last: usize, clip: i32, t: f64, target: i32): void {
  if (load<i32>(record, BOUND) !== clip * load<i32>(h, 148) + target) {
    bind(h, record, clip, target);
    store<f64>(last, Infinity);
  }
  if (t !== t) t = -Infinity;
  if (t < load<f64>(last)) for (let k: usize = 0; k < 4; k++) store<i32>(record + 28 * k, 0, 12);
  store<f64>(last, t);
  const slot = word(h, 21);
  store<f64>(slot, t);
  sample(slot, record);
}

/**
 * Instance k's local pose into the scratch pose: the rest pose, then its clip at its time (clip −1: the rest
 * pose), blended with its second clip at that one's time by its blend weight w (`blendLayers`' two-layer
 * crossfade, src/animation/blending-job.ts: the blending kernel's job with weights 1 − w and w). w ≤ 0 takes the
 * first clip alone, w ≥ 1 the second alone, each exactly as sampled. When w > 0 and its first extra clip weighs
 * more than 0, {@link manyClips} instead.
 */
export function localPose(h: usize, k: i32): void {
  const n = load<i32>(h), poseBytes = word(h, 5), rest = word(h, 4), T = word(h, 1), slots = load<i32>(h, 148);
  const records = word(h, 15) + <usize>(k * slots) * RECORD, lasts = word(h, 14) + (<usize>(k * slots) << 3);
  const w = load<f32>(word(h, 25) + (<usize>k << 2));
  if (slots > 2 && w > 0 && load<f32>(word(h, 46) + (<usize>(k * (slots - 2)) << 2)) > 0) {
    manyClips(h, k, records, lasts);
    return;
  }
  memory.copy(T, rest, poseBytes);
  const clip = <i32>load<i16>(word(h, 12) + (<usize>k << 1));
  if (!(w >= 1) && clip >= 0) sampleInto(h, records, lasts, clip, load<f64>(word(h, 13) + (<usize>k << 3)), 0);
  if (!(w > 0)) return;
  const other = <i32>load<i16>(word(h, 23) + (<usize>k << 1)), otherTime = load<f64>(word(h, 24) + (<usize>k << 3));
  if (w >= 1) {
    if (other >= 0) sampleInto(h, records + RECORD, lasts + 8, other, otherTime, 0);
    return;
  }
  const U = word(h, 22);
  memory.copy(U, rest, poseBytes);
  if (other >= 0) sampleInto(h, records + RECORD, lasts + 8, other, otherTime, 1);
  const job = word(h, 35);
  store<f32>(job, <f32>1 - w, 48);
  store<f32>(job, w, 68);
  blend(job);
}

/**
 * Instance k's local pose from up to S clips into the scratch pose: its clip, its blended clip at weight w and
 * its extra clips j at weights eⱼ (those up to the first at 0), each at its time over the rest pose, blended as
 * `blendLayers` blends normal layers (the blending kernel's job with S layers), its clip weighing
 * 1 − w − Σ eⱼ (nothing when ≤ 0).
 */
function manyClips(h: usize, k: i32, records: usize, lasts: usize): void {
  const poseBytes = word(h, 5), rest = word(h, 4), slots = load<i32>(h, 148), E = slots - 2, job = word(h, 35);
  const extraClips = word(h, 38) + (<usize>(k * E) << 1), extraTimes = word(h, 39) + (<usize>(k * E) << 3);
  const extraWeights = word(h, 46) + (<usize>(k * E) << 2), extraPoses = word(h, 47);
  const w = load<f32>(word(h, 25) + (<usize>k << 2));
  let used = 0, rest0: f32 = <f32>1 - w;
  for (; used < E; used++) {
    const e = load<f32>(extraWeights + (<usize>used << 2));
    if (!(e > 0)) break;
    rest0 -= e;
    const pose = extraPoses + <usize>used * poseBytes, clip = <i32>load<i16>(extraClips + (<usize>used << 1));
    memory.copy(pose, rest, poseBytes);
    if (clip >= 0) sampleInto(h, records + <usize>(2 + used) * RECORD, lasts + (<usize>(2 + used) << 3), clip, load<f64>(extraTimes + (<usize>used << 3)), 2 + used);
    store<f32>(job + 48 + 20 * <usize>(2 + used), e);
  }
  const T = word(h, 1), U = word(h, 22);
  memory.copy(T, rest, poseBytes);
  const clip = <i32>load<i16>(word(h, 12) + (<usize>k << 1));
  if (rest0 > 0 && clip >= 0) sampleInto(h, records, lasts, clip, load<f64>(word(h, 13) + (<usize>k << 3)), 0);
  memory.copy(U, rest, poseBytes);
  const other = <i32>load<i16>(word(h, 23) + (<usize>k << 1));
  if (w > 0 && other >= 0) sampleInto(h, records + RECORD, lasts + 8, other, load<f64>(word(h, 24) + (<usize>k << 3)), 1);
  store<f32>(job, rest0 > 0 ? rest0 : <f32>0, 48);
  store<f32>(job, w > 0 ? w : <f32>0, 68);
  store<i32>(job, 2 + used, 4);
  blend(job);
  store<i32>(job, 2, 4);
}

/**
 * Four instances per f32x4 (lane = an instance of the batch): a matrix is twelve f32x4 — its entries (r, c),
 * row r < 3, column c < 4, at byte 16·(3c + r) (column-major without the bottom row 0 0 0 1) — 192 bytes.
 * The entries are the pose kernel's (pose-kernel.as.ts `modelMatrices`, `skinMatrices`) bit for bit: each is
 * the same float32 products summed in the same order, ((a·x + b·y) + c·z) (+ d), the lanes being instances
 * instead of rows.
 */
const MATRIX: usize = 192;

/** Entry (r, c) of the lane matrix at `m`. */
@inline function entry(m: usize, r: i32, c: i32): v128 { return v128.load(m + <usize>(16 * (3 * c + r))); }

/** (a·x + b·y) + c·z per lane. */
@inline function sum3(a: v128, x: v128, b: v128, y: v128, c: v128, z: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(a, x), f32x4.mul(b, y)), f32x4.mul(c, z));
}

/** Lanes 0, 3 of `a`, 2 of `b`, 1 of `c`: one component of four vec3s packed in the 48 bytes a, b, c. */
@inline function gatherX(a: v128, b: v128, c: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 0, 3, 6, 6), c, 0, 1, 2, 5);
}

/** Lanes 1 of `a`, 0, 3 of `b`, 2 of `c`. */
@inline function gatherY(a: v128, b: v128, c: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 1, 4, 7, 7), c, 0, 1, 2, 6);
}

/** Lanes 2 of `a`, 1 of `b`, 0, 3 of `c`. */
@inline function gatherZ(a: v128, b: v128, c: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 2, 5, 5, 5), c, 0, 1, 4, 7);
}

/**
 * Stage 2, the local matrices L = T·R·S of joints 0…n−1 from the scratch pose (T, R, S; LocalPose's SoA),
 * four joints per f32x4, into `out`: per group of four joints twelve f32x4, the entries l0 l1 l2 l4 l5 l6 l8 l9
 * l10 l12 l13 l14 (column-major without the bottom row), lane = joint mod 4 — a lane's staging, which
 * {@link interleave} turns into lane matrices. The quaternion-to-matrix formula and its operation order are the
 * pose kernel's `modelMatrices` (exact in every lane: the same float32 operations). The last group reads the
 * pose's padding and the memory after it (lanes never used).
 */
function localMatrices(n: i32, T: usize, R: usize, S: usize, out: usize): void {
  const one = f32x4.splat(1);
  for (let g = 0; g < n; g += 4) {
    const q = R + (<usize>g << 4), t = T + <usize>(g * 12), s = S + <usize>(g * 12), o = out + <usize>(g * 48);
    const q0 = v128.load(q), q1 = v128.load(q, 16), q2 = v128.load(q, 32), q3 = v128.load(q, 48);
    const u0 = v128.shuffle<f32>(q0, q1, 0, 4, 1, 5), u1 = v128.shuffle<f32>(q2, q3, 0, 4, 1, 5);
    const u2 = v128.shuffle<f32>(q0, q1, 2, 6, 3, 7), u3 = v128.shuffle<f32>(q2, q3, 2, 6, 3, 7);
    const x = v128.shuffle<f32>(u0, u1, 0, 1, 4, 5), y = v128.shuffle<f32>(u0, u1, 2, 3, 6, 7);
    const z = v128.shuffle<f32>(u2, u3, 0, 1, 4, 5), w = v128.shuffle<f32>(u2, u3, 2, 3, 6, 7);
    const x2 = f32x4.add(x, x), y2 = f32x4.add(y, y), z2 = f32x4.add(z, z);
    const xx = f32x4.mul(x, x2), xy = f32x4.mul(x, y2), xz = f32x4.mul(x, z2);
    const yy = f32x4.mul(y, y2), yz = f32x4.mul(y, z2), zz = f32x4.mul(z, z2);
    const wx = f32x4.mul(w, x2), wy = f32x4.mul(w, y2), wz = f32x4.mul(w, z2);
    const s0 = v128.load(s), s1 = v128.load(s, 16), s2 = v128.load(s, 32);
    const sx = gatherX(s0, s1, s2), sy = gatherY(s0, s1, s2), sz = gatherZ(s0, s1, s2);
    v128.store(o, f32x4.mul(f32x4.sub(one, f32x4.add(yy, zz)), sx));
    v128.store(o, f32x4.mul(f32x4.add(xy, wz), sx), 16);
    v128.store(o, f32x4.mul(f32x4.sub(xz, wy), sx), 32);
    v128.store(o, f32x4.mul(f32x4.sub(xy, wz), sy), 48);
    v128.store(o, f32x4.mul(f32x4.sub(one, f32x4.add(xx, zz)), sy), 64);
    v128.store(o, f32x4.mul(f32x4.add(yz, wx), sy), 80);
    v128.store(o, f32x4.mul(f32x4.add(xz, wy), sz), 96);
    v128.store(o, f32x4.mul(f32x4.sub(yz, wx), sz), 112);
    v128.store(o, f32x4.mul(f32x4.sub(one, f32x4.add(xx, yy)), sz), 128);
    const t0 = v128.load(t), t1 = v128.load(t, 16), t2 = v128.load(t, 32);
    v128.store(o, gatherX(t0, t1, t2), 144);
    v128.store(o, gatherY(t0, t1, t2), 160);
    v128.store(o, gatherZ(t0, t1, t2), 176);
  }
}

/**
 * The four lanes' stagings (at `staging` + lane·`stride`, {@link localMatrices}) as lane matrices at `L`, one
 * per joint up to 4⌈n/4⌉ − 1: each group's entry is a 4×4 transpose (joints × lanes → lanes × joints).
 */
function interleave(n: i32, staging: usize, stride: usize, L: usize): void {
  for (let g = 0; g < n; g += 4) {
    const s = staging + <usize>(g * 48), o = L + <usize>g * MATRIX;
    for (let c: usize = 0; c < 192; c += 16) {
      storeTransposed(v128.load(s + c), v128.load(s + stride + c), v128.load(s + 2 * stride + c), v128.load(s + 3 * stride + c),
        o, o + MATRIX, o + 2 * MATRIX, o + 3 * MATRIX, c);
    }
  }
}

/** v − o per lane in f64, rounded to f32 (the root's translation less the origin, as the pose kernel's). */
@inline function lessOrigin(v: v128, o: f64): v128 {
  const d = f64x2.splat(o);
  const lo = f32x4.demote_f64x2_zero(f64x2.sub(f64x2.promote_low_f32x4(v), d));
  const hi = f32x4.demote_f64x2_zero(f64x2.sub(f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 2, 3)), d));
  return v128.shuffle<f32>(lo, hi, 0, 1, 4, 5);
}

/**
 * Stage 3, the model-space matrices M[i] = M[parent[i]]·L[i], parents first, of the four lanes at once (lane
 * matrices at `L` → at `M`); roots get T(−O)·L with O = (ox, oy, oz) subtracted from the translation in f64
 * before rounding to f32 — the pose kernel's `modelMatrices`, entry for entry.
 */
function modelMatrices4(n: i32, L: usize, parents: usize, M: usize, ox: f64, oy: f64, oz: f64): void {
  for (let i = 0; i < n; i++) {
    const l = L + <usize>i * MATRIX, o = M + <usize>i * MATRIX, p = load<i32>(parents + (<usize>i << 2));
    if (p < 0) {
      memory.copy(o, l, 144);
      v128.store(o, lessOrigin(entry(l, 0, 3), ox), 144);
      v128.store(o, lessOrigin(entry(l, 1, 3), oy), 160);
      v128.store(o, lessOrigin(entry(l, 2, 3), oz), 176);
      continue;
    }
    const a = M + <usize>p * MATRIX;
    const l00 = entry(l, 0, 0), l10 = entry(l, 1, 0), l20 = entry(l, 2, 0), l01 = entry(l, 0, 1), l11 = entry(l, 1, 1), l21 = entry(l, 2, 1);
    const l02 = entry(l, 0, 2), l12 = entry(l, 1, 2), l22 = entry(l, 2, 2), l03 = entry(l, 0, 3), l13 = entry(l, 1, 3), l23 = entry(l, 2, 3);
    for (let r = 0; r < 3; r++) {
      const a0 = entry(a, r, 0), a1 = entry(a, r, 1), a2 = entry(a, r, 2), a3 = entry(a, r, 3), e = o + (<usize>r << 4);
      v128.store(e, sum3(a0, l00, a1, l10, a2, l20));
      v128.store(e, sum3(a0, l01, a1, l11, a2, l21), 48);
      v128.store(e, sum3(a0, l02, a1, l12, a2, l22), 96);
      v128.store(e, f32x4.add(sum3(a0, l03, a1, l13, a2, l23), a3), 144);
    }
  }
}

/**
 * Axis r's centre c' = (k₀·cx + k₁·cy) + (k₂·cz + k₃) of a box (centre cx cy cz, extent ex ey ez, splat) under
 * a lane matrix whose row r is k₀…k₃ ({@link boxExtent}: its extent e' = (|k₀|·ex + |k₁|·ey) +
 * |k₂|·ez; Arvo, "Transforming axis-aligned bounding boxes", Graphics Gems 1990). The caller folds c' ± e' into
 * the union it keeps in registers.
 */
@inline function boxCentre(k0: v128, k1: v128, k2: v128, k3: v128, cx: v128, cy: v128, cz: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(k0, cx), f32x4.mul(k1, cy)), f32x4.add(f32x4.mul(k2, cz), k3));
}

@inline function boxExtent(k0: v128, k1: v128, k2: v128, ex: v128, ey: v128, ez: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(f32x4.abs(k0), ex), f32x4.mul(f32x4.abs(k1), ey)), f32x4.mul(f32x4.abs(k2), ez));
}

/** The union lo or hi of one axis grown by GROW·max(|lo|, |hi|) ({@link grown}'s growth). */
@inline function grown(lo: v128, hi: v128): v128 {
  return f32x4.mul(f32x4.splat(GROW), f32x4.max(f32x4.abs(lo), f32x4.abs(hi)));
}

/** The transpose of the 4×4 with rows a, b, c, d: its row `j` (lanes j of a, b, c, d) stored at `o` for j = 0…3 at o0…o3. */
@inline function storeTransposed(a: v128, b: v128, c: v128, d: v128, o0: usize, o1: usize, o2: usize, o3: usize, offset: usize): void {
  const t0 = v128.shuffle<f32>(a, b, 0, 4, 1, 5), t1 = v128.shuffle<f32>(c, d, 0, 4, 1, 5);
  const t2 = v128.shuffle<f32>(a, b, 2, 6, 3, 7), t3 = v128.shuffle<f32>(c, d, 2, 6, 3, 7);
  v128.store(o0 + offset, v128.shuffle<f32>(t0, t1, 0, 1, 4, 5));
  v128.store(o1 + offset, v128.shuffle<f32>(t0, t1, 2, 3, 6, 7));
  v128.store(o2 + offset, v128.shuffle<f32>(t2, t3, 0, 1, 4, 5));
  v128.store(o3 + offset, v128.shuffle<f32>(t2, t3, 2, 3, 6, 7));
}

/**
 * Stage 4a, of the four lanes at once: each skin's skinning matrices K[i] = M[joints[i]]·B[i] (the pose kernel's
 * `skinMatrices`, entry for entry) into the skin's lane matrices, and the lanes' boxes relative to the origin —
 * the base box, each bounded joint's box under K[i], each rigid node's box under its model matrix, the union
 * grown for rounding — at `boxes` (per lane min f32x4, max f32x4, the fourth lanes 0).
 */
function skinning4(h: usize, M: usize, boxes: usize): void {
  const skins = load<i32>(h, 32), skinTable = word(h, 9), rigids = load<i32>(h, 40), rigidTable = word(h, 11), base = word(h, 20);
  let loX = v128.load32_splat(base), loY = v128.load32_splat(base, 4), loZ = v128.load32_splat(base, 8);
  let hiX = v128.load32_splat(base, 16), hiY = v128.load32_splat(base, 20), hiZ = v128.load32_splat(base, 24);
  for (let s = 0; s < skins; s++) {
    const e = skinTable + <usize>(s << 5);
    const m = load<i32>(e), joints = <usize>load<i32>(e, 4), inverseBinds = <usize>load<i32>(e, 8), bounds = <usize>load<i32>(e, 12);
    const K = <usize>load<i32>(e, 20);
    for (let i = 0; i < m; i++) {
      const a = M + <usize>load<i32>(joints + (<usize>i << 2)) * MATRIX, b = inverseBinds + (<usize>i << 6), k = K + <usize>i * MATRIX;
      const b00 = v128.load32_splat(b), b10 = v128.load32_splat(b, 4), b20 = v128.load32_splat(b, 8);
      const b01 = v128.load32_splat(b, 16), b11 = v128.load32_splat(b, 20), b21 = v128.load32_splat(b, 24);
      const b02 = v128.load32_splat(b, 32), b12 = v128.load32_splat(b, 36), b22 = v128.load32_splat(b, 40);
      const b03 = v128.load32_splat(b, 48), b13 = v128.load32_splat(b, 52), b23 = v128.load32_splat(b, 56);
      const q = bounds + (<usize>i << 5), bounded = load<i32>(q, 12) !== 0;
      const cx = v128.load32_splat(q), cy = v128.load32_splat(q, 4), cz = v128.load32_splat(q, 8);
      const ex = v128.load32_splat(q, 16), ey = v128.load32_splat(q, 20), ez = v128.load32_splat(q, 24);
      // Row r of K[i] for r = 0, 1, 2, stored, and while in registers its axis of the joint's box.
      for (let r = 0; r < 3; r++) {
        const a0 = entry(a, r, 0), a1 = entry(a, r, 1), a2 = entry(a, r, 2), a3 = entry(a, r, 3), e = k + (<usize>r << 4);
        const k0 = sum3(a0, b00, a1, b10, a2, b20), k1 = sum3(a0, b01, a1, b11, a2, b21);
        const k2 = sum3(a0, b02, a1, b12, a2, b22), k3 = f32x4.add(sum3(a0, b03, a1, b13, a2, b23), a3);
        v128.store(e, k0);
        v128.store(e, k1, 48);
        v128.store(e, k2, 96);
        v128.store(e, k3, 144);
        if (!bounded) continue;
        const c = boxCentre(k0, k1, k2, k3, cx, cy, cz), x = boxExtent(k0, k1, k2, ex, ey, ez);
        const lo = f32x4.sub(c, x), hi = f32x4.add(c, x);
        if (r === 0) { loX = f32x4.min(loX, lo); hiX = f32x4.max(hiX, hi); }
        else if (r === 1) { loY = f32x4.min(loY, lo); hiY = f32x4.max(hiY, hi); }
        else { loZ = f32x4.min(loZ, lo); hiZ = f32x4.max(hiZ, hi); }
      }
    }
  }
  for (let r = 0; r < rigids; r++) {
    const e = rigidTable + <usize>r * 48;
    if (load<i32>(e, 8) === 0) continue;
    const k = M + <usize>load<i32>(e) * MATRIX, q = e + 16;
    const cx = v128.load32_splat(q), cy = v128.load32_splat(q, 4), cz = v128.load32_splat(q, 8);
    const ex = v128.load32_splat(q, 16), ey = v128.load32_splat(q, 20), ez = v128.load32_splat(q, 24);
    let c = boxCentre(entry(k, 0, 0), entry(k, 0, 1), entry(k, 0, 2), entry(k, 0, 3), cx, cy, cz);
    let x = boxExtent(entry(k, 0, 0), entry(k, 0, 1), entry(k, 0, 2), ex, ey, ez);
    loX = f32x4.min(loX, f32x4.sub(c, x)); hiX = f32x4.max(hiX, f32x4.add(c, x));
    c = boxCentre(entry(k, 1, 0), entry(k, 1, 1), entry(k, 1, 2), entry(k, 1, 3), cx, cy, cz);
    x = boxExtent(entry(k, 1, 0), entry(k, 1, 1), entry(k, 1, 2), ex, ey, ez);
    loY = f32x4.min(loY, f32x4.sub(c, x)); hiY = f32x4.max(hiY, f32x4.add(c, x));
    c = boxCentre(entry(k, 2, 0), entry(k, 2, 1), entry(k, 2, 2), entry(k, 2, 3), cx, cy, cz);
    x = boxExtent(entry(k, 2, 0), entry(k, 2, 1), entry(k, 2, 2), ex, ey, ez);
    loZ = f32x4.min(loZ, f32x4.sub(c, x)); hiZ = f32x4.max(hiZ, f32x4.add(c, x));
  }
  const gx = grown(loX, hiX), gy = grown(loY, hiY), gz = grown(loZ, hiZ), zero = f32x4.splat(0);
  storeTransposed(f32x4.sub(loX, gx), f32x4.sub(loY, gy), f32x4.sub(loZ, gz), zero, boxes, boxes + 32, boxes + 64, boxes + 96, 0);
  storeTransposed(f32x4.add(hiX, gx), f32x4.add(hiY, gy), f32x4.add(hiZ, gz), zero, boxes, boxes + 32, boxes + 64, boxes + 96, 16);
}

/**
 * Stage 4b, the lanes' palette rows: each skin's skinning matrices (from {@link skinning4}) and each rigid
 * node's model matrix as rows (row-major 3×4, `packPaletteRows`) at lane j's rows `oj` + the skin's or node's
 * offset.
 */
function rows4(h: usize, M: usize, o0: usize, o1: usize, o2: usize, o3: usize): void {
  const skins = load<i32>(h, 32), skinTable = word(h, 9), rigids = load<i32>(h, 40), rigidTable = word(h, 11);
  for (let s = 0; s < skins; s++) {
    const e = skinTable + <usize>(s << 5);
    const m = load<i32>(e), K = <usize>load<i32>(e, 20), out = <usize>load<i32>(e, 16);
    for (let i = 0; i < m; i++) {
      const k = K + <usize>i * MATRIX, at = out + <usize>i * 48;
      for (let r = 0; r < 3; r++) storeTransposed(entry(k, r, 0), entry(k, r, 1), entry(k, r, 2), entry(k, r, 3), o0, o1, o2, o3, at + (<usize>r << 4));
    }
  }
  for (let n = 0; n < rigids; n++) {
    const e = rigidTable + <usize>n * 48, a = M + <usize>load<i32>(e) * MATRIX, at = <usize>load<i32>(e, 4);
    for (let r = 0; r < 3; r++) storeTransposed(entry(a, r, 0), entry(a, r, 1), entry(a, r, 2), entry(a, r, 3), o0, o1, o2, o3, at + (<usize>r << 4));
  }
}

/**
 * The six clip planes of the column-major world → clip matrix at `m` (f64), as `boxOutsideFrustum`
 * (src/crowd/frustum.ts) tests them — −w ≤ x, y, z ≤ w, i.e. (r₃ ± rᵢ)·p ≥ 0 for the matrix rows r — into
 * `planes` (6 × 4 f64: a, b, c, d with a point p inside where a·x + b·y + c·z + d ≥ 0).
 */
function clipPlanes(m: usize, planes: usize): void {
  for (let i: usize = 0; i < 3; i++) {
    for (let k: usize = 0; k < 4; k++) {
      const w = load<f64>(m + (k << 5) + 24), r = load<f64>(m + (k << 5) + (i << 3));
      store<f64>(planes + (i << 6) + (k << 3), w + r);
      store<f64>(planes + (i << 6) + 32 + (k << 3), w - r);
    }
  }
}

/**
 * Whether the box (min x y z, max x y z, f64 at `box`) lies wholly outside one of the six planes at `planes`:
 * its farthest corner along the plane's normal, p·n + |n|·e from the centre, below the plane. The same test as
 * `boxOutsideFrustum`'s "all 8 corners beyond one plane", by centre and extent.
 */
function outsidePlanes(planes: usize, box: usize): bool {
  const x0 = load<f64>(box), y0 = load<f64>(box, 8), z0 = load<f64>(box, 16);
  const x1 = load<f64>(box, 24), y1 = load<f64>(box, 32), z1 = load<f64>(box, 40);
  const cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1), cz = 0.5 * (z0 + z1);
  const ex = 0.5 * (x1 - x0), ey = 0.5 * (y1 - y0), ez = 0.5 * (z1 - z0);
  for (let p: usize = 0; p < 6; p++) {
    const q = planes + (p << 5), a = load<f64>(q), b = load<f64>(q, 8), c = load<f64>(q, 16);
    if (a * cx + b * cy + c * cz + load<f64>(q, 24) + Math.abs(a) * ex + Math.abs(b) * ey + Math.abs(c) * ez < 0) return true;
  }
  return false;
}

/** Whether the column-major world matrix at `w` (f32) mirrors: det W < 0 (in f64, from its upper 3×3). */
function mirrors(w: usize): bool {
  const w0 = <f64>load<f32>(w), w1 = <f64>load<f32>(w, 4), w2 = <f64>load<f32>(w, 8);
  const w4 = <f64>load<f32>(w, 16), w5 = <f64>load<f32>(w, 20), w6 = <f64>load<f32>(w, 24);
  const w8 = <f64>load<f32>(w, 32), w9 = <f64>load<f32>(w, 36), w10 = <f64>load<f32>(w, 40);
  return w0 * (w5 * w10 - w6 * w9) - w4 * (w1 * w10 - w2 * w9) + w8 * (w1 * w6 - w2 * w5) < 0;
}

/**
 * Stage 5, the instance's world box: W' = W·T(O) in f64 (W the f32 world matrix at `w`, O = (ox, oy, oz)), as
 * `Crowd.worldOf` ({@link worldRows}), and the box at `box` (f32, relative to O) under it into `wb` (min x y z,
 * max x y z, f64), as `transformBoxInto`.
 */
function worldBox(w: usize, box: usize, wb: usize, ox: f64, oy: f64, oz: f64): void {
  const w0 = <f64>load<f32>(w), w1 = <f64>load<f32>(w, 4), w2 = <f64>load<f32>(w, 8);
  const w4 = <f64>load<f32>(w, 16), w5 = <f64>load<f32>(w, 20), w6 = <f64>load<f32>(w, 24);
  const w8 = <f64>load<f32>(w, 32), w9 = <f64>load<f32>(w, 36), w10 = <f64>load<f32>(w, 40);
  const w12 = <f64>load<f32>(w, 48) + (w0 * ox + w4 * oy + w8 * oz);
  const w13 = <f64>load<f32>(w, 52) + (w1 * ox + w5 * oy + w9 * oz);
  const w14 = <f64>load<f32>(w, 56) + (w2 * ox + w6 * oy + w10 * oz);
  const x0 = <f64>load<f32>(box), y0 = <f64>load<f32>(box, 4), z0 = <f64>load<f32>(box, 8);
  const x1 = <f64>load<f32>(box, 16), y1 = <f64>load<f32>(box, 20), z1 = <f64>load<f32>(box, 24);
  if (x0 <= x1) {
    const cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1), cz = 0.5 * (z0 + z1);
    const ex = 0.5 * (x1 - x0), ey = 0.5 * (y1 - y0), ez = 0.5 * (z1 - z0);
    let c = w0 * cx + w4 * cy + w8 * cz + w12, e = Math.abs(w0) * ex + Math.abs(w4) * ey + Math.abs(w8) * ez;
    store<f64>(wb, c - e); store<f64>(wb, c + e, 24);
    c = w1 * cx + w5 * cy + w9 * cz + w13; e = Math.abs(w1) * ex + Math.abs(w5) * ey + Math.abs(w9) * ez;
    store<f64>(wb, c - e, 8); store<f64>(wb, c + e, 32);
    c = w2 * cx + w6 * cy + w10 * cz + w14; e = Math.abs(w2) * ex + Math.abs(w6) * ey + Math.abs(w10) * ez;
    store<f64>(wb, c - e, 16); store<f64>(wb, c + e, 40);
  } else {
    store<f64>(wb, Infinity); store<f64>(wb, Infinity, 8); store<f64>(wb, Infinity, 16);
    store<f64>(wb, -Infinity, 24); store<f64>(wb, -Infinity, 32); store<f64>(wb, -Infinity, 40);
  }
}

/** W' = W·T(O) (see {@link worldBox}) as three rows (f32) at `o`, the start of a drawn instance's block. */
function worldRows(w: usize, o: usize, ox: f64, oy: f64, oz: f64): void {
  const w0 = <f64>load<f32>(w), w1 = <f64>load<f32>(w, 4), w2 = <f64>load<f32>(w, 8);
  const w4 = <f64>load<f32>(w, 16), w5 = <f64>load<f32>(w, 20), w6 = <f64>load<f32>(w, 24);
  const w8 = <f64>load<f32>(w, 32), w9 = <f64>load<f32>(w, 36), w10 = <f64>load<f32>(w, 40);
  const w12 = <f64>load<f32>(w, 48) + (w0 * ox + w4 * oy + w8 * oz);
  const w13 = <f64>load<f32>(w, 52) + (w1 * ox + w5 * oy + w9 * oz);
  const w14 = <f64>load<f32>(w, 56) + (w2 * ox + w6 * oy + w10 * oz);
  v128.store(o, f32x4(<f32>w0, <f32>w4, <f32>w8, <f32>w12));
  v128.store(o, f32x4(<f32>w1, <f32>w5, <f32>w9, <f32>w13), 16);
  v128.store(o, f32x4(<f32>w2, <f32>w6, <f32>w10, <f32>w14), 32);
}

/** Instances per batch at most (lanes plus the instances that share one). */
const BATCH: i32 = 64;

/**
 * Every instance 0…count−1, as `Crowd.prepare` does it in JavaScript for the other paths. In batches of up to
 * four evaluated instances, one per f32x4 lane (an unblended instance with the clip and time of the one before
 * it in its batch, neither blending, shares that one's lane: one evaluation), in stages (one function each):
 *
 * 1. each lane's local pose ({@link localPose}: the rest pose, its clip sampled, blended), then
 * 2. its local matrices ({@link localMatrices}, four joints per f32x4, into its lane's staging), then the
 *    lanes' as lane matrices ({@link interleave});
 * 3. the lanes' model-space matrices relative to the origin ({@link modelMatrices4});
 * 4. their skinning matrices and boxes relative to the origin ({@link skinning4}: the base box, each bounded
 *    joint's box under its skinning matrix and each rigid node's box under its matrix, grown by GROW for
 *    rounding), into each instance's box at `boxes`;
 * 5. per instance in order, its world box (f64, under W' = W·T(O), W its world matrix, f32 at `worlds`;
 *    {@link worldBox}) and, with a view-projection matrix, the cull: an instance whose world box is outside
 *    it is not drawn. A drawn one takes the next block — non-mirrored ones (det W ≥ 0) from block 0 up, mirrored
 *    ones from block `capacity − 1` down, moved after the others at the end —, W' as 3 rows (f32) at its start,
 *    `order[block]` = instance ({@link worldRows});
 * 6. the palette rows ({@link rows4}: each skin's skinning matrices as rows, row-major 3×4, `packPaletteRows`,
 *    and each rigid node's matrix likewise) into each lane's first drawn instance's block (a lane with none:
 *    into its spare rows), copied to the others sharing it.
 *
 * Returns the blocks that do not mirror; the mirrored ones follow them (their count at header word 34).
 */
export function animate(h: usize, count: i32): i32 {
  const n = load<i32>(h), model = word(h, 7), parents = word(h, 6), locals = word(h, 17), batch = word(h, 18);
  const T = word(h, 1), R = word(h, 2), S = word(h, 3);
  const clips = word(h, 12), times = word(h, 13), boxes = word(h, 19);
  const ox = load<f64>(h, 160), oy = load<f64>(h, 168), oz = load<f64>(h, 176), weights = word(h, 25);
  const worlds = word(h, 26), worldBounds = word(h, 27), blocks = word(h, 28), order = word(h, 29);
  const viewProjection = word(h, 30), capacity = load<i32>(h, 124), blockBytes = word(h, 32), worldBytes = word(h, 33);
  const planes = viewProjection + 128, staging = word(h, 36), stride = <usize>((n + 3) >> 2) * MATRIX;
  // The batch's scratch: lane boxes (4 × 32 bytes), each lane's rows (4 i32), each instance's lane (BATCH i32),
  // its rows when it shares them (BATCH i32), the rows' bytes, then each lane's spare rows.
  const laneBoxes = batch, laneRows = batch + 128, lanes = laneRows + 16, shared = lanes + (<usize>BATCH << 2);
  const rowBytes = <usize>load<i32>(shared + (<usize>BATCH << 2)), spare = shared + (<usize>BATCH << 2) + 16;
  if (viewProjection) clipPlanes(viewProjection, planes);
  let drawn = 0, back = capacity;
  for (let first = 0; first < count;) {
    // Stages 1–2: the batch's lanes.
    let used = 0, end = first, previousClip: i32 = -3, previousTime: f64 = NaN;
    for (; end < count && end - first < BATCH; end++) {
      const clip = <i32>load<i16>(clips + (<usize>end << 1)), time = load<f64>(times + (<usize>end << 3));
      // Shared only between unblended instances (a blended one never matches: its clip reads as −3; extra clips count only when blended).
      const unblended = load<f32>(weights + (<usize>end << 2)) === 0;
      if (!(end > first && unblended && clip === previousClip && time === previousTime)) {
        if (used === 4) break;
        previousClip = unblended ? clip : -3;
        previousTime = time;
        localPose(h, end);
        localMatrices(n, T, R, S, staging + <usize>used * stride);
        store<i32>(laneRows + (<usize>used << 2), <i32>(spare + <usize>used * rowBytes));
        used++;
      }
      store<i32>(lanes + (<usize>(end - first) << 2), used - 1);
    }
    for (let j = used; j < 4; j++) store<i32>(laneRows + (<usize>j << 2), <i32>(spare + <usize>j * rowBytes));
    // Stages 3–4.
    interleave(n, staging, stride, locals);
    modelMatrices4(n, locals, parents, model, ox, oy, oz);
    skinning4(h, model, laneBoxes);
    // Stage 5: per instance, its box, world box, cull and block.
    for (let k = first; k < end; k++) {
      const lane = <usize>load<i32>(lanes + (<usize>(k - first) << 2)), box = boxes + (<usize>k << 5), w = worlds + (<usize>k << 6);
      v128.store(box, v128.load(laneBoxes + (lane << 5)));
      v128.store(box, v128.load(laneBoxes + (lane << 5), 16), 16);
      const wb = worldBounds + <usize>k * 48;
      worldBox(w, box, wb, ox, oy, oz);
      store<i32>(shared + (<usize>(k - first) << 2), 0);
      if (viewProjection && outsidePlanes(planes, wb)) continue;
      const slot = mirrors(w) ? --back : drawn++;
      const o = blocks + <usize>slot * blockBytes, rows = o + worldBytes, laneRow = laneRows + (lane << 2);
      worldRows(w, o, ox, oy, oz);
      store<i32>(order + (<usize>slot << 2), k);
      if (<usize>load<i32>(laneRow) === spare + lane * rowBytes) store<i32>(laneRow, <i32>rows);
      else store<i32>(shared + (<usize>(k - first) << 2), <i32>rows);
    }
    // Stage 6: the rows, then the copies for instances sharing a lane.
    rows4(h, model, <usize>load<i32>(laneRows), <usize>load<i32>(laneRows, 4), <usize>load<i32>(laneRows, 8), <usize>load<i32>(laneRows, 12));
    for (let k = first; k < end; k++) {
      const rows = <usize>load<i32>(shared + (<usize>(k - first) << 2));
      if (rows) memory.copy(rows, <usize>load<i32>(laneRows + (<usize>load<i32>(lanes + (<usize>(k - first) << 2)) << 2)), rowBytes);
    }
    first = end;
  }
  const mirroredCount = capacity - back;
  if (mirroredCount > 0 && back > drawn) {
    memory.copy(blocks + <usize>drawn * blockBytes, blocks + <usize>back * blockBytes, <usize>mirroredCount * blockBytes);
    memory.copy(order + (<usize>drawn << 2), order + (<usize>back << 2), <usize>mirroredCount << 2);
  }
  store<i32>(h, mirroredCount, 136);
  return drawn;
}
