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
//   clip) · 15 instance records · 16 clip table · 17 staging rows · 18 bytes per instance's rows · 19 boxes ·
//   20 base box · 21 time slot (f64, then the blend's two weights ka kb, f64) · 22 second scratch pose (the
//   blended clip's; the same layout) · 23 blended clips i16[N] · 24 their times f64[N] · 25 blend weights f32[N] ·
//   then at byte 112 the model origin, three f64.
// - skin table, 8 words each: [m, joints i32[m], inverse binds f32[16m], skinning matrices f32[16m], first byte
//   of its rows in an instance's rows, bounded joints b, their indices i32[b], their boxes (centre f32x4,
//   extent f32x4)[b]];
// - rigid table, 48 bytes each: [node, first byte of its rows, 1 when it has a box, 0], centre f32x4, extent f32x4;
// - instance records, 128 bytes per instance, one for its clip then one for its blended clip, each: the sampling
//   kernel's block of two stream records (14 words, sampling-kernel.as.ts), what it is bound to (word 14: 2·clip,
//   + 1 for the clip table's second block; −1 nothing), its cache (word 15);
// - clip table, 128 bytes per clip: the block for that clip with each cache word relative to an instance's cache,
//   writing into the scratch pose, then the same writing into the second scratch pose;
// - boxes, 32 bytes per instance: min f32x4, max f32x4 (xyz; relative to the model origin);
// - base box: the rest boxes of the vertices without weights (min, max), where every instance's box starts.

import { sample } from '../../pose/wasm/sampling-kernel.as';
import { modelMatrices, skinMatrices } from '../../pose/wasm/pose-kernel.as';
import { blendTwo } from '../../pose/wasm/blending-kernel.as';

/** Relative growth of a box's extent, so that float32 rounding of c' and e' cannot shrink it (a few ulps). */
const GROW: f32 = 1.0 / 262144.0;

@inline function word(h: usize, i: i32): usize { return <usize>load<i32>(h + (<usize>i << 2)); }

/**
 * Binds instance record `record` to clip `clip` of the clip table (its second block, writing into the second
 * scratch pose, when `second`): copies the block, fixes its caches, cursors at 0.
 */
function bind(h: usize, record: usize, clip: i32, second: bool): void {
  const template = word(h, 16) + (<usize>clip << 7) + (second ? 64 : 0), cache = <usize>load<i32>(record, 60);
  memory.copy(record, template, 56);
  store<i32>(record, load<i32>(record, 16) + <i32>cache, 16);
  store<i32>(record, load<i32>(record, 44) + <i32>cache, 44);
  store<i32>(record, (clip << 1) | (second ? 1 : 0), 56);
}

/**
 * Samples clip `clip` at time `t` (seconds) through instance record `record` (its cursors; `last` the time it
 * sampled last, f64) into the scratch pose its clip table block writes (the second when `second`): a time
 * before the last starts its cursors over; NaN samples as before the first key.
 */
function sampleInto(h: usize, record: usize, last: usize, clip: i32, t: f64, second: bool): void {
  if (load<i32>(record, 56) !== ((clip << 1) | (second ? 1 : 0))) {
    bind(h, record, clip, second);
    store<f64>(last, Infinity);
  }
  if (t !== t) t = -Infinity;
  if (t < load<f64>(last)) {
    store<i32>(record, 0, 12);
    store<i32>(record, 0, 40);
  }
  store<f64>(last, t);
  const slot = word(h, 21);
  store<f64>(slot, t);
  sample(slot, record);
}

/**
 * Instance k's local pose into the scratch pose: the rest pose, then its clip at its time (clip −1: the rest
 * pose), blended with its second clip at that one's time by its blend weight w (`blendLayers`' two-layer
 * crossfade, src/animation/blending-job.ts: the blending kernel's `blendTwo` with weights 1 − w and w). w ≤ 0
 * takes the first clip alone, w ≥ 1 the second alone, each exactly as sampled.
 */
export function localPose(h: usize, k: i32): void {
  const n = load<i32>(h), poseBytes = word(h, 5), rest = word(h, 4), T = word(h, 1);
  memory.copy(T, rest, poseBytes);
  const records = word(h, 15) + (<usize>k << 7), lasts = word(h, 14) + (<usize>k << 4);
  const w = load<f32>(word(h, 25) + (<usize>k << 2));
  const clip = <i32>load<i16>(word(h, 12) + (<usize>k << 1));
  if (!(w >= 1) && clip >= 0) sampleInto(h, records, lasts, clip, load<f64>(word(h, 13) + (<usize>k << 3)), false);
  if (!(w > 0)) return;
  const other = <i32>load<i16>(word(h, 23) + (<usize>k << 1)), otherTime = load<f64>(word(h, 24) + (<usize>k << 3));
  if (w >= 1) {
    if (other >= 0) sampleInto(h, records + 64, lasts + 8, other, otherTime, false);
    return;
  }
  const U = word(h, 22);
  memory.copy(U, rest, poseBytes);
  if (other >= 0) sampleInto(h, records + 64, lasts + 8, other, otherTime, true);
  const weights = word(h, 21) + 8;
  store<f64>(weights, 1 - <f64>w);
  store<f64>(weights, <f64>w, 8);
  const R = word(h, 2) - T, S = word(h, 3) - T;
  blendTwo(n, weights, T, T + R, T + S, T, T + R, T + S, U, U + R, U + S);
}

/**
 * Grows the box at `box` (min f32x4, max f32x4) by the box at `q` (centre f32x4, extent f32x4) under the affine
 * matrix at `a` (column-major): c' = A·c, e' = |A₃ₓ₃|·e (Arvo, "Transforming axis-aligned bounding boxes",
 * Graphics Gems 1990), e' grown by GROW·(e' + |c'|) for rounding.
 */
@inline function growBox(box: usize, a: usize, q: usize): void {
  const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
  const cx = v128.load32_splat(q), cy = v128.load32_splat(q, 4), cz = v128.load32_splat(q, 8);
  const ex = v128.load32_splat(q, 16), ey = v128.load32_splat(q, 20), ez = v128.load32_splat(q, 24);
  const centre = f32x4.add(f32x4.add(f32x4.mul(a0, cx), f32x4.mul(a1, cy)), f32x4.add(f32x4.mul(a2, cz), a3));
  let extent = f32x4.add(f32x4.add(f32x4.mul(f32x4.abs(a0), ex), f32x4.mul(f32x4.abs(a1), ey)), f32x4.mul(f32x4.abs(a2), ez));
  extent = f32x4.add(extent, f32x4.mul(f32x4.splat(GROW), f32x4.add(extent, f32x4.abs(centre))));
  v128.store(box, f32x4.min(v128.load(box), f32x4.sub(centre, extent)));
  v128.store(box, f32x4.max(v128.load(box, 16), f32x4.add(centre, extent)), 16);
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
 * Every instance 0…count−1: its local pose ({@link localPose}), model-space matrices relative to the origin,
 * each skin's skinning matrices packed as rows (row-major 3×4, `packPaletteRows`) and each rigid node's matrix
 * likewise, into its rows in the staging area, and its box: the base box, each bounded joint's box under its
 * skinning matrix and each rigid node's box under its matrix (centre and extent), grown by GROW of the extent
 * and centre for rounding. An instance with the clip and time of the one before it copies that one's rows and box.
 */
export function animate(h: usize, count: i32): void {
  const n = load<i32>(h), model = word(h, 7), parents = word(h, 6);
  const T = word(h, 1), R = word(h, 2), S = word(h, 3);
  const skins = load<i32>(h, 32), skinTable = word(h, 9), rigids = load<i32>(h, 40), rigidTable = word(h, 11);
  const clips = word(h, 12), times = word(h, 13), staging = word(h, 17), stride = word(h, 18), boxes = word(h, 19), base = word(h, 20);
  const ox = load<f64>(h, 112), oy = load<f64>(h, 120), oz = load<f64>(h, 128), weights = word(h, 25);
  let previousClip: i32 = -3, previousTime: f64 = NaN;
  for (let k = 0; k < count; k++) {
    const rows = staging + <usize>k * stride, box = boxes + (<usize>k << 5);
    const clip = <i32>load<i16>(clips + (<usize>k << 1)), time = load<f64>(times + (<usize>k << 3));
    // Shared only between unblended instances (a blended one never matches: its clip reads as −3).
    const shared = load<f32>(weights + (<usize>k << 2)) === 0;
    if (k > 0 && shared && clip === previousClip && time === previousTime) {
      memory.copy(rows, rows - stride, stride);
      memory.copy(box, box - 32, 32);
      continue;
    }
    previousClip = shared ? clip : -3;
    previousTime = time;
    localPose(h, k);
    modelMatrices(n, 0, T, R, S, parents, model, ox, oy, oz);
    memory.copy(box, base, 32);
    for (let s = 0; s < skins; s++) {
      const e = skinTable + <usize>(s << 5);
      const m = load<i32>(e), K = <usize>load<i32>(e, 12), out = rows + <usize>load<i32>(e, 16);
      skinMatrices(m, <usize>load<i32>(e, 4), model, <usize>load<i32>(e, 8), K);
      for (let i = 0; i < m; i++) packRows(out + <usize>i * 48, K + (<usize>i << 6));
      const b = load<i32>(e, 20), joints = <usize>load<i32>(e, 24), bounds = <usize>load<i32>(e, 28);
      for (let j = 0; j < b; j++) growBox(box, K + (<usize>load<i32>(joints + (<usize>j << 2)) << 6), bounds + (<usize>j << 5));
    }
    for (let r = 0; r < rigids; r++) {
      const e = rigidTable + <usize>r * 48, a = model + (<usize>load<i32>(e) << 6);
      packRows(rows + <usize>load<i32>(e, 4), a);
      if (load<i32>(e, 8) !== 0) growBox(box, a, e + 16);
    }
  }
}

/**
 * Copies the staging rows of instance `order[b]` to block b of `blocks` (after its `skip` leading bytes, the
 * world matrix's texels) for b = 0…count−1: the blocks the renderer uploads, in draw order.
 */
export function gather(h: usize, count: i32, order: usize, blocks: usize, blockBytes: usize, skip: usize): void {
  const staging = word(h, 17), stride = word(h, 18);
  for (let b = 0; b < count; b++) {
    const k = <usize>load<i32>(order + (<usize>b << 2));
    memory.copy(blocks + <usize>b * blockBytes + skip, staging + k * stride, stride);
  }
}
