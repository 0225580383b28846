// AssemblyScript source of the skinning kernel: the WebAssembly SIMD back end of linear blend skinning (`skin`;
// src/skinning/skin-vertices.ts holds the formulas and the portable back end, docs/explanation/skinning-formulas.md S0, S2)
// and of dual quaternion skinning (`skinDqs`; src/skinning/skin-vertices-dqs.ts). Compiled by `npm run
// build:wasm` into skin-kernel-binary.ts; a unit test keeps the two in step. Not type-checked by tsc
// (AssemblyScript types); `asc` checks it.
//
// Layout (byte offsets into the instance's own memory, chosen by SkinningKernel, each 16-byte aligned):
// palette f32[16m] column-major skinning matrices (bottom rows 0 0 0 1) for `skin`, or f32[20m] the packed
// DQS palette for `skinDqs`; rest positions f32[3n], normals f32[3n],
// tangents f32[4n]; joints u16[c·n] and weights f32[c·n] vertex-major (c a multiple of 4, no zero-weight slot
// naming a joint outside the palette); outputs positions f32[3n + 1], normals f32[3n + 1], tangents f32[4n].
// The outputs of three floats per vertex are written as whole v128s in vertex order: the fourth lane lands
// on the next vertex's x, which that vertex then overwrites, and on the one spare float after the last.
//
// LBS: per vertex the blended matrix A = Σ wᵢ·K_{jᵢ} is four f32x4 columns (the fourth lane carrying the bottom
// row's 0), applied once: p = A·(x, y, z, 1), normals by the cofactor columns c1×c2, c2×c0, c0×c1, the
// same order of operations as the portable loop, rounded to float32 at each step.

/** Weight policies, as SkinningKernel passes them (skinning-method.ts `WeightPolicy`). */
const NORMALIZE = 0, AS_STORED = 1, REST_REMAINDER = 2, IMPLICIT_LAST = 3;

@inline function yzx(a: v128): v128 { return v128.shuffle<f32>(a, a, 1, 2, 0, 3); }
@inline function zxy(a: v128): v128 { return v128.shuffle<f32>(a, a, 2, 0, 1, 3); }

/** a × b in lanes 0–2 (lane 3: a.w·b.w − a.w·b.w = 0 for direction columns). */
@inline function cross(a: v128, b: v128): v128 {
  return f32x4.sub(f32x4.mul(yzx(a), zxy(b)), f32x4.mul(zxy(a), yzx(b)));
}

@inline function dot3(a: v128, b: v128): f32 {
  const p = f32x4.mul(a, b);
  return f32x4.extract_lane(p, 0) + f32x4.extract_lane(p, 1) + f32x4.extract_lane(p, 2);
}

/** acc + (the v128 at m + offset)·s. */
@inline function madd(acc: v128, m: usize, offset: usize, s: v128): v128 {
  return f32x4.add(acc, f32x4.mul(v128.load(m + offset), s));
}

/** A·(x, y, z, 0): a direction through the blended matrix. */
@inline function direction(a0: v128, a1: v128, a2: v128, x: f32, y: f32, z: f32): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(a0, f32x4.splat(x)), f32x4.mul(a1, f32x4.splat(y))), f32x4.mul(a2, f32x4.splat(z)));
}

/**
 * Skins vertices 0…n−1 of c influence slots each; outN / outT 0 skip normals / tangents. (ox, oy, oz): the
 * model origin O the palette is relative to, placing what stays at rest at p₀ − O.
 */
export function skin(
  n: i32, c: i32, palette: usize, positions: usize, normals: usize, tangents: usize, joints: usize, weights: usize,
  outP: usize, outN: usize, outT: usize, policy: i32, ox: f32, oy: f32, oz: f32,
): void {
  const divide = policy == NORMALIZE, keepUnweighted = policy == NORMALIZE || policy == AS_STORED;
  const restRemainder = policy == REST_REMAINDER, implicitLast = policy == IMPLICIT_LAST;
  const origin = f32x4(ox, oy, oz, 0);
  const last = c - 4;
  for (let v = 0; v < n; v++) {
    // Slot 0 starts the sums (a zero weight adds nothing: its joint is inside the palette, SkinningKernel
    // sees to it); slots 1… are added when their weight is not 0, as the portable loop skips them.
    const slot = <usize>(v * c);
    const w4 = v128.load(weights + (slot << 2));
    const j4 = load<u64>(joints + (slot << 1));
    const w0 = f32x4.extract_lane(w4, 0);
    let sum: f32 = w0;
    const m0 = palette + (<usize>(j4 & 0xffff) << 6), s0 = f32x4.splat(w0);
    let a0 = f32x4.mul(v128.load(m0), s0), a1 = f32x4.mul(v128.load(m0, 16), s0);
    let a2 = f32x4.mul(v128.load(m0, 32), s0), a3 = f32x4.mul(v128.load(m0, 48), s0);
    const w1 = f32x4.extract_lane(w4, 1), w2 = f32x4.extract_lane(w4, 2);
    let w3 = f32x4.extract_lane(w4, 3);
    if (w1 != 0) { sum += w1; const m = palette + (<usize>((j4 >> 16) & 0xffff) << 6), s = f32x4.splat(w1); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
    if (w2 != 0) { sum += w2; const m = palette + (<usize>((j4 >> 32) & 0xffff) << 6), s = f32x4.splat(w2); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
    if (implicitLast && c == 4) w3 = <f32>1 - sum;
    if (w3 != 0) { sum += w3; const m = palette + (<usize>(j4 >> 48) << 6), s = f32x4.splat(w3); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
    // Slots 4…c−1 (8 or more influences), four at a time.
    for (let k = 4; k < c; k += 4) {
      const w4 = v128.load(weights + ((slot + <usize>k) << 2));
      const j4 = load<u64>(joints + ((slot + <usize>k) << 1));
      const w0 = f32x4.extract_lane(w4, 0), w1 = f32x4.extract_lane(w4, 1), w2 = f32x4.extract_lane(w4, 2);
      let w3 = f32x4.extract_lane(w4, 3);
      if (w0 != 0) { sum += w0; const m = palette + (<usize>(j4 & 0xffff) << 6), s = f32x4.splat(w0); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
      if (w1 != 0) { sum += w1; const m = palette + (<usize>((j4 >> 16) & 0xffff) << 6), s = f32x4.splat(w1); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
      if (w2 != 0) { sum += w2; const m = palette + (<usize>((j4 >> 32) & 0xffff) << 6), s = f32x4.splat(w2); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
      if (implicitLast && k == last) w3 = <f32>1 - sum;
      if (w3 != 0) { sum += w3; const m = palette + (<usize>(j4 >> 48) << 6), s = f32x4.splat(w3); a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s); a3 = madd(a3, m, 48, s); }
    }
    const p3 = <usize>(v * 12), p4 = <usize>v << 4;
    const x = load<f32>(positions + p3), y = load<f32>(positions + p3, 4), z = load<f32>(positions + p3, 8);
    if (sum == 0 && keepUnweighted) {
      v128.store(outP + p3, f32x4.sub(f32x4(x, y, z, 0), origin));
      if (outN) v128.store(outN + p3, f32x4(load<f32>(normals + p3), load<f32>(normals + p3, 4), load<f32>(normals + p3, 8), 0));
      if (outT) writeTangent(outT + p4, v128.load(tangents + p4), load<f32>(tangents + p4, 12));
      continue;
    }
    const rest: f32 = <f32>1 - sum;
    if (restRemainder) {
      a0 = f32x4.add(a0, f32x4(rest, 0, 0, 0));
      a1 = f32x4.add(a1, f32x4(0, rest, 0, 0));
      a2 = f32x4.add(a2, f32x4(0, 0, rest, 0));
    }
    // Undivided weights: the share 1 − Σ wᵢ missing from the palette's T(−O) (zero when O is).
    if (!divide) a3 = f32x4.sub(a3, f32x4.mul(f32x4.splat(rest), origin));
    const inv = f32x4.splat(divide ? <f32>1 / sum : <f32>1);
    v128.store(outP + p3, f32x4.mul(f32x4.add(direction(a0, a1, a2, x, y, z), a3), inv));
    if (outT) {
      const t = tangents + p4;
      writeTangent(outT + p4, f32x4.mul(direction(a0, a1, a2, load<f32>(t), load<f32>(t, 4), load<f32>(t, 8)), inv), load<f32>(t, 12));
    }
    if (outN) {
      const cx = cross(a1, a2), cy = cross(a2, a0), cz = cross(a0, a1);
      const det = dot3(a0, cx);
      const nv = direction(cx, cy, cz, load<f32>(normals + p3), load<f32>(normals + p3, 4), load<f32>(normals + p3, 8));
      const len = Mathf.sqrt(dot3(nv, nv));
      const scale: f32 = len > 0 ? (det < 0 ? <f32>-1 : <f32>1) / len : 0;
      v128.store(outN + p3, f32x4.mul(nv, f32x4.splat(scale)));
    }
  }
}

/** a·b over four lanes, summed in lane order as the portable loop sums. */
@inline function dot4(a: v128, b: v128): f32 {
  const p = f32x4.mul(a, b);
  return f32x4.extract_lane(p, 0) + f32x4.extract_lane(p, 1) + f32x4.extract_lane(p, 2) + f32x4.extract_lane(p, 3);
}

/** The vector `a` rotated by the unit quaternion r (lanes x y z w): a + 2·r_v × (r_v × a + r_w·a). */
@inline function rotate(r: v128, rw: v128, a: v128): v128 {
  const c = f32x4.add(cross(r, a), f32x4.mul(rw, a));
  const e = cross(r, c);
  return f32x4.add(a, f32x4.add(e, e));
}

/** Bytes per joint of the DQS palette `skinDqs` reads: S's three columns, the quaternion q, the dual part ½(t, 0)⊗q. */
const DQ_STRIDE: usize = 80;

/**
 * Dual quaternion skinning (src/skinning/skin-vertices-dqs.ts holds the formulas and the portable back end:
 * Kavan et al. 2008 with the two-phase scale/shear extension) of vertices 0…n−1, c slots each; outN / outT 0
 * skip normals / tangents. `palette` is f32[20m]: per joint, at 80·j, S's columns (S00 S10 S20 0), (S01 S11 S21 0),
 * (S02 S12 S22 0), the rotation q (qx qy qz qw) and the dual part ½(t, 0)⊗q (SkinningKernel packs it from the
 * DQS palette). (ox, oy, oz): the model origin O; what stays at rest goes to p₀ − O, and rest-remainder's
 * identity is T(−O)'s dual quaternion (1, ½(−O, 0)). The same sums in the same slot order as the portable
 * loop, rounded to float32 at each step.
 */
export function skinDqs(
  n: i32, c: i32, palette: usize, positions: usize, normals: usize, tangents: usize, joints: usize, weights: usize,
  outP: usize, outN: usize, outT: usize, policy: i32, ox: f32, oy: f32, oz: f32,
): void {
  const divide = policy == NORMALIZE, keepUnweighted = policy == NORMALIZE || policy == AS_STORED;
  const restRemainder = policy == REST_REMAINDER, implicitLast = policy == IMPLICIT_LAST;
  const origin = f32x4(ox, oy, oz, 0), half = f32x4.splat(0.5), two = f32x4.splat(2);
  const last = c - 4;
  const zero = f32x4.splat(0);
  for (let v = 0; v < n; v++) {
    const slot = <usize>(v * c);
    // Slot 0 starts the sums, unflipped (q₀·q₀ = 1; a zero weight adds nothing), and its quaternion q₀, whatever
    // its weight, is what the other slots are sign-aligned to (as the portable loop).
    const m0 = palette + <usize>load<u16>(joints + (slot << 1)) * DQ_STRIDE;
    const q0 = v128.load(m0, 48);
    let sum: f32 = load<f32>(weights + (slot << 2));
    const s0 = f32x4.splat(sum);
    let a0 = f32x4.mul(v128.load(m0), s0), a1 = f32x4.mul(v128.load(m0, 16), s0), a2 = f32x4.mul(v128.load(m0, 32), s0);
    let r = f32x4.mul(q0, s0), d = f32x4.mul(v128.load(m0, 64), s0);
    // Four slots at a time (weights as one v128, joints as one u64), each added when its weight is not 0.
    for (let k = 0; k < c; k += 4) {
      const w4 = v128.load(weights + ((slot + <usize>k) << 2));
      const j4 = load<u64>(joints + ((slot + <usize>k) << 1));
      const w0 = f32x4.extract_lane(w4, 0), w1 = f32x4.extract_lane(w4, 1), w2 = f32x4.extract_lane(w4, 2);
      let w3 = f32x4.extract_lane(w4, 3);
      if (w0 != 0 && k != 0) {
        sum += w0;
        const m = palette + <usize>(j4 & 0xffff) * DQ_STRIDE, s = f32x4.splat(w0);
        a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s);
        const q = v128.load(m, 48);
        const ws = dot4(q, q0) < 0 ? f32x4.neg(s) : s;
        r = f32x4.add(r, f32x4.mul(q, ws));
        d = madd(d, m, 64, ws);
      }
      if (w1 != 0) {
        sum += w1;
        const m = palette + <usize>((j4 >> 16) & 0xffff) * DQ_STRIDE, s = f32x4.splat(w1);
        a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s);
        const q = v128.load(m, 48);
        const ws = dot4(q, q0) < 0 ? f32x4.neg(s) : s;
        r = f32x4.add(r, f32x4.mul(q, ws));
        d = madd(d, m, 64, ws);
      }
      if (w2 != 0) {
        sum += w2;
        const m = palette + <usize>((j4 >> 32) & 0xffff) * DQ_STRIDE, s = f32x4.splat(w2);
        a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s);
        const q = v128.load(m, 48);
        const ws = dot4(q, q0) < 0 ? f32x4.neg(s) : s;
        r = f32x4.add(r, f32x4.mul(q, ws));
        d = madd(d, m, 64, ws);
      }
      // implicit-last: the last slot's weight is 1 − the others' sum (zero weights add nothing to it).
      if (implicitLast && k == last) w3 = <f32>1 - sum;
      if (w3 != 0) {
        sum += w3;
        const m = palette + <usize>(j4 >> 48) * DQ_STRIDE, s = f32x4.splat(w3);
        a0 = madd(a0, m, 0, s); a1 = madd(a1, m, 16, s); a2 = madd(a2, m, 32, s);
        const q = v128.load(m, 48);
        const ws = dot4(q, q0) < 0 ? f32x4.neg(s) : s;
        r = f32x4.add(r, f32x4.mul(q, ws));
        d = madd(d, m, 64, ws);
      }
    }
    const p3 = <usize>(v * 12), p4 = <usize>v << 4;
    const x = load<f32>(positions + p3), y = load<f32>(positions + p3, 4), z = load<f32>(positions + p3, 8);
    let keep = sum == 0 && keepUnweighted;
    if (!keep) {
      if (restRemainder) {
        const rest: f32 = <f32>1 - sum;
        a0 = f32x4.add(a0, f32x4(rest, 0, 0, 0));
        a1 = f32x4.add(a1, f32x4(0, rest, 0, 0));
        a2 = f32x4.add(a2, f32x4(0, 0, rest, 0));
        const ws = f32x4.splat(f32x4.extract_lane(q0, 3) < 0 ? -rest : rest);
        r = f32x4.add(r, f32x4.mul(ws, f32x4(0, 0, 0, 1)));
        d = f32x4.sub(d, f32x4.mul(f32x4.mul(ws, half), origin));
      }
      if (divide) {
        const inv = f32x4.splat(<f32>1 / sum);
        a0 = f32x4.mul(a0, inv); a1 = f32x4.mul(a1, inv); a2 = f32x4.mul(a2, inv);
      }
      const len = Mathf.sqrt(dot4(r, r));
      keep = !(len > 0);
      if (!keep) {
        const inv = f32x4.splat(<f32>1 / len);
        r = f32x4.mul(r, inv); d = f32x4.mul(d, inv);
      }
    }
    if (keep) {
      v128.store(outP + p3, f32x4.sub(f32x4(x, y, z, 0), origin));
      if (outN) v128.store(outN + p3, f32x4(load<f32>(normals + p3), load<f32>(normals + p3, 4), load<f32>(normals + p3, 8), 0));
      if (outT) writeTangent(outT + p4, v128.load(tangents + p4), load<f32>(tangents + p4, 12));
      continue;
    }
    // Phase 1, S_b·p₀; phase 2, rotate by the real part and translate by t_b = 2·(w_r v_d − w_d v_r + v_r × v_d).
    const rw = f32x4.splat(f32x4.extract_lane(r, 3)), dw = f32x4.splat(f32x4.extract_lane(d, 3));
    const t = f32x4.mul(two, f32x4.add(f32x4.sub(f32x4.mul(rw, d), f32x4.mul(dw, r)), cross(r, d)));
    v128.store(outP + p3, f32x4.add(rotate(r, rw, direction(a0, a1, a2, x, y, z)), t));
    if (outT) {
      const tp = tangents + p4;
      writeTangent(outT + p4, rotate(r, rw, direction(a0, a1, a2, load<f32>(tp), load<f32>(tp, 4), load<f32>(tp, 8))), load<f32>(tp, 12));
    }
    if (outN) {
      // sign(det S_b)·cof(S_b)·n₀, rotated, normalised.
      const cx = cross(a1, a2), cy = cross(a2, a0), cz = cross(a0, a1);
      const det = dot3(a0, cx);
      const m = direction(cx, cy, cz, load<f32>(normals + p3), load<f32>(normals + p3, 4), load<f32>(normals + p3, 8));
      const nv = rotate(r, rw, det < 0 ? f32x4.neg(m) : m);
      const len = Mathf.sqrt(dot3(nv, nv));
      v128.store(outN + p3, f32x4.mul(nv, f32x4.splat(len > 0 ? <f32>1 / len : 0)));
    }
  }
}

/** Stores t's (x, y, z) normalised ((0, 0, 0) when zero) and w at `out`. */
@inline function writeTangent(out: usize, t: v128, w: f32): void {
  const len = Mathf.sqrt(dot3(t, t));
  const scale: f32 = len > 0 ? <f32>1 / len : 0;
  v128.store(out, f32x4.replace_lane(f32x4.mul(t, f32x4.splat(scale)), 3, w));
}

/**
 * The memory floor of `skin` with normals (bench: `skin.kernel_ratio_to_memory_floor`): per vertex it loads what
 * `skin` loads — rest position and normal, c weights and joints — and stores the position and normal outputs,
 * with no arithmetic but folding the loads into the stores (`mask` is 0, unknown to the compiler, so no load
 * is dropped): the rest pose is written.
 */
export function stream(n: i32, c: i32, positions: usize, normals: usize, joints: usize, weights: usize, outP: usize, outN: usize, mask: i32): void {
  const keep = i32x4.splat(mask);
  for (let v = 0; v < n; v++) {
    let acc = i32x4.splat(0);
    const slot = <usize>(v * c);
    for (let k = 0; k < c; k += 4) {
      acc = v128.or(acc, v128.load(weights + ((slot + <usize>k) << 2)));
      acc = v128.or(acc, i64x2.splat(load<u64>(joints + ((slot + <usize>k) << 1))));
    }
    const extra = v128.and(acc, keep), p3 = <usize>(v * 12);
    v128.store(outP + p3, v128.or(f32x4(load<f32>(positions + p3), load<f32>(positions + p3, 4), load<f32>(positions + p3, 8), 0), extra));
    v128.store(outN + p3, v128.or(f32x4(load<f32>(normals + p3), load<f32>(normals + p3, 4), load<f32>(normals + p3, 8), 0), extra));
  }
}
