// AssemblyScript source of the blending kernel: the WebAssembly SIMD back end of `blendLayers`, a whole
// `BlendingJob` in one call — normal layers with optional per-joint weights, the rest-pose threshold pass,
// normalisation, then additive layers with optional per-joint weights. src/animation/blending-job.ts holds the
// formulas (after ozz-animation's BlendingJob, docs/explanation/animation-blending.md) and the portable back end, the
// reference. Compiled by `npm run build:wasm` into blending-kernel-binary.ts; a unit test keeps the two in
// step. Not type-checked by tsc (AssemblyScript types); `asc` checks it.
//
// Four joints at a time, one per f32x4 lane. Poses are SoA (translations f32[3n] x y z, rotations f32[4n]
// x y z w, scales f32[3n]), so a group's translations are three v128s [x0 y0 z0 x1][y1 z1 x2 y2][z2 x3 y3 z3]
// summed as they lie, with each joint's weight spread over its three lanes; its rotations are four v128s,
// transposed into x, y, z, w vectors for the hemisphere test, the normalisation and the products. Only joints
// [0, n) are read or written (no padding assumed, so any 4-byte-aligned view works): when n is not a multiple
// of four, the last four joints are blended first into the scratch and stored after the whole groups (they
// overlap the last whole group, which computes the same values from the same inputs), so `out` may be an
// input. n ≥ 4. A crossfade (two layers without per-joint weights, nothing else) takes a shorter path.
//
// Job (byte offsets into the memory of a pose kernel's arena, i32 unless said):
//   0 n, 4 normal layer count L, 8 additive layer count A, 12/16/20 out translations/rotations/scales,
//   24 has rest pose (0/1), 28/32/36 rest pose translations/rotations/scales, 40 threshold f32,
//   44 scratch (160 bytes: four joints' translations, rotations, scales),
//   48 L normal records of 5 words: weight f32, per-joint weights f32[n] (−1: none), translations, rotations, scales;
//   then A additive records of 8 words: the same five, then the reference's translations, rotations, scales.

const RECORDS = 48;
const NORMAL_WORDS = 5;

/** The first of a group's translation v128s takes joint weights [w0 w0 w0 w1]; */
@inline function spread0(w: v128): v128 {
  return v128.shuffle<f32>(w, w, 0, 0, 0, 1);
}
/** the second [w1 w1 w2 w2]; */
@inline function spread1(w: v128): v128 {
  return v128.shuffle<f32>(w, w, 1, 1, 2, 2);
}
/** the third [w2 w3 w3 w3]. */
@inline function spread2(w: v128): v128 {
  return v128.shuffle<f32>(w, w, 2, 3, 3, 3);
}

// Row k of the 4×4 transpose of (a, b, c, d): four x y z w quaternions into x, y, z, w vectors and back.
@inline function row0(a: v128, b: v128, c: v128, d: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 0, 4, 1, 5), v128.shuffle<f32>(c, d, 0, 4, 1, 5), 0, 1, 4, 5);
}
@inline function row1(a: v128, b: v128, c: v128, d: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 0, 4, 1, 5), v128.shuffle<f32>(c, d, 0, 4, 1, 5), 2, 3, 6, 7);
}
@inline function row2(a: v128, b: v128, c: v128, d: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 2, 6, 3, 7), v128.shuffle<f32>(c, d, 2, 6, 3, 7), 0, 1, 4, 5);
}
@inline function row3(a: v128, b: v128, c: v128, d: v128): v128 {
  return v128.shuffle<f32>(v128.shuffle<f32>(a, b, 2, 6, 3, 7), v128.shuffle<f32>(c, d, 2, 6, 3, 7), 2, 3, 6, 7);
}

@inline function madd(acc: v128, w: v128, x: v128): v128 {
  return f32x4.add(acc, f32x4.mul(w, x));
}

@inline function dot4(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.add(f32x4.mul(ax, bx), f32x4.mul(ay, by)), f32x4.mul(az, bz)), f32x4.mul(aw, bw));
}

/** 1/√len2 where len2 > 0, else 0 (per lane). */
@inline function inverseLength(len2: v128): v128 {
  return v128.and(f32x4.div(f32x4.splat(1), f32x4.sqrt(len2)), f32x4.gt(len2, f32x4.splat(0)));
}

/**
 * Joints j … j+3 of the job: read from the inputs (and `out`, for joints no input reaches), written at
 * wt + 12j, wr + 16j, ws + 12j.
 *
 * Two passes over the normal layers (and the rest pose): the first sums the weights W and counts the inputs,
 * the second adds each input at k = w/W, so that a joint with one input gets k = w/w = 1 exactly and that
 * input bit for bit, as the portable loops do (the sums start at −0: −0 + x is x for every x).
 */
function blendGroup(job: usize, j: i32, wt: usize, wr: usize, ws: usize): void {
  const normals = load<i32>(job, 4), additives = load<i32>(job, 8), hasRest = load<i32>(job, 24);
  const j3 = <usize>(12 * j), j4 = <usize>(16 * j), j1 = <usize>(4 * j);
  const zero = f32x4.splat(0), one = f32x4.splat(1), signBit = i32x4.splat(0x80000000);
  const threshold = f32x4.splat(load<f32>(job, 40));
  // Pass 1: W and the input count per joint.
  let total = zero, count = i32x4.splat(0), record = job + RECORDS;
  for (let l = 0; l < normals; l++) {
    let w = f32x4.splat(load<f32>(record));
    const mask = load<i32>(record, 4);
    if (mask >= 0) w = f32x4.mul(w, v128.load(<usize>mask + j1));
    const taken = f32x4.gt(w, zero); // a weight ≤ 0 (or NaN) takes no part
    total = f32x4.add(total, v128.and(w, taken));
    count = i32x4.sub(count, taken); // all ones: −1
    record += NORMAL_WORDS << 2;
  }
  // The rest pose, at threshold − W where W < threshold.
  let restWeight = zero;
  if (hasRest !== 0) {
    const below = f32x4.lt(total, threshold);
    restWeight = v128.and(f32x4.sub(threshold, total), below);
    total = v128.bitselect(threshold, total, below);
    count = i32x4.sub(count, below);
  }
  // Pass 2: the inputs at k = w/W.
  const negZero = f32x4.splat(-0.0);
  let t0 = negZero, t1 = negZero, t2 = negZero, s0 = negZero, s1 = negZero, s2 = negZero;
  let qx = negZero, qy = negZero, qz = negZero, qw = negZero;
  record = job + RECORDS;
  const passes = normals + hasRest;
  for (let l = 0; l < passes; l++) {
    let w: v128, pt: usize, pr: usize, ps: usize;
    if (l < normals) {
      w = f32x4.splat(load<f32>(record));
      const mask = load<i32>(record, 4);
      if (mask >= 0) w = f32x4.mul(w, v128.load(<usize>mask + j1));
      pt = <usize>load<i32>(record, 8); pr = <usize>load<i32>(record, 12); ps = <usize>load<i32>(record, 16);
      record += NORMAL_WORDS << 2;
    } else {
      w = restWeight;
      pt = <usize>load<i32>(job, 28); pr = <usize>load<i32>(job, 32); ps = <usize>load<i32>(job, 36);
    }
    const k = v128.and(f32x4.div(w, total), f32x4.gt(w, zero));
    const k0 = spread0(k), k1 = spread1(k), k2 = spread2(k);
    t0 = madd(t0, k0, v128.load(pt + j3)); t1 = madd(t1, k1, v128.load(pt + j3, 16)); t2 = madd(t2, k2, v128.load(pt + j3, 32));
    s0 = madd(s0, k0, v128.load(ps + j3)); s1 = madd(s1, k1, v128.load(ps + j3, 16)); s2 = madd(s2, k2, v128.load(ps + j3, 32));
    const r0 = v128.load(pr + j4), r1 = v128.load(pr + j4, 16), r2 = v128.load(pr + j4, 32), r3 = v128.load(pr + j4, 48);
    const x = row0(r0, r1, r2, r3), y = row1(r0, r1, r2, r3), z = row2(r0, r1, r2, r3), q = row3(r0, r1, r2, r3);
    // Hemisphere: q joins on the side of the sum so far (k's sign bit flipped where the dot product is < 0).
    const ks = v128.xor(k, v128.and(f32x4.lt(dot4(qx, qy, qz, qw, x, y, z, q), zero), signBit));
    qx = madd(qx, ks, x); qy = madd(qy, ks, y); qz = madd(qz, ks, z); qw = madd(qw, ks, q);
  }
  // Rotations normalised, but where one input is taken as it is (renormalising would move it by an ulp).
  const single = i32x4.eq(count, i32x4.splat(1));
  const qs = v128.bitselect(one, inverseLength(dot4(qx, qy, qz, qw, qx, qy, qz, qw)), single);
  qx = f32x4.mul(qx, qs); qy = f32x4.mul(qy, qs); qz = f32x4.mul(qz, qs); qw = f32x4.mul(qw, qs);
  if (hasRest === 0) {
    // No input at all (no rest pose to fall back on): out's joint as it is.
    const none = i32x4.eq(count, i32x4.splat(0));
    if (v128.any_true(none)) {
      const ot = <usize>load<i32>(job, 12), or = <usize>load<i32>(job, 16), os = <usize>load<i32>(job, 20);
      const n0 = spread0(none), n1 = spread1(none), n2 = spread2(none);
      t0 = v128.bitselect(v128.load(ot + j3), t0, n0); t1 = v128.bitselect(v128.load(ot + j3, 16), t1, n1); t2 = v128.bitselect(v128.load(ot + j3, 32), t2, n2);
      s0 = v128.bitselect(v128.load(os + j3), s0, n0); s1 = v128.bitselect(v128.load(os + j3, 16), s1, n1); s2 = v128.bitselect(v128.load(os + j3, 32), s2, n2);
      const r0 = v128.load(or + j4), r1 = v128.load(or + j4, 16), r2 = v128.load(or + j4, 32), r3 = v128.load(or + j4, 48);
      qx = v128.bitselect(row0(r0, r1, r2, r3), qx, none); qy = v128.bitselect(row1(r0, r1, r2, r3), qy, none);
      qz = v128.bitselect(row2(r0, r1, r2, r3), qz, none); qw = v128.bitselect(row3(r0, r1, r2, r3), qw, none);
    }
  }
  // Additive layers, a = weight·jointWeights[j] (a = 0 changes nothing: + 0, ⊙ 1, · identity).
  for (let l = 0; l < additives; l++) {
    let a = f32x4.splat(load<f32>(record));
    const mask = load<i32>(record, 4);
    if (mask >= 0) a = f32x4.mul(a, v128.load(<usize>mask + j1));
    const pt = <usize>load<i32>(record, 8), pr = <usize>load<i32>(record, 12), ps = <usize>load<i32>(record, 16);
    const rt = <usize>load<i32>(record, 20), rr = <usize>load<i32>(record, 24), rs = <usize>load<i32>(record, 28);
    record += 32;
    const a0 = spread0(a), a1 = spread1(a), a2 = spread2(a);
    // Translation + a·(pose − reference).
    t0 = madd(t0, a0, f32x4.sub(v128.load(pt + j3), v128.load(rt + j3)));
    t1 = madd(t1, a1, f32x4.sub(v128.load(pt + j3, 16), v128.load(rt + j3, 16)));
    t2 = madd(t2, a2, f32x4.sub(v128.load(pt + j3, 32), v128.load(rt + j3, 32)));
    // Scale ⊙ (1 + a·(pose ⊘ reference − 1)), a zero reference scale counting as ratio 1.
    const c0 = v128.load(rs + j3), c1 = v128.load(rs + j3, 16), c2 = v128.load(rs + j3, 32);
    const g0 = v128.bitselect(f32x4.div(v128.load(ps + j3), c0), one, f32x4.ne(c0, zero));
    const g1 = v128.bitselect(f32x4.div(v128.load(ps + j3, 16), c1), one, f32x4.ne(c1, zero));
    const g2 = v128.bitselect(f32x4.div(v128.load(ps + j3, 32), c2), one, f32x4.ne(c2, zero));
    s0 = f32x4.mul(s0, madd(one, a0, f32x4.sub(g0, one)));
    s1 = f32x4.mul(s1, madd(one, a1, f32x4.sub(g1, one)));
    s2 = f32x4.mul(s2, madd(one, a2, f32x4.sub(g2, one)));
    // Rotation · nlerp(1, Δ, a), Δ = conj(reference) · pose taken with w ≥ 0.
    const p0 = v128.load(pr + j4), p1 = v128.load(pr + j4, 16), p2 = v128.load(pr + j4, 32), p3 = v128.load(pr + j4, 48);
    const px = row0(p0, p1, p2, p3), py = row1(p0, p1, p2, p3), pz = row2(p0, p1, p2, p3), pw = row3(p0, p1, p2, p3);
    const f0 = v128.load(rr + j4), f1 = v128.load(rr + j4, 16), f2 = v128.load(rr + j4, 32), f3 = v128.load(rr + j4, 48);
    const rx = f32x4.neg(row0(f0, f1, f2, f3)), ry = f32x4.neg(row1(f0, f1, f2, f3)), rz = f32x4.neg(row2(f0, f1, f2, f3));
    const rw = row3(f0, f1, f2, f3);
    let dx = f32x4.sub(f32x4.add(f32x4.add(f32x4.mul(rw, px), f32x4.mul(rx, pw)), f32x4.mul(ry, pz)), f32x4.mul(rz, py));
    let dy = f32x4.add(f32x4.add(f32x4.sub(f32x4.mul(rw, py), f32x4.mul(rx, pz)), f32x4.mul(ry, pw)), f32x4.mul(rz, px));
    let dz = f32x4.add(f32x4.sub(f32x4.add(f32x4.mul(rw, pz), f32x4.mul(rx, py)), f32x4.mul(ry, px)), f32x4.mul(rz, pw));
    let dw = f32x4.sub(f32x4.sub(f32x4.sub(f32x4.mul(rw, pw), f32x4.mul(rx, px)), f32x4.mul(ry, py)), f32x4.mul(rz, pz));
    const flip = v128.and(f32x4.lt(dw, zero), signBit);
    dx = f32x4.mul(a, v128.xor(dx, flip)); dy = f32x4.mul(a, v128.xor(dy, flip)); dz = f32x4.mul(a, v128.xor(dz, flip));
    dw = madd(f32x4.sub(one, a), a, v128.xor(dw, flip));
    const di = inverseLength(dot4(dx, dy, dz, dw, dx, dy, dz, dw));
    dx = f32x4.mul(dx, di); dy = f32x4.mul(dy, di); dz = f32x4.mul(dz, di); dw = f32x4.mul(dw, di);
    const bx = qx, by = qy, bz = qz, bw = qw;
    qx = f32x4.sub(f32x4.add(f32x4.add(f32x4.mul(bw, dx), f32x4.mul(bx, dw)), f32x4.mul(by, dz)), f32x4.mul(bz, dy));
    qy = f32x4.add(f32x4.add(f32x4.sub(f32x4.mul(bw, dy), f32x4.mul(bx, dz)), f32x4.mul(by, dw)), f32x4.mul(bz, dx));
    qz = f32x4.add(f32x4.sub(f32x4.add(f32x4.mul(bw, dz), f32x4.mul(bx, dy)), f32x4.mul(by, dx)), f32x4.mul(bz, dw));
    qw = f32x4.sub(f32x4.sub(f32x4.sub(f32x4.mul(bw, dw), f32x4.mul(bx, dx)), f32x4.mul(by, dy)), f32x4.mul(bz, dz));
  }
  v128.store(wt + j3, t0); v128.store(wt + j3, t1, 16); v128.store(wt + j3, t2, 32);
  v128.store(ws + j3, s0); v128.store(ws + j3, s1, 16); v128.store(ws + j3, s2, 32);
  v128.store(wr + j4, row0(qx, qy, qz, qw)); v128.store(wr + j4, row1(qx, qy, qz, qw), 16);
  v128.store(wr + j4, row2(qx, qy, qz, qw), 32); v128.store(wr + j4, row3(qx, qy, qz, qw), 48);
}

@inline function sum4(v: v128): f32 {
  return (f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1)) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

/**
 * The commonest job, a crossfade: two normal layers without per-joint weights, both weights > 0 (and their sum
 * at least the threshold, or no rest pose), no additive layer. Every joint takes both at the same normalised
 * weights ka, kb (the portable `blendTwo`): translations and scales ka·a + kb·b four floats at a time, rotations
 * normalize(ka·q_a ± kb·q_b) one joint per v128, q_b negated where q_a·q_b < 0. Reads each element before
 * writing it, so `out` may be either layer's pose.
 */
function crossfade(job: usize, n: i32): void {
  const a = job + RECORDS, b = a + (NORMAL_WORDS << 2);
  const wa = load<f32>(a), wb = load<f32>(b), ka = wa / (wa + wb), kb = wb / (wa + wb);
  const ot = <usize>load<i32>(job, 12), or = <usize>load<i32>(job, 16), os = <usize>load<i32>(job, 20);
  const at = <usize>load<i32>(a, 8), ar = <usize>load<i32>(a, 12), as = <usize>load<i32>(a, 16);
  const bt = <usize>load<i32>(b, 8), br = <usize>load<i32>(b, 12), bs = <usize>load<i32>(b, 16);
  const va = f32x4.splat(ka), vb = f32x4.splat(kb);
  const m = (3 * n) >> 2;
  for (let i = 0; i < m; i++) {
    const o = <usize>i << 4;
    v128.store(ot + o, f32x4.add(f32x4.mul(va, v128.load(at + o)), f32x4.mul(vb, v128.load(bt + o))));
    v128.store(os + o, f32x4.add(f32x4.mul(va, v128.load(as + o)), f32x4.mul(vb, v128.load(bs + o))));
  }
  for (let i = m << 2; i < 3 * n; i++) {
    const o = <usize>i << 2;
    store<f32>(ot + o, ka * load<f32>(at + o) + kb * load<f32>(bt + o));
    store<f32>(os + o, ka * load<f32>(as + o) + kb * load<f32>(bs + o));
  }
  for (let j = 0; j < n; j++) {
    const o = <usize>j << 4;
    const p = v128.load(ar + o), q = v128.load(br + o);
    const k = sum4(f32x4.mul(p, q)) < 0 ? -kb : kb;
    const r = f32x4.add(f32x4.mul(va, p), f32x4.mul(f32x4.splat(k), q));
    const len2 = sum4(f32x4.mul(r, r));
    const inv: f32 = len2 > 0 ? <f32>1 / Mathf.sqrt(len2) : 0;
    v128.store(or + o, f32x4.mul(r, f32x4.splat(inv)));
  }
}

/** The job at `job` (layout above): every joint of `out` blended, then the additive layers applied. */
export function blend(job: usize): void {
  const n = load<i32>(job);
  if (n < 4) return;
  if (load<i32>(job, 4) === 2 && load<i32>(job, 8) === 0) {
    const a = job + RECORDS, b = a + (NORMAL_WORDS << 2), wa = load<f32>(a), wb = load<f32>(b);
    if (load<i32>(a, 4) < 0 && load<i32>(b, 4) < 0 && wa > 0 && wb > 0 && (load<i32>(job, 24) === 0 || wa + wb >= load<f32>(job, 40))) {
      crossfade(job, n);
      return;
    }
  }
  const ot = <usize>load<i32>(job, 12), or = <usize>load<i32>(job, 16), os = <usize>load<i32>(job, 20);
  const scratch = <usize>load<i32>(job, 44), last = n - 4, l3 = <usize>(12 * last), l4 = <usize>(16 * last);
  const partial = (n & 3) !== 0;
  // The last four joints first, into the scratch, from inputs no group has written yet.
  if (partial) blendGroup(job, last, scratch - l3, scratch + 48 - l4, scratch + 112 - l3);
  for (let j = 0; j <= last; j += 4) blendGroup(job, j, ot, or, os);
  if (partial) {
    v128.store(ot + l3, v128.load(scratch)); v128.store(ot + l3, v128.load(scratch, 16), 16); v128.store(ot + l3, v128.load(scratch, 32), 32);
    v128.store(or + l4, v128.load(scratch, 48)); v128.store(or + l4, v128.load(scratch, 64), 16);
    v128.store(or + l4, v128.load(scratch, 80), 32); v128.store(or + l4, v128.load(scratch, 96), 48);
    v128.store(os + l3, v128.load(scratch, 112)); v128.store(os + l3, v128.load(scratch, 128), 16); v128.store(os + l3, v128.load(scratch, 144), 32);
  }
}
