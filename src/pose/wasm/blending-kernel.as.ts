// AssemblyScript source of the blending kernel: the WebAssembly SIMD back end of `blendLayers`, a whole
// `BlendingJob` in one call — normal layers with optional per-joint weights, the rest-pose threshold pass,
// normalisation, then additive layers with optional per-joint weights. src/animation/blending-job.ts holds the
// formulas (after ozz-animation's BlendingJob, docs/animation-blending.md) and the portable back end, the
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
// input. n ≥ 4.
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
 */
function blendGroup(job: usize, j: i32, wt: usize, wr: usize, ws: usize): void {
  const normals = load<i32>(job, 4), additives = load<i32>(job, 8), hasRest = load<i32>(job, 24);
  const j3 = <usize>(12 * j), j4 = <usize>(16 * j), j1 = <usize>(4 * j);
  const zero = f32x4.splat(0), one = f32x4.splat(1), signBit = i32x4.splat(0x80000000);
  const threshold = f32x4.splat(load<f32>(job, 40));
  // Weighted sums, W and the input count per joint; u*: the last input taken, the result where it is the only one.
  let t0 = zero, t1 = zero, t2 = zero, s0 = zero, s1 = zero, s2 = zero;
  let qx = zero, qy = zero, qz = zero, qw = zero, total = zero, count = i32x4.splat(0);
  let ut0 = zero, ut1 = zero, ut2 = zero, us0 = zero, us1 = zero, us2 = zero;
  let ux = zero, uy = zero, uz = zero, uw = zero;
  let record = job + RECORDS;
  const passes = normals + hasRest;
  for (let l = 0; l < passes; l++) {
    let w: v128, pt: usize, pr: usize, ps: usize;
    let below = zero;
    if (l < normals) {
      w = f32x4.splat(load<f32>(record));
      const mask = load<i32>(record, 4);
      if (mask >= 0) w = f32x4.mul(w, v128.load(<usize>mask + j1));
      pt = <usize>load<i32>(record, 8); pr = <usize>load<i32>(record, 12); ps = <usize>load<i32>(record, 16);
      record += NORMAL_WORDS << 2;
    } else {
      // The rest pose, at threshold − W where W < threshold.
      below = f32x4.lt(total, threshold);
      w = f32x4.sub(threshold, total);
      pt = <usize>load<i32>(job, 28); pr = <usize>load<i32>(job, 32); ps = <usize>load<i32>(job, 36);
    }
    const taken = l < normals ? f32x4.gt(w, zero) : below;
    w = v128.and(w, taken); // a weight ≤ 0 (or NaN) takes no part
    const w0 = spread0(w), w1 = spread1(w), w2 = spread2(w);
    const k0 = spread0(taken), k1 = spread1(taken), k2 = spread2(taken);
    const a0 = v128.load(pt + j3), a1 = v128.load(pt + j3, 16), a2 = v128.load(pt + j3, 32);
    t0 = madd(t0, w0, a0); t1 = madd(t1, w1, a1); t2 = madd(t2, w2, a2);
    ut0 = v128.bitselect(a0, ut0, k0); ut1 = v128.bitselect(a1, ut1, k1); ut2 = v128.bitselect(a2, ut2, k2);
    const b0 = v128.load(ps + j3), b1 = v128.load(ps + j3, 16), b2 = v128.load(ps + j3, 32);
    s0 = madd(s0, w0, b0); s1 = madd(s1, w1, b1); s2 = madd(s2, w2, b2);
    us0 = v128.bitselect(b0, us0, k0); us1 = v128.bitselect(b1, us1, k1); us2 = v128.bitselect(b2, us2, k2);
    const r0 = v128.load(pr + j4), r1 = v128.load(pr + j4, 16), r2 = v128.load(pr + j4, 32), r3 = v128.load(pr + j4, 48);
    const x = row0(r0, r1, r2, r3), y = row1(r0, r1, r2, r3), z = row2(r0, r1, r2, r3), q = row3(r0, r1, r2, r3);
    // Hemisphere: q joins on the side of the sum so far (w's sign bit flipped where the dot product is < 0).
    const ws4 = v128.xor(w, v128.and(f32x4.lt(dot4(qx, qy, qz, qw, x, y, z, q), zero), signBit));
    qx = madd(qx, ws4, x); qy = madd(qy, ws4, y); qz = madd(qz, ws4, z); qw = madd(qw, ws4, q);
    ux = v128.bitselect(x, ux, taken); uy = v128.bitselect(y, uy, taken); uz = v128.bitselect(z, uz, taken); uw = v128.bitselect(q, uw, taken);
    total = l < normals ? f32x4.add(total, w) : v128.bitselect(threshold, total, below);
    count = i32x4.sub(count, taken); // all ones: −1
  }
  // Normalise: the sums over W; one input: that input as it is (w·x/w would move it by an ulp).
  const inv = f32x4.div(one, total);
  const single = i32x4.eq(count, i32x4.splat(1));
  const e0 = spread0(single), e1 = spread1(single), e2 = spread2(single);
  t0 = v128.bitselect(ut0, f32x4.mul(t0, spread0(inv)), e0);
  t1 = v128.bitselect(ut1, f32x4.mul(t1, spread1(inv)), e1);
  t2 = v128.bitselect(ut2, f32x4.mul(t2, spread2(inv)), e2);
  s0 = v128.bitselect(us0, f32x4.mul(s0, spread0(inv)), e0);
  s1 = v128.bitselect(us1, f32x4.mul(s1, spread1(inv)), e1);
  s2 = v128.bitselect(us2, f32x4.mul(s2, spread2(inv)), e2);
  const qs = inverseLength(dot4(qx, qy, qz, qw, qx, qy, qz, qw));
  qx = v128.bitselect(ux, f32x4.mul(qx, qs), single); qy = v128.bitselect(uy, f32x4.mul(qy, qs), single);
  qz = v128.bitselect(uz, f32x4.mul(qz, qs), single); qw = v128.bitselect(uw, f32x4.mul(qw, qs), single);
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

/** The job at `job` (layout above): every joint of `out` blended, then the additive layers applied. */
export function blend(job: usize): void {
  const n = load<i32>(job);
  if (n < 4) return;
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
