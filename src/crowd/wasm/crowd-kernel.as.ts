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
//   clip) · 15 instance records · 16 clip table · 17, 18 unused · 19 boxes ·
//   20 base box · 21 time slot (f64) · 22 second scratch pose (the
//   blended clip's; the same layout) · 23 blended clips i16[N] · 24 their times f64[N] · 25 blend weights f32[N] ·
//   26 world matrices f32[16N] (column-major) · 27 world boxes f64[6N] · 28 blocks · 29 draw order i32[N] ·
//   30 the view-projection matrix f64[16], then room for its six planes f64[24] (0: no culling) · 31 capacity N · 32 bytes per block · 33 bytes of a
//   block's world rows · 34 (written by `animate`) mirrored blocks · 35 the blending job (blending-kernel.as.ts:
//   two normal layers, the scratch pose at weight 1 − w and the second one at w, into the scratch pose) · then at
//   byte 160 the model origin, three f64.
// - skin table, 8 words each: [m, joints i32[m], inverse binds f32[16m], skinning matrices f32[16m], first byte
//   of its rows in an instance's rows, bounded joints b, their indices i32[b], their boxes (centre f32x4,
//   extent f32x4)[b]];
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
import { modelMatrices, skinMatrices } from '../../pose/wasm/pose-kernel.as';
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
 * The box at `q` (centre f32x4, extent f32x4) under the affine matrix at `a` (column-major), as centre
 * c' = A·c ({@link boxCentre}) and extent e' = |A₃ₓ₃|·e ({@link boxExtent}; Arvo, "Transforming axis-aligned
 * bounding boxes", Graphics Gems 1990). The caller keeps the union in registers (a min and a max it carries
 * through its loop), not in memory, so no joint waits on the last one's store, and grows the union once for
 * rounding ({@link grown}).
 */
@inline function boxCentre(a: usize, q: usize): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(v128.load(a), v128.load32_splat(q)), f32x4.mul(v128.load(a, 16), v128.load32_splat(q, 4))),
    f32x4.add(f32x4.mul(v128.load(a, 32), v128.load32_splat(q, 8)), v128.load(a, 48)));
}

@inline function boxExtent(a: usize, q: usize): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(f32x4.abs(v128.load(a)), v128.load32_splat(q, 16)), f32x4.mul(f32x4.abs(v128.load(a, 16)), v128.load32_splat(q, 20))),
    f32x4.mul(f32x4.abs(v128.load(a, 32)), v128.load32_splat(q, 24)));
}

/**
 * The union (lo, hi) grown by GROW·max(|lo|, |hi|) per axis: c' ± e' of every box in it is within a few float32
 * ulps of |c'| + e' ≤ max(|lo|, |hi|) of its exact value, so the grown union holds every exact box. Returns the
 * growth, to subtract from lo and add to hi.
 */
@inline function grown(lo: v128, hi: v128): v128 {
  return f32x4.mul(f32x4.splat(GROW), f32x4.max(f32x4.abs(lo), f32x4.abs(hi)));
}

/** The upper three rows of the column-major affine matrix at `a`, row-major 3×4 at `o` (`packPaletteRows`). */
@inline function packRows(o: usize, a: usize): void {
  const c0 = v128.load(a), c1 = v128.load(a, 16), c2 = v128.load(a, 32), c3 = v128.load(a, 48);
  const t0 = v128.shuffle<f32>(c0, c1, 0, 4, 1, 5), t1 = v128.shuffle<f32>(c2, c3, 0, 4, 1, 5);
  const t2 = v128.shuffle<f32>(c0, c1, 2, 6, 3, 7), t3 = v128.shuffle<f32>(c2, c3, 2, 6, 3, 7);
  v128.store(o, v128.shuffle<f32>(t0, t1, 0, 1, 4, 5));
  v128.store(o, v128.shuffle<f32>(t0, t1, 2, 3, 6, 7), 16);
  v128.store(o, v128.shuffle<f32>(t2, t3, 0, 1, 4, 5), 32);
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

/**
 * Every instance 0…count−1, as `Crowd.prepare` does it in JavaScript for the other paths:
 *
 * - its local pose ({@link localPose}), model-space matrices relative to the origin and each skin's skinning
 *   matrices (an instance with the clip and time of the one before it, neither blending, keeps that one's);
 * - its box relative to the origin (at `boxes`): the base box, each bounded joint's box under its skinning matrix
 *   and each rigid node's box under its matrix (centre and extent, grown by GROW for rounding);
 * - its world box (f64, `transformBoxInto` under W' = W·T(O), W its world matrix, f32 at `worlds`), and, with a
 *   view-projection matrix, the cull: an instance whose world box is outside it is not drawn;
 * - the block of each drawn one — non-mirrored ones (det W ≥ 0) from block 0 up, mirrored ones from block
 *   `capacity − 1` down, moved after the others at the end: W' as 3 rows (f32), then each skin's skinning matrices
 *   as rows (row-major 3×4, `packPaletteRows`) and each rigid node's matrix likewise; `order[block]` = instance.
 *
 * Returns the blocks that do not mirror; the mirrored ones follow them (their count at header word 34).
 */
export function animate(h: usize, count: i32): i32 {
  const n = load<i32>(h), model = word(h, 7), parents = word(h, 6);
  const T = word(h, 1), R = word(h, 2), S = word(h, 3);
  const skins = load<i32>(h, 32), skinTable = word(h, 9), rigids = load<i32>(h, 40), rigidTable = word(h, 11);
  const clips = word(h, 12), times = word(h, 13), boxes = word(h, 19), base = word(h, 20);
  const ox = load<f64>(h, 160), oy = load<f64>(h, 168), oz = load<f64>(h, 176), weights = word(h, 25);
  const worlds = word(h, 26), worldBounds = word(h, 27), blocks = word(h, 28), order = word(h, 29);
  const viewProjection = word(h, 30), capacity = load<i32>(h, 124), blockBytes = word(h, 32), worldBytes = word(h, 33);
  const planes = viewProjection + 128;
  if (viewProjection) clipPlanes(viewProjection, planes);
  let previousClip: i32 = -3, previousTime: f64 = NaN, drawn = 0, back = capacity;
  for (let k = 0; k < count; k++) {
    const box = boxes + (<usize>k << 5);
    const clip = <i32>load<i16>(clips + (<usize>k << 1)), time = load<f64>(times + (<usize>k << 3));
    // Shared only between unblended instances (a blended one never matches: its clip reads as −3).
    const unblended = load<f32>(weights + (<usize>k << 2)) === 0;
    if (k > 0 && unblended && clip === previousClip && time === previousTime) {
      memory.copy(box, box - 32, 32);
    } else {
      previousClip = unblended ? clip : -3;
      previousTime = time;
      localPose(h, k);
      modelMatrices(n, 0, T, R, S, parents, model, ox, oy, oz);
      let lo = v128.load(base), hi = v128.load(base, 16);
      for (let s = 0; s < skins; s++) {
        const e = skinTable + <usize>(s << 5);
        const K = <usize>load<i32>(e, 12);
        skinMatrices(load<i32>(e), <usize>load<i32>(e, 4), model, <usize>load<i32>(e, 8), K);
        const b = load<i32>(e, 20), joints = <usize>load<i32>(e, 24), bounds = <usize>load<i32>(e, 28);
        for (let j = 0; j < b; j++) {
          const a = K + (<usize>load<i32>(joints + (<usize>j << 2)) << 6), q = bounds + (<usize>j << 5);
          const c = boxCentre(a, q), x = boxExtent(a, q);
          lo = f32x4.min(lo, f32x4.sub(c, x));
          hi = f32x4.max(hi, f32x4.add(c, x));
        }
      }
      for (let r = 0; r < rigids; r++) {
        const e = rigidTable + <usize>r * 48;
        if (load<i32>(e, 8) === 0) continue;
        const a = model + (<usize>load<i32>(e) << 6), c = boxCentre(a, e + 16), x = boxExtent(a, e + 16);
        lo = f32x4.min(lo, f32x4.sub(c, x));
        hi = f32x4.max(hi, f32x4.add(c, x));
      }
      const g = grown(lo, hi);
      v128.store(box, f32x4.sub(lo, g));
      v128.store(box, f32x4.add(hi, g), 16);
    }
    // W' = W·T(O) in f64, as `Crowd.worldOf`; the world box under it, as `transformBoxInto`.
    const w = worlds + (<usize>k << 6), wb = worldBounds + <usize>k * 48;
    const w0 = <f64>load<f32>(w), w1 = <f64>load<f32>(w, 4), w2 = <f64>load<f32>(w, 8);
    const w4 = <f64>load<f32>(w, 16), w5 = <f64>load<f32>(w, 20), w6 = <f64>load<f32>(w, 24);
    const w8 = <f64>load<f32>(w, 32), w9 = <f64>load<f32>(w, 36), w10 = <f64>load<f32>(w, 40);
    const w12 = <f64>load<f32>(w, 48) + (w0 * ox + w4 * oy + w8 * oz);
    const w13 = <f64>load<f32>(w, 52) + (w1 * ox + w5 * oy + w9 * oz);
    const w14 = <f64>load<f32>(w, 56) + (w2 * ox + w6 * oy + w10 * oz);
    store<f64>(wb, Infinity); store<f64>(wb, Infinity, 8); store<f64>(wb, Infinity, 16);
    store<f64>(wb, -Infinity, 24); store<f64>(wb, -Infinity, 32); store<f64>(wb, -Infinity, 40);
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
    }
    if (viewProjection && outsidePlanes(planes, wb)) continue;
    const det = w0 * (w5 * w10 - w6 * w9) - w4 * (w1 * w10 - w2 * w9) + w8 * (w1 * w6 - w2 * w5);
    const slot = det < 0 ? --back : drawn++;
    const o = blocks + <usize>slot * blockBytes;
    v128.store(o, f32x4(<f32>w0, <f32>w4, <f32>w8, <f32>w12));
    v128.store(o, f32x4(<f32>w1, <f32>w5, <f32>w9, <f32>w13), 16);
    v128.store(o, f32x4(<f32>w2, <f32>w6, <f32>w10, <f32>w14), 32);
    const rows = o + worldBytes;
    for (let s = 0; s < skins; s++) {
      const e = skinTable + <usize>(s << 5);
      const m = load<i32>(e), K = <usize>load<i32>(e, 12), out = rows + <usize>load<i32>(e, 16);
      for (let i = 0; i < m; i++) packRows(out + <usize>i * 48, K + (<usize>i << 6));
    }
    for (let r = 0; r < rigids; r++) {
      const e = rigidTable + <usize>r * 48;
      packRows(rows + <usize>load<i32>(e, 4), model + (<usize>load<i32>(e) << 6));
    }
    store<i32>(order + (<usize>slot << 2), k);
  }
  const mirrored = capacity - back;
  if (mirrored > 0 && back > drawn) {
    memory.copy(blocks + <usize>drawn * blockBytes, blocks + <usize>back * blockBytes, <usize>mirrored * blockBytes);
    memory.copy(order + (<usize>drawn << 2), order + (<usize>back << 2), <usize>mirrored << 2);
  }
  store<i32>(h, mirrored, 136);
  return drawn;
}
