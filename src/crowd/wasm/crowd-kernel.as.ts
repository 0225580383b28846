// AssemblyScript source of the crowd kernel: every live instance's pose in one call — sample its clip, model-space
// matrices, skinning matrices, packed palette rows and its box — for `CrowdKernel` (src/crowd/crowd-kernel.ts).
// Compiled by `npm run build:wasm` (build/compile-crowd-kernel.ts) together with the two kernels it calls, the
// sampling kernel's `sample` and the pose kernel's `modelMatrices` and `skinMatrices` (src/pose/wasm/): the same
// functions, so an instance's pose is the one a `SamplingKernel` and a `PoseKernel` compute. Not type-checked by
// tsc (AssemblyScript types); `asc` checks it.
//
// Byte offsets into the crowd's memory, chosen by CrowdKernel. The header, i32 words:
//   0 joints n · 1 scratch pose (T, then R, S at 2, 3) · 4 rest pose (the same layout) · 5 pose bytes ·
//   6 parents i32[n] · 7 model matrices f32[16n] · 8 skins · 9 skin table · 10 rigid nodes · 11 rigid table ·
//   12 instance clips i16[N] · 13 instance times f64[N] · 14 last sampled times f64[2N] (clip, then blended
//   clip) · 15 instance records · 16 clip table · 17 local matrices (⌈n/4⌉ groups
//   of 12 f32x4, `localMatrices`) · 18 unused · 19 boxes ·
//   20 base box · 21 time slot (f64) · 22 second scratch pose (the
//   blended clip's; the same layout) · 23 blended clips i16[N] · 24 their times f64[N] · 25 blend weights f32[N] ·
//   26 world matrices f32[16N] (column-major) · 27 world boxes f64[6N] · 28 blocks · 29 draw order i32[N] ·
//   30 the view-projection matrix f64[16], then room for its six planes f64[24] (0: no culling) · 31 capacity N · 32 bytes per block · 33 bytes of a
//   block's world rows · 34 (written by `animate`) mirrored blocks · 35 the blending job (blending-kernel.as.ts:
//   two normal layers, the scratch pose at weight 1 − w and the second one at w, into the scratch pose) · then at
//   byte 160 the model origin, three f64.
// - skin table, 8 words each: [m, joints i32[m], inverse binds f32[16m], joint boxes (centre f32x4, extent
//   f32x4)[m] — the centre's fourth word i32 1 when the joint has a box, 0 when it has none —, first byte of its
//   rows in an instance's rows, 0, 0, 0];
// - rigid table, 48 bytes each: [node, first byte of its rows, 1 when it has a box, 0], centre f32x4, extent f32x4;
// - instance records, RECORD bytes each, two per instance (its clip's, then its blended clip's): the sampling
//   kernel's block of five records (35 words, sampling-kernel.as.ts: the key and Hermite streams, no morph
//   weights), what it is bound to (word 35: 2·clip, + 1 for the clip table's second block; −1 nothing), its cache
//   (word 36);
// - clip table, 2·RECORD bytes per clip: the block for that clip with each stream's cache word relative to an
//   instance's cache, writing into the scratch pose, then the same writing into the second scratch pose;
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
 * Binds instance record `record` to clip `clip` of the clip table (its second block, writing into the second
 * scratch pose, when `second`): copies the block, fixes its caches, cursors at 0.
 */
function bind(h: usize, record: usize, clip: i32, second: bool): void {
  const template = word(h, 16) + <usize>clip * (RECORD << 1) + (second ? RECORD : 0), cache = load<i32>(record, CACHE);
  memory.copy(record, template, BLOCK);
  for (let k: usize = 0; k < 4; k++) store<i32>(record + 28 * k, load<i32>(record + 28 * k, 16) + cache, 16);
  store<i32>(record, (clip << 1) | (second ? 1 : 0), BOUND);
}

/**
 * Samples clip `clip` at time `t` (seconds) through instance record `record` (its cursors; `last` the time it
 * sampled last, f64) into the scratch pose its clip table block writes (the second when `second`): a time
 * before the last starts its cursors over; NaN samples as before the first key.
 */
function sampleInto(h: usize, record: usize, last: usize, clip: i32, t: f64, second: bool): void {
  if (load<i32>(record, BOUND) !== ((clip << 1) | (second ? 1 : 0))) {
    bind(h, record, clip, second);
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
 * first clip alone, w ≥ 1 the second alone, each exactly as sampled.
 */
export function localPose(h: usize, k: i32): void {
  const n = load<i32>(h), poseBytes = word(h, 5), rest = word(h, 4), T = word(h, 1);
  memory.copy(T, rest, poseBytes);
  const records = word(h, 15) + <usize>k * (RECORD << 1), lasts = word(h, 14) + (<usize>k << 4);
  const w = load<f32>(word(h, 25) + (<usize>k << 2));
  const clip = <i32>load<i16>(word(h, 12) + (<usize>k << 1));
  if (!(w >= 1) && clip >= 0) sampleInto(h, records, lasts, clip, load<f64>(word(h, 13) + (<usize>k << 3)), false);
  if (!(w > 0)) return;
  const other = <i32>load<i16>(word(h, 23) + (<usize>k << 1)), otherTime = load<f64>(word(h, 24) + (<usize>k << 3));
  if (w >= 1) {
    if (other >= 0) sampleInto(h, records + RECORD, lasts + 8, other, otherTime, false);
    return;
  }
  const U = word(h, 22);
  memory.copy(U, rest, poseBytes);
  if (other >= 0) sampleInto(h, records + RECORD, lasts + 8, other, otherTime, true);
  const job = word(h, 35);
  store<f32>(job, <f32>1 - w, 48);
  store<f32>(job, w, 68);
  blend(job);
}

/**
 * The box at `q` (centre f32x4, extent f32x4) under the affine matrix with columns a0, a1, a2, a3, as centre
 * c' = A·c ({@link boxCentre}) and extent e' = |A₃ₓ₃|·e ({@link boxExtent}; Arvo, "Transforming axis-aligned
 * bounding boxes", Graphics Gems 1990). The caller keeps the union in registers (a min and a max it carries
 * through its loop), not in memory, so no joint waits on the last one's store, and grows the union once for
 * rounding ({@link grown}).
 */
@inline function boxCentre(a0: v128, a1: v128, a2: v128, a3: v128, q: usize): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(a0, v128.load32_splat(q)), f32x4.mul(a1, v128.load32_splat(q, 4))),
    f32x4.add(f32x4.mul(a2, v128.load32_splat(q, 8)), a3));
}

@inline function boxExtent(a0: v128, a1: v128, a2: v128, q: usize): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(f32x4.abs(a0), v128.load32_splat(q, 16)), f32x4.mul(f32x4.abs(a1), v128.load32_splat(q, 20))),
    f32x4.mul(f32x4.abs(a2), v128.load32_splat(q, 24)));
}

/**
 * The union (lo, hi) grown by GROW·max(|lo|, |hi|) per axis: c' ± e' of every box in it is within a few float32
 * ulps of |c'| + e' ≤ max(|lo|, |hi|) of its exact value, so the grown union holds every exact box. Returns the
 * growth, to subtract from lo and add to hi.
 */
@inline function grown(lo: v128, hi: v128): v128 {
  return f32x4.mul(f32x4.splat(GROW), f32x4.max(f32x4.abs(lo), f32x4.abs(hi)));
}

/** The affine matrix with columns c0…c3 (column-major) as its upper three rows, row-major 3×4 at `o` (`packPaletteRows`). */
@inline function packRows(o: usize, c0: v128, c1: v128, c2: v128, c3: v128): void {
  const t0 = v128.shuffle<f32>(c0, c1, 0, 4, 1, 5), t1 = v128.shuffle<f32>(c2, c3, 0, 4, 1, 5);
  const t2 = v128.shuffle<f32>(c0, c1, 2, 6, 3, 7), t3 = v128.shuffle<f32>(c2, c3, 2, 6, 3, 7);
  v128.store(o, v128.shuffle<f32>(t0, t1, 0, 1, 4, 5));
  v128.store(o, v128.shuffle<f32>(t0, t1, 2, 3, 6, 7), 16);
  v128.store(o, v128.shuffle<f32>(t2, t3, 0, 1, 4, 5), 32);
}

// The pose kernel's column arithmetic (pose-kernel.as.ts `column`, `direction`), op for op, so the crowd's
// matrices are bit for bit the ones a `PoseKernel` computes.
@inline function column(a0: v128, a1: v128, a2: v128, x: v128, y: v128, z: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(a0, x), f32x4.mul(a1, y)), f32x4.mul(a2, z));
}

// A direction column's fourth lane (0·x + 0·y + 0·z, −0 for negative factors) cleared to +0: the bottom row
// reads 0 0 0 1 exactly.
@inline function direction(a0: v128, a1: v128, a2: v128, x: v128, y: v128, z: v128): v128 {
  return v128.and(column(a0, a1, a2, x, y, z), i32x4(-1, -1, -1, 0));
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
 * four joints per f32x4: per group of four joints twelve f32x4 at `L` + 192·group, the components l0 l1 l2 l4 l5
 * l6 l8 l9 l10 (the 3×3 part, column-major) and l12 l13 l14 (the translation), lane = joint mod 4. The
 * quaternion-to-matrix formula and its operation order are the pose kernel's `modelMatrices` (exact in every
 * lane: the same float32 operations). A group past joint n−1 reads the padding and the memory after the pose
 * (never used); `L` holds ⌈n/4⌉ groups.
 */
function localMatrices(n: i32, T: usize, R: usize, S: usize, L: usize): void {
  const one = f32x4.splat(1);
  for (let g = 0; g < n; g += 4) {
    const q = R + (<usize>g << 4), t = T + <usize>(g * 12), s = S + <usize>(g * 12), o = L + <usize>(g * 48);
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
 * Stage 3, the model-space matrices M[i] = M[parent[i]]·L[i], parents first, from {@link localMatrices}' `L`;
 * roots get T(−O)·L with O = (ox, oy, oz) subtracted from the translation in f64 before rounding to f32. The
 * pose kernel's `modelMatrices` (the same products, bit for bit) with the local matrices computed beforehand.
 */
function modelFromLocal(n: i32, L: usize, parents: usize, out: usize, ox: f64, oy: f64, oz: f64): void {
  for (let i = 0; i < n; i++) {
    const l = L + (<usize>(i >> 2) * 192) + (<usize>(i & 3) << 2), o = out + (<usize>i << 6);
    const p = load<i32>(parents + (<usize>i << 2));
    if (p < 0) {
      v128.store(o, f32x4(load<f32>(l), load<f32>(l, 16), load<f32>(l, 32), 0));
      v128.store(o, f32x4(load<f32>(l, 48), load<f32>(l, 64), load<f32>(l, 80), 0), 16);
      v128.store(o, f32x4(load<f32>(l, 96), load<f32>(l, 112), load<f32>(l, 128), 0), 32);
      v128.store(o, f32x4(<f32>(<f64>load<f32>(l, 144) - ox), <f32>(<f64>load<f32>(l, 160) - oy), <f32>(<f64>load<f32>(l, 176) - oz), 1), 48);
    } else {
      const a = out + (<usize>p << 6);
      const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
      v128.store(o, direction(a0, a1, a2, v128.load32_splat(l), v128.load32_splat(l, 16), v128.load32_splat(l, 32)));
      v128.store(o, direction(a0, a1, a2, v128.load32_splat(l, 48), v128.load32_splat(l, 64), v128.load32_splat(l, 80)), 16);
      v128.store(o, direction(a0, a1, a2, v128.load32_splat(l, 96), v128.load32_splat(l, 112), v128.load32_splat(l, 128)), 32);
      v128.store(o, f32x4.add(column(a0, a1, a2, v128.load32_splat(l, 144), v128.load32_splat(l, 160), v128.load32_splat(l, 176)), a3), 48);
    }
  }
}

/**
 * Stage 4, one pass over each skin's joints: its skinning matrix K[i] = M[joints[i]]·B[i] (the pose kernel's
 * `skinMatrices`, bit for bit), kept in registers, written as palette rows at `rows` + the skin's offset, and,
 * when the joint has a box, that box under K[i] added to the union (lo, hi) at `box` (min f32x4, max f32x4,
 * read and written back). Then each rigid node's rows and box under its model matrix.
 */
function skinRowsAndBoxes(h: usize, model: usize, rows: usize, box: usize): void {
  const skins = load<i32>(h, 32), skinTable = word(h, 9), rigids = load<i32>(h, 40), rigidTable = word(h, 11);
  let lo = v128.load(box), hi = v128.load(box, 16);
  for (let s = 0; s < skins; s++) {
    const e = skinTable + <usize>(s << 5);
    const m = load<i32>(e), joints = <usize>load<i32>(e, 4), inverseBinds = <usize>load<i32>(e, 8), bounds = <usize>load<i32>(e, 12);
    const out = rows + <usize>load<i32>(e, 16);
    for (let i = 0; i < m; i++) {
      const a = model + (<usize>load<i32>(joints + (<usize>i << 2)) << 6);
      const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
      const b = inverseBinds + (<usize>i << 6);
      const k0 = direction(a0, a1, a2, v128.load32_splat(b), v128.load32_splat(b, 4), v128.load32_splat(b, 8));
      const k1 = direction(a0, a1, a2, v128.load32_splat(b, 16), v128.load32_splat(b, 20), v128.load32_splat(b, 24));
      const k2 = direction(a0, a1, a2, v128.load32_splat(b, 32), v128.load32_splat(b, 36), v128.load32_splat(b, 40));
      const k3 = f32x4.add(column(a0, a1, a2, v128.load32_splat(b, 48), v128.load32_splat(b, 52), v128.load32_splat(b, 56)), a3);
      packRows(out + <usize>i * 48, k0, k1, k2, k3);
      const q = bounds + (<usize>i << 5);
      if (load<i32>(q, 12) === 0) continue;
      const c = boxCentre(k0, k1, k2, k3, q), x = boxExtent(k0, k1, k2, q);
      lo = f32x4.min(lo, f32x4.sub(c, x));
      hi = f32x4.max(hi, f32x4.add(c, x));
    }
  }
  for (let r = 0; r < rigids; r++) {
    const e = rigidTable + <usize>r * 48, a = model + (<usize>load<i32>(e) << 6);
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
    packRows(rows + <usize>load<i32>(e, 4), a0, a1, a2, a3);
    if (load<i32>(e, 8) === 0) continue;
    const c = boxCentre(a0, a1, a2, a3, e + 16), x = boxExtent(a0, a1, a2, e + 16);
    lo = f32x4.min(lo, f32x4.sub(c, x));
    hi = f32x4.max(hi, f32x4.add(c, x));
  }
  v128.store(box, lo);
  v128.store(box, hi, 16);
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
 * Stage 5, the instance in the world: W' = W·T(O) in f64 (W the f32 world matrix at `w`, O = (ox, oy, oz)), as
 * `Crowd.worldOf`; the box at `box` (f32, relative to O) under it into `wb` (min x y z, max x y z, f64), as
 * `transformBoxInto`; W' as three rows (f32) at `o`, the start of the instance's block.
 */
function placeInWorld(w: usize, box: usize, wb: usize, o: usize, ox: f64, oy: f64, oz: f64): void {
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
  v128.store(o, f32x4(<f32>w0, <f32>w4, <f32>w8, <f32>w12));
  v128.store(o, f32x4(<f32>w1, <f32>w5, <f32>w9, <f32>w13), 16);
  v128.store(o, f32x4(<f32>w2, <f32>w6, <f32>w10, <f32>w14), 32);
}

/**
 * Every instance 0…count−1, as `Crowd.prepare` does it in JavaScript for the other paths, in stages (one
 * function each):
 *
 * 1. its local pose ({@link localPose}: the rest pose, its clip sampled, blended);
 * 2. its local matrices, four joints per f32x4 ({@link localMatrices});
 * 3. its model-space matrices relative to the origin ({@link modelFromLocal});
 * 4. in one pass over each skin's joints its skinning matrices, written as palette rows (row-major 3×4,
 *    `packPaletteRows`) into its block, and its box relative to the origin (at `boxes`): the base box, each
 *    bounded joint's box under its skinning matrix, then each rigid node's rows and box under its matrix
 *    ({@link skinRowsAndBoxes}), grown by GROW for rounding. An instance with the clip and time of the one
 *    before it, neither blending, copies that one's rows and box instead of stages 1–4;
 * 5. its world box (f64, under W' = W·T(O), W its world matrix, f32 at `worlds`) and W' as 3 rows (f32) at the
 *    start of its block ({@link placeInWorld}); with a view-projection matrix, the cull: an instance whose
 *    world box is outside it is not drawn.
 *
 * Its block is the next free one — non-mirrored ones (det W ≥ 0) from block 0 up, mirrored ones from block
 * `capacity − 1` down, moved after the others at the end — written before the cull and kept only when drawn
 * (a culled instance's block is the next one's); `order[block]` = instance.
 *
 * Returns the blocks that do not mirror; the mirrored ones follow them (their count at header word 34).
 */
export function animate(h: usize, count: i32): i32 {
  const n = load<i32>(h), model = word(h, 7), parents = word(h, 6), locals = word(h, 17);
  const T = word(h, 1), R = word(h, 2), S = word(h, 3);
  const clips = word(h, 12), times = word(h, 13), boxes = word(h, 19), base = word(h, 20);
  const ox = load<f64>(h, 160), oy = load<f64>(h, 168), oz = load<f64>(h, 176), weights = word(h, 25);
  const worlds = word(h, 26), worldBounds = word(h, 27), blocks = word(h, 28), order = word(h, 29);
  const viewProjection = word(h, 30), capacity = load<i32>(h, 124), blockBytes = word(h, 32), worldBytes = word(h, 33);
  const planes = viewProjection + 128, rowBytes = blockBytes - worldBytes;
  if (viewProjection) clipPlanes(viewProjection, planes);
  let previousClip: i32 = -3, previousTime: f64 = NaN, previousRows: usize = 0, drawn = 0, back = capacity;
  for (let k = 0; k < count; k++) {
    const box = boxes + (<usize>k << 5), w = worlds + (<usize>k << 6);
    const mirrored = mirrors(w), slot = mirrored ? back - 1 : drawn;
    const o = blocks + <usize>slot * blockBytes, rows = o + worldBytes;
    const clip = <i32>load<i16>(clips + (<usize>k << 1)), time = load<f64>(times + (<usize>k << 3));
    // Shared only between unblended instances (a blended one never matches: its clip reads as −3).
    const unblended = load<f32>(weights + (<usize>k << 2)) === 0;
    if (k > 0 && unblended && clip === previousClip && time === previousTime) {
      memory.copy(box, box - 32, 32);
      if (rows !== previousRows) memory.copy(rows, previousRows, rowBytes);
    } else {
      previousClip = unblended ? clip : -3;
      previousTime = time;
      localPose(h, k);
      localMatrices(n, T, R, S, locals);
      modelFromLocal(n, locals, parents, model, ox, oy, oz);
      v128.store(box, v128.load(base));
      v128.store(box, v128.load(base, 16), 16);
      skinRowsAndBoxes(h, model, rows, box);
      const lo = v128.load(box), hi = v128.load(box, 16), g = grown(lo, hi);
      v128.store(box, f32x4.sub(lo, g));
      v128.store(box, f32x4.add(hi, g), 16);
    }
    previousRows = rows;
    const wb = worldBounds + <usize>k * 48;
    placeInWorld(w, box, wb, o, ox, oy, oz);
    if (viewProjection && outsidePlanes(planes, wb)) continue;
    if (mirrored) back--;
    else drawn++;
    store<i32>(order + (<usize>slot << 2), k);
  }
  const mirroredCount = capacity - back;
  if (mirroredCount > 0 && back > drawn) {
    memory.copy(blocks + <usize>drawn * blockBytes, blocks + <usize>back * blockBytes, <usize>mirroredCount * blockBytes);
    memory.copy(order + (<usize>drawn << 2), order + (<usize>back << 2), <usize>mirroredCount << 2);
  }
  store<i32>(h, mirroredCount, 136);
  return drawn;
}
