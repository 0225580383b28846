// AssemblyScript source of the spring kernel: the WebAssembly SIMD back end of `SpringBoneJob`
// (src/secondary/, the portable reference, which holds the formulas: three-vrm's VRMSpringBoneJoint and
// VRMSpringBoneManager, after VRMC_springBone 1.0's README, "Algorithm"). Compiled by `npm run build:wasm` into
// spring-kernel-binary.ts; a unit test keeps the two in step. Not type-checked by tsc (AssemblyScript types);
// `asc` checks it.
//
// Two chains per f64x2 (f64 keeps the kernel within the portable job's tolerance over long runs: the tails are
// integrated, and a float32 tail drifts by its ulp every step). A group of two chains is stepped joint depth
// by joint depth (a chain's joints are sequential, two chains are independent); groups run in the order
// SpringKernel lays them out, so a chain whose first joint hangs below another chain's joint runs after it.
//
// Layout (byte offsets into the pose kernel's arena, chosen by SpringKernel, 16-byte aligned):
// - matrices: f64[12] per slot, 3×4 column-major (x axis, y axis, z axis, translation). Slot 0 and 1 are the
//   identity, slot 2 the model's world matrix; the others are nodes' world matrices, centres' inverses, and
//   products of local matrices between a chain joint and the spring joint above it.
// - program: i32[4] per op (dst, src, joint, 0): matrices[dst] = matrices[src] · T·R·S(joint) from the local pose
//   (f32), or, with joint = −1, matrices[dst] = matrices[src]⁻¹. Run parents first by `prepare`.
// - colliders: f64[10] per collider in (kind 0 sphere / 1 capsule / 2 plane, slot, inside 0/1, radius, offset xyz,
//   tail or normal xyz) and f64[10] per collider out (position xyz, axis or normal xyz, axis length², radius,
//   inside, kind), written by `prepare`.
// - groups: i32[4] per group: depth count, first record, first collider entry, entry count. Entries: 32 bytes,
//   collider index i32 then an i64x2 lane mask. Records (RECORD bytes per joint depth): i32 per lane (base
//   slot, relative slot, output slot, node) ×2, centre slot ×2, active ×2, state index (| CHAINED), centre's
//   inverse slot ×2, whether a lane has a centre, then the f64x2 fields below (lane 0 the group's first chain,
//   lane 1 its second).
// - state: STATE bytes per record: current tail xyz, previous tail xyz (centre space), last position xyz, the tail
//   joint's world position at the end of the last apply xyz, f64x2.

const RECORD: usize = 64 + 16 * 46;
/** A record's state index word: the index, and a flag for a joint whose parent is the record before's joint in both lanes. */
const INDEX = 0xffffff;
const CHAINED = 1 << 30;
const STATE: usize = 16 * 12;

// Field indices of a record's f64x2 values.
const F_L0 = 0;    // 12: the joint's initial local matrix (rest translation, rotation, scale)
const F_A0 = 12;   // 3: the bone axis through the initial local matrix, normalised
const F_U = 15;    // 3: the tail's offset through the initial local matrix (its length: the bone length)
const F_AXIS = 18; // 3: the bone axis (unit, joint space)
const F_Q0 = 21;   // 4: the initial local rotation x y z w
const F_CHILD = 25; // 3: the initial local tail position
const F_STIFF = 28;
const F_KEEP = 29; // 1 − drag force
const F_GRAV = 30; // 3: gravity direction · power
const F_HIT = 33;
const F_QDEG = 34; // 4: the from-to rotation of the bone axis to its opposite (x y z, w 0)
const F_S0 = 38;   // 3: the rest scale
const F_ACTIVE = 41; // i64x2 mask: the lane holds a joint
const F_OFF = 42;  // 3: the tail joint's position in the joint's space (through the nodes between)
const F_REAL = 45; // i64x2 mask: the lane's tail is a joint (not a virtual tail)

@inline function fld(rec: usize, k: i32): v128 { return v128.load(rec + 64 + (<usize>k << 4)); }
@inline function splat(x: f64): v128 { return f64x2.splat(x); }
@inline function add(a: v128, b: v128): v128 { return f64x2.add(a, b); }
@inline function sub(a: v128, b: v128): v128 { return f64x2.sub(a, b); }
@inline function mul(a: v128, b: v128): v128 { return f64x2.mul(a, b); }
@inline function dot3(ax: v128, ay: v128, az: v128, bx: v128, by: v128, bz: v128): v128 {
  return add(add(mul(ax, bx), mul(ay, by)), mul(az, bz));
}
/** a where mask, else b. */
@inline function pick(mask: v128, a: v128, b: v128): v128 { return v128.bitselect(a, b, mask); }

/** matrices[dst] = matrices[src] · M, M the 3×4 of translation t, rotation q (unit), scale s. */
function compose(d: usize, a: usize, tx: f64, ty: f64, tz: f64, x: f64, y: f64, z: f64, w: f64, sx: f64, sy: f64, sz: f64): void {
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  const l0 = (1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
  const l3 = (xy - wz) * sy, l4 = (1 - (xx + zz)) * sy, l5 = (yz + wx) * sy;
  const l6 = (xz + wy) * sz, l7 = (yz - wx) * sz, l8 = (1 - (xx + yy)) * sz;
  multiplyInto(d, a, l0, l1, l2, l3, l4, l5, l6, l7, l8, tx, ty, tz);
}

/** matrices at d = the 3×4 at a · the 3×4 (l0…l8 columns, t translation); d may be a. */
@inline function multiplyInto(d: usize, a: usize, l0: f64, l1: f64, l2: f64, l3: f64, l4: f64, l5: f64, l6: f64, l7: f64, l8: f64, tx: f64, ty: f64, tz: f64): void {
  const a0 = load<f64>(a), a1 = load<f64>(a, 8), a2 = load<f64>(a, 16);
  const a3 = load<f64>(a, 24), a4 = load<f64>(a, 32), a5 = load<f64>(a, 40);
  const a6 = load<f64>(a, 48), a7 = load<f64>(a, 56), a8 = load<f64>(a, 64);
  const a9 = load<f64>(a, 72), a10 = load<f64>(a, 80), a11 = load<f64>(a, 88);
  store<f64>(d, a0 * l0 + a3 * l1 + a6 * l2);
  store<f64>(d, a1 * l0 + a4 * l1 + a7 * l2, 8);
  store<f64>(d, a2 * l0 + a5 * l1 + a8 * l2, 16);
  store<f64>(d, a0 * l3 + a3 * l4 + a6 * l5, 24);
  store<f64>(d, a1 * l3 + a4 * l4 + a7 * l5, 32);
  store<f64>(d, a2 * l3 + a5 * l4 + a8 * l5, 40);
  store<f64>(d, a0 * l6 + a3 * l7 + a6 * l8, 48);
  store<f64>(d, a1 * l6 + a4 * l7 + a7 * l8, 56);
  store<f64>(d, a2 * l6 + a5 * l7 + a8 * l8, 64);
  store<f64>(d, a0 * tx + a3 * ty + a6 * tz + a9, 72);
  store<f64>(d, a1 * tx + a4 * ty + a7 * tz + a10, 80);
  store<f64>(d, a2 * tx + a5 * ty + a8 * tz + a11, 88);
}

/** matrices at d = (matrices at a)⁻¹ (affine; a singular matrix gives the identity). */
function invert(d: usize, a: usize): void {
  const a0 = load<f64>(a), a1 = load<f64>(a, 8), a2 = load<f64>(a, 16);
  const a3 = load<f64>(a, 24), a4 = load<f64>(a, 32), a5 = load<f64>(a, 40);
  const a6 = load<f64>(a, 48), a7 = load<f64>(a, 56), a8 = load<f64>(a, 64);
  const tx = load<f64>(a, 72), ty = load<f64>(a, 80), tz = load<f64>(a, 88);
  const c0 = a4 * a8 - a7 * a5, c1 = a7 * a2 - a1 * a8, c2 = a1 * a5 - a4 * a2;
  const det = a0 * c0 + a3 * c1 + a6 * c2;
  if (det == 0) {
    memory.fill(d, 0, 96);
    store<f64>(d, 1); store<f64>(d, 1, 32); store<f64>(d, 1, 64);
    return;
  }
  const k = 1 / det;
  const i0 = c0 * k, i1 = c1 * k, i2 = c2 * k;
  const i3 = (a6 * a5 - a3 * a8) * k, i4 = (a0 * a8 - a6 * a2) * k, i5 = (a3 * a2 - a0 * a5) * k;
  const i6 = (a3 * a7 - a6 * a4) * k, i7 = (a6 * a1 - a0 * a7) * k, i8 = (a0 * a4 - a3 * a1) * k;
  store<f64>(d, i0); store<f64>(d, i1, 8); store<f64>(d, i2, 16);
  store<f64>(d, i3, 24); store<f64>(d, i4, 32); store<f64>(d, i5, 40);
  store<f64>(d, i6, 48); store<f64>(d, i7, 56); store<f64>(d, i8, 64);
  store<f64>(d, -(i0 * tx + i3 * ty + i6 * tz), 72);
  store<f64>(d, -(i1 * tx + i4 * ty + i7 * tz), 80);
  store<f64>(d, -(i2 * tx + i5 * ty + i8 * tz), 88);
}

/**
 * The frame's inputs of the springs: the program's matrices from the local pose (T f32[3n], R f32[4n], S f32[3n])
 * — the nodes the springs read, parents first — then every collider in world space (three-vrm's collider
 * matrix: the node's world matrix with its translation moved to the offset; a capsule's axis through the
 * node's matrix; a plane's normal through its normal matrix, normalised).
 */
export function prepare(mats: usize, program: usize, ops: i32, T: usize, R: usize, S: usize, colliders: usize, count: i32, out: usize): void {
  for (let k = 0; k < ops; k++) {
    const op = program + (<usize>k << 4);
    const d = mats + <usize>load<i32>(op) * 96, a = mats + <usize>load<i32>(op, 4) * 96, j = load<i32>(op, 8);
    if (j < 0) { invert(d, a); continue; }
    const t = T + <usize>(j * 12), q = R + (<usize>j << 4), s = S + <usize>(j * 12);
    compose(d, a, <f64>load<f32>(t), <f64>load<f32>(t, 4), <f64>load<f32>(t, 8),
      <f64>load<f32>(q), <f64>load<f32>(q, 4), <f64>load<f32>(q, 8), <f64>load<f32>(q, 12),
      <f64>load<f32>(s), <f64>load<f32>(s, 4), <f64>load<f32>(s, 8));
  }
  for (let c = 0; c < count; c++) {
    const i = colliders + <usize>(c * 80), o = out + <usize>(c * 80);
    const kind = load<f64>(i), m = mats + <usize>(<i32>load<f64>(i, 8)) * 96;
    const a0 = load<f64>(m), a1 = load<f64>(m, 8), a2 = load<f64>(m, 16);
    const a3 = load<f64>(m, 24), a4 = load<f64>(m, 32), a5 = load<f64>(m, 40);
    const a6 = load<f64>(m, 48), a7 = load<f64>(m, 56), a8 = load<f64>(m, 64);
    const ox = load<f64>(i, 32), oy = load<f64>(i, 40), oz = load<f64>(i, 48);
    const vx = load<f64>(i, 56), vy = load<f64>(i, 64), vz = load<f64>(i, 72);
    store<f64>(o, a0 * ox + a3 * oy + a6 * oz + load<f64>(m, 72));
    store<f64>(o, a1 * ox + a4 * oy + a7 * oz + load<f64>(m, 80), 8);
    store<f64>(o, a2 * ox + a5 * oy + a8 * oz + load<f64>(m, 88), 16);
    let dx = 0.0, dy = 0.0, dz = 0.0;
    if (kind == 1) {
      const ex = vx - ox, ey = vy - oy, ez = vz - oz;
      dx = a0 * ex + a3 * ey + a6 * ez; dy = a1 * ex + a4 * ey + a7 * ez; dz = a2 * ex + a5 * ey + a8 * ez;
    } else if (kind == 2) {
      // The normal matrix (inverse transpose) times n: the cofactors over the determinant.
      const c0 = a4 * a8 - a7 * a5, c1 = a7 * a2 - a1 * a8, c2 = a1 * a5 - a4 * a2;
      const c3 = a6 * a5 - a3 * a8, c4 = a0 * a8 - a6 * a2, c5 = a3 * a2 - a0 * a5;
      const c6 = a3 * a7 - a6 * a4, c7 = a6 * a1 - a0 * a7, c8 = a0 * a4 - a3 * a1;
      const det = a0 * c0 + a3 * c1 + a6 * c2;
      const k = det != 0 ? 1 / det : 1.0;
      dx = (c0 * vx + c1 * vy + c2 * vz) * k; dy = (c3 * vx + c4 * vy + c5 * vz) * k; dz = (c6 * vx + c7 * vy + c8 * vz) * k;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz), inv = len > 0 ? 1 / len : 0.0;
      dx *= inv; dy *= inv; dz *= inv;
    }
    store<f64>(o, dx, 24); store<f64>(o, dy, 32); store<f64>(o, dz, 40);
    store<f64>(o, dx * dx + dy * dy + dz * dz, 48);
    store<f64>(o, load<f64>(i, 24), 56);
    store<f64>(o, load<f64>(i, 16), 64);
    store<f64>(o, kind, 72);
  }
}

/** The parent's world matrix of both lanes (matrices[base] · matrices[rel]) into scratch, lane-interleaved. */
@inline function gatherParent(mats: usize, rec: usize, scratch: usize): void {
  for (let lane = 0; lane < 2; lane++) {
    const base = mats + <usize>load<i32>(rec + (<usize>lane << 4)) * 96;
    const rel = load<i32>(rec + (<usize>lane << 4), 4);
    const out = scratch + (<usize>lane << 3);
    if (rel == 0) {
      for (let e = 0; e < 12; e++) store<f64>(out + (<usize>e << 4), load<f64>(base + (<usize>e << 3)));
    } else {
      const r = mats + <usize>rel * 96;
      multiplyInto(scratch + 256, base, load<f64>(r), load<f64>(r, 8), load<f64>(r, 16), load<f64>(r, 24), load<f64>(r, 32),
        load<f64>(r, 40), load<f64>(r, 48), load<f64>(r, 56), load<f64>(r, 64), load<f64>(r, 72), load<f64>(r, 80), load<f64>(r, 88));
      for (let e = 0; e < 12; e++) store<f64>(out + (<usize>e << 4), load<f64>(scratch + 256 + (<usize>e << 3)));
    }
  }
}

/** matrices[s0] and matrices[s1], lane-interleaved, at dst. */
@inline function gatherSlots(mats: usize, s0: i32, s1: i32, dst: usize): void {
  const m0 = mats + <usize>s0 * 96, m1 = mats + <usize>s1 * 96;
  for (let e = 0; e < 12; e++) {
    store<f64>(dst + (<usize>e << 4), load<f64>(m0 + (<usize>e << 3)));
    store<f64>(dst + (<usize>e << 4), load<f64>(m1 + (<usize>e << 3)), 8);
  }
}

/**
 * The spring joints' stage, one instance: every group's chains depth by depth. `params`: f64 dt, then the
 * external vector ex, ey, ez, (a slot for rootTravel), then whether to record each tail joint's world position
 * at the end (the apply's last stage: what the next apply's bone lengths are measured to) (in memory: doubles
 * passed to a call from JavaScript would be boxed, garbage per frame). `mode` 0 poses the joints from
 * the current tails without moving them, 1 advances them by dt seconds (three-vrm's VRMSpringBoneJoint.update:
 * Verlet with drag, stiffness toward the bone axis, gravity plus the external vector, the bone length
 * kept, each collider of the chain's groups in order pushing the tail out (in, for inside shapes) and the
 * length kept again), 2 sets every tail at its joint's rest direction from the current parent (reset). Each
 * joint's rotation (initial local rotation · the from-to rotation of its bone axis to the tail) is written to
 * R (f32[4n], x y z w) and its world matrix to its slot, which the joints below read. `state`: this instance's
 * tails (STATE bytes per record); scratch: 576 bytes. Padding lanes (inactive) compute from zeros and write nothing.
 */
export function springs(mats: usize, colliders: usize, groups: usize, groupCount: i32, state: usize, R: usize, scratch: usize,
  params: usize, mode: i32): void {
  const dt = load<f64>(params), ex = load<f64>(params, 8), ey = load<f64>(params, 16), ez = load<f64>(params, 24);
  const storeChildren = load<f64>(params, 40) != 0;
  const zero = splat(0), one = splat(1), vdt = splat(dt);
  const gx = splat(ex * dt), gy = splat(ey * dt), gz = splat(ez * dt);
  for (let g = 0; g < groupCount; g++) {
    const head = groups + (<usize>g << 4);
    const depths = load<i32>(head), first = <usize>load<i32>(head, 4);
    const entries = <usize>load<i32>(head, 8), entryCount = load<i32>(head, 12);
    for (let d = 0; d < depths; d++) {
      const rec = first + <usize>d * RECORD;
      const index = load<i32>(rec, 48), st = state + <usize>(index & INDEX) * STATE;
      // P: the parent's world matrix (for a joint right below the one before in both lanes, that joint's world
      // matrix, still in the scratch); A = P · L0 the joint's initial world matrix.
      if ((index & CHAINED) == 0) gatherParent(mats, rec, scratch);
      const p0 = v128.load(scratch), p1 = v128.load(scratch, 16), p2 = v128.load(scratch, 32);
      const p3 = v128.load(scratch, 48), p4 = v128.load(scratch, 64), p5 = v128.load(scratch, 80);
      const p6 = v128.load(scratch, 96), p7 = v128.load(scratch, 112), p8 = v128.load(scratch, 128);
      const p9 = v128.load(scratch, 144), p10 = v128.load(scratch, 160), p11 = v128.load(scratch, 176);
      const l0 = fld(rec, F_L0), l1 = fld(rec, F_L0 + 1), l2 = fld(rec, F_L0 + 2);
      const l3 = fld(rec, F_L0 + 3), l4 = fld(rec, F_L0 + 4), l5 = fld(rec, F_L0 + 5);
      const l6 = fld(rec, F_L0 + 6), l7 = fld(rec, F_L0 + 7), l8 = fld(rec, F_L0 + 8);
      const l9 = fld(rec, F_L0 + 9), l10 = fld(rec, F_L0 + 10), l11 = fld(rec, F_L0 + 11);
      const A0 = dot3(p0, p3, p6, l0, l1, l2), A1 = dot3(p1, p4, p7, l0, l1, l2), A2 = dot3(p2, p5, p8, l0, l1, l2);
      const A3 = dot3(p0, p3, p6, l3, l4, l5), A4 = dot3(p1, p4, p7, l3, l4, l5), A5 = dot3(p2, p5, p8, l3, l4, l5);
      const A6 = dot3(p0, p3, p6, l6, l7, l8), A7 = dot3(p1, p4, p7, l6, l7, l8), A8 = dot3(p2, p5, p8, l6, l7, l8);
      const px = add(dot3(p0, p3, p6, l9, l10, l11), p9);
      const py = add(dot3(p1, p4, p7, l9, l10, l11), p10);
      const pz = add(dot3(p2, p5, p8, l9, l10, l11), p11);
      // The centre's matrices (centre → world, world → centre), both lanes; none (world space) skips them.
      const centered = load<i32>(rec, 60) != 0;
      if (centered) {
        gatherSlots(mats, load<i32>(rec, 32), load<i32>(rec, 36), scratch + 192);
        gatherSlots(mats, load<i32>(rec, 52), load<i32>(rec, 56), scratch + 384);
      }
      const c = scratch + 192, ci = scratch + 384;
      let nx: v128, ny: v128, nz: v128;
      if (mode == 2) {
        // Reset: the tail at the joint's rest direction, at rest.
        const cx = fld(rec, F_CHILD), cy = fld(rec, F_CHILD + 1), cz = fld(rec, F_CHILD + 2);
        nx = add(dot3(A0, A3, A6, cx, cy, cz), px);
        ny = add(dot3(A1, A4, A7, cx, cy, cz), py);
        nz = add(dot3(A2, A5, A8, cx, cy, cz), pz);
        const tx = toSpace(centered, ci, nx, ny, nz, 0), ty = toSpace(centered, ci, nx, ny, nz, 1), tz = toSpace(centered, ci, nx, ny, nz, 2);
        v128.store(st, tx); v128.store(st, ty, 16); v128.store(st, tz, 32);
        v128.store(st, tx, 48); v128.store(st, ty, 64); v128.store(st, tz, 80);
      } else {
        const cx = v128.load(st), cy = v128.load(st, 16), cz = v128.load(st, 32);
        if (mode == 0) {
          nx = toSpace(centered, c, cx, cy, cz, 0); ny = toSpace(centered, c, cx, cy, cz, 1); nz = toSpace(centered, c, cx, cy, cz, 2);
        } else {
          const keep = fld(rec, F_KEEP);
          const vx = add(cx, mul(sub(cx, v128.load(st, 48)), keep));
          const vy = add(cy, mul(sub(cy, v128.load(st, 64)), keep));
          const vz = add(cz, mul(sub(cz, v128.load(st, 80)), keep));
          // The bone axis in world space (three-vrm: transformDirection twice, normalising each time).
          const a0x = fld(rec, F_A0), a0y = fld(rec, F_A0 + 1), a0z = fld(rec, F_A0 + 2);
          let wx = dot3(p0, p3, p6, a0x, a0y, a0z), wy = dot3(p1, p4, p7, a0x, a0y, a0z), wz = dot3(p2, p5, p8, a0x, a0y, a0z);
          const wl = f64x2.sqrt(dot3(wx, wy, wz, wx, wy, wz));
          const wk = pick(f64x2.gt(wl, zero), f64x2.div(one, wl), zero);
          wx = mul(wx, wk); wy = mul(wy, wk); wz = mul(wz, wk);
          const k = mul(fld(rec, F_STIFF), vdt);
          nx = add(add(add(toSpace(centered, c, vx, vy, vz, 0), mul(wx, k)), mul(fld(rec, F_GRAV), vdt)), gx);
          ny = add(add(add(toSpace(centered, c, vx, vy, vz, 1), mul(wy, k)), mul(fld(rec, F_GRAV + 1), vdt)), gy);
          nz = add(add(add(toSpace(centered, c, vx, vy, vz, 2), mul(wz, k)), mul(fld(rec, F_GRAV + 2), vdt)), gz);
          // The bone length (three-vrm's world-space bone length): to the tail joint's world position at the end of
          // the last apply; a virtual tail's offset through P · L0.
          const ux = fld(rec, F_U), uy = fld(rec, F_U + 1), uz = fld(rec, F_U + 2);
          const bx = dot3(p0, p3, p6, ux, uy, uz), by = dot3(p1, p4, p7, ux, uy, uz), bz = dot3(p2, p5, p8, ux, uy, uz);
          let length = f64x2.sqrt(dot3(bx, by, bz, bx, by, bz));
          const real = fld(rec, F_REAL);
          if (v128.any_true(real)) {
            const kx = sub(v128.load(st, 144), px), ky = sub(v128.load(st, 160), py), kz = sub(v128.load(st, 176), pz);
            length = pick(real, f64x2.sqrt(dot3(kx, ky, kz, kx, ky, kz)), length);
          }
          // Keep the length; a tail on the joint goes along the bone axis.
          let dx = sub(nx, px), dy = sub(ny, py), dz = sub(nz, pz);
          let dl = f64x2.sqrt(dot3(dx, dy, dz, dx, dy, dz));
          let ok = f64x2.gt(dl, zero);
          let s = f64x2.div(length, pick(ok, dl, one));
          nx = add(px, pick(ok, mul(dx, s), mul(wx, length)));
          ny = add(py, pick(ok, mul(dy, s), mul(wy, length)));
          nz = add(pz, pick(ok, mul(dz, s), mul(wz, length)));
          // Colliders in order.
          const hit = fld(rec, F_HIT);
          for (let e = 0; e < entryCount; e++) {
            const entry = entries + (<usize>e << 5);
            const o = colliders + <usize>(load<i32>(entry) * 80);
            const mask = v128.load(entry, 16);
            const ox = v128.load64_splat(o), oy = v128.load64_splat(o, 8), oz = v128.load64_splat(o, 16);
            const ax = v128.load64_splat(o, 24), ay = v128.load64_splat(o, 32), az = v128.load64_splat(o, 40);
            const radius = v128.load64_splat(o, 56), inside = load<f64>(o, 64) != 0, kind = load<f64>(o, 72);
            let tx = sub(nx, ox), ty = sub(ny, oy), tz = sub(nz, oz);
            let dist: v128, hx: v128, hy: v128, hz: v128;
            if (kind == 2) {
              dist = sub(dot3(tx, ty, tz, ax, ay, az), hit);
              hx = ax; hy = ay; hz = az;
            } else {
              if (kind == 1) {
                const lsq = v128.load64_splat(o, 48);
                const dt3 = dot3(ax, ay, az, tx, ty, tz);
                // dot ≤ 0: from the offset; lengthSq ≤ dot: from the tail; else from the nearest point.
                const f = pick(f64x2.le(dt3, zero), zero, pick(f64x2.le(lsq, dt3), one, f64x2.div(dt3, lsq)));
                tx = sub(tx, mul(ax, f)); ty = sub(ty, mul(ay, f)); tz = sub(tz, mul(az, f));
              }
              // Most tails touch no collider: squared distances decide that without a root or a division.
              const d2 = dot3(tx, ty, tz, tx, ty, tz);
              if (inside) {
                const room = sub(radius, hit);
                if (!v128.any_true(v128.and(mask, v128.or(f64x2.lt(room, zero), f64x2.gt(d2, mul(room, room)))))) continue;
              } else {
                const reach = add(radius, hit);
                if (!v128.any_true(v128.and(mask, f64x2.lt(d2, mul(reach, reach))))) continue;
              }
              const tl = f64x2.sqrt(d2);
              dist = inside ? sub(sub(radius, hit), tl) : sub(sub(tl, hit), radius);
              const inv = pick(f64x2.gt(tl, zero), f64x2.div(inside ? splat(-1) : one, tl), zero);
              hx = mul(tx, inv); hy = mul(ty, inv); hz = mul(tz, inv);
            }
            const push = v128.and(f64x2.lt(dist, zero), mask);
            if (!v128.any_true(push)) continue;
            const m = f64x2.neg(dist);
            const qx = add(nx, mul(hx, m)), qy = add(ny, mul(hy, m)), qz = add(nz, mul(hz, m));
            dx = sub(qx, px); dy = sub(qy, py); dz = sub(qz, pz);
            dl = f64x2.sqrt(dot3(dx, dy, dz, dx, dy, dz));
            ok = v128.and(push, f64x2.gt(dl, zero));
            s = f64x2.div(length, pick(ok, dl, one));
            nx = pick(ok, add(px, mul(dx, s)), nx);
            ny = pick(ok, add(py, mul(dy, s)), ny);
            nz = pick(ok, add(pz, mul(dz, s)), nz);
          }
          v128.store(st, cx, 48); v128.store(st, cy, 64); v128.store(st, cz, 80);
          v128.store(st, toSpace(centered, ci, nx, ny, nz, 0));
          v128.store(st, toSpace(centered, ci, nx, ny, nz, 1), 16);
          v128.store(st, toSpace(centered, ci, nx, ny, nz, 2), 32);
        }
      }
      // The rotation: the bone axis turned to the tail seen from the initial world matrix A (A⁻¹ · tail).
      const wx = sub(nx, px), wy = sub(ny, py), wz = sub(nz, pz);
      const i0 = sub(mul(A4, A8), mul(A7, A5)), i1 = sub(mul(A7, A2), mul(A1, A8)), i2 = sub(mul(A1, A5), mul(A4, A2));
      const i3 = sub(mul(A6, A5), mul(A3, A8)), i4 = sub(mul(A0, A8), mul(A6, A2)), i5 = sub(mul(A3, A2), mul(A0, A5));
      const i6 = sub(mul(A3, A7), mul(A6, A4)), i7 = sub(mul(A6, A1), mul(A0, A7)), i8 = sub(mul(A0, A4), mul(A3, A1));
      const det = dot3(A0, A3, A6, i0, i1, i2);
      const kd = pick(f64x2.ne(det, zero), f64x2.div(one, det), zero);
      let vx = mul(dot3(i0, i3, i6, wx, wy, wz), kd);
      let vy = mul(dot3(i1, i4, i7, wx, wy, wz), kd);
      let vz = mul(dot3(i2, i5, i8, wx, wy, wz), kd);
      const vl = f64x2.sqrt(dot3(vx, vy, vz, vx, vy, vz));
      const bax = fld(rec, F_AXIS), bay = fld(rec, F_AXIS + 1), baz = fld(rec, F_AXIS + 2);
      const vok = f64x2.gt(vl, zero);
      const vk = f64x2.div(one, pick(vok, vl, one));
      vx = pick(vok, mul(vx, vk), bax); vy = pick(vok, mul(vy, vk), bay); vz = pick(vok, mul(vz, vk), baz);
      // three.js Quaternion.setFromUnitVectors(axis, v), then premultiplied by the initial local rotation.
      const r = add(dot3(bax, bay, baz, vx, vy, vz), one);
      const opposite = f64x2.lt(r, splat(f64.EPSILON));
      let fx = pick(opposite, fld(rec, F_QDEG), sub(mul(bay, vz), mul(baz, vy)));
      let fy = pick(opposite, fld(rec, F_QDEG + 1), sub(mul(baz, vx), mul(bax, vz)));
      let fz = pick(opposite, fld(rec, F_QDEG + 2), sub(mul(bax, vy), mul(bay, vx)));
      let fw = pick(opposite, zero, r);
      const fl = f64x2.sqrt(add(dot3(fx, fy, fz, fx, fy, fz), mul(fw, fw)));
      // (a zero bone axis has no rotation to find: the identity, as the portable job takes)
      const fok = f64x2.gt(fl, zero), fk = f64x2.div(one, pick(fok, fl, one));
      fx = pick(fok, mul(fx, fk), zero); fy = pick(fok, mul(fy, fk), zero);
      fz = pick(fok, mul(fz, fk), zero); fw = pick(fok, mul(fw, fk), one);
      const ax = fld(rec, F_Q0), ay = fld(rec, F_Q0 + 1), az = fld(rec, F_Q0 + 2), aw = fld(rec, F_Q0 + 3);
      const qx = add(sub(add(mul(aw, fx), mul(ax, fw)), mul(az, fy)), mul(ay, fz));
      const qy = add(add(sub(mul(aw, fy), mul(ax, fz)), mul(ay, fw)), mul(az, fx));
      const qz = add(sub(add(mul(aw, fz), mul(ax, fy)), mul(ay, fx)), mul(az, fw));
      const qw = sub(sub(sub(mul(aw, fw), mul(ax, fx)), mul(ay, fy)), mul(az, fz));
      // The joint's world matrix P · T(t0)·R(q)·S(s0): its children read it.
      const x2 = add(qx, qx), y2 = add(qy, qy), z2 = add(qz, qz);
      const xx = mul(qx, x2), xy = mul(qx, y2), xz = mul(qx, z2), yy = mul(qy, y2), yz = mul(qy, z2), zz = mul(qz, z2);
      const wx2 = mul(qw, x2), wy2 = mul(qw, y2), wz2 = mul(qw, z2);
      const sx = fld(rec, F_S0), sy = fld(rec, F_S0 + 1), sz = fld(rec, F_S0 + 2);
      const m0 = mul(sub(one, add(yy, zz)), sx), m1 = mul(add(xy, wz2), sx), m2 = mul(sub(xz, wy2), sx);
      const m3 = mul(sub(xy, wz2), sy), m4 = mul(sub(one, add(xx, zz)), sy), m5 = mul(add(yz, wx2), sy);
      const m6 = mul(add(xz, wy2), sz), m7 = mul(sub(yz, wx2), sz), m8 = mul(sub(one, add(xx, yy)), sz);
      const w0 = dot3(p0, p3, p6, m0, m1, m2), w1 = dot3(p1, p4, p7, m0, m1, m2), w2 = dot3(p2, p5, p8, m0, m1, m2);
      const w3 = dot3(p0, p3, p6, m3, m4, m5), w4 = dot3(p1, p4, p7, m3, m4, m5), w5 = dot3(p2, p5, p8, m3, m4, m5);
      const w6 = dot3(p0, p3, p6, m6, m7, m8), w7 = dot3(p1, p4, p7, m6, m7, m8), w8 = dot3(p2, p5, p8, m6, m7, m8);
      v128.store(scratch, w0); v128.store(scratch, w1, 16); v128.store(scratch, w2, 32);
      v128.store(scratch, w3, 48); v128.store(scratch, w4, 64); v128.store(scratch, w5, 80);
      v128.store(scratch, w6, 96); v128.store(scratch, w7, 112); v128.store(scratch, w8, 128);
      v128.store(scratch, px, 144); v128.store(scratch, py, 160); v128.store(scratch, pz, 176);
      if (storeChildren) {
        // The tail joint's world position now, for the next apply's bone lengths.
        const ox = fld(rec, F_OFF), oy = fld(rec, F_OFF + 1), oz = fld(rec, F_OFF + 2);
        v128.store(st, add(dot3(w0, w3, w6, ox, oy, oz), px), 144);
        v128.store(st, add(dot3(w1, w4, w7, ox, oy, oz), py), 160);
        v128.store(st, add(dot3(w2, w5, w8, ox, oy, oz), pz), 176);
      }
      for (let lane = 0; lane < 2; lane++) {
        if (load<i32>(rec + (<usize>lane << 2), 40) == 0) continue;
        const o = mats + <usize>load<i32>(rec + (<usize>lane << 4), 8) * 96, src = scratch + (<usize>lane << 3);
        for (let e = 0; e < 12; e++) store<f64>(o + (<usize>e << 3), load<f64>(src + (<usize>e << 4)));
        const q = R + (<usize>load<i32>(rec + (<usize>lane << 4), 12) << 4);
        store<f32>(q, <f32>(lane == 0 ? f64x2.extract_lane(qx, 0) : f64x2.extract_lane(qx, 1)));
        store<f32>(q, <f32>(lane == 0 ? f64x2.extract_lane(qy, 0) : f64x2.extract_lane(qy, 1)), 4);
        store<f32>(q, <f32>(lane == 0 ? f64x2.extract_lane(qz, 0) : f64x2.extract_lane(qz, 1)), 8);
        store<f32>(q, <f32>(lane == 0 ? f64x2.extract_lane(qw, 0) : f64x2.extract_lane(qw, 1)), 12);
      }
      if (mode == 2) {
        // The positions, for the next step's teleport check.
        v128.store(st, px, 96); v128.store(st, py, 112); v128.store(st, pz, 128);
      }
    }
  }
}

/** Row `row` of the lane-interleaved 3×4 at m applied to the point (x, y, z); the point's own when not `centered` (identity). */
@inline function toSpace(centered: bool, m: usize, x: v128, y: v128, z: v128, row: i32): v128 {
  if (!centered) return row == 0 ? x : row == 1 ? y : z;
  const r = <usize>row << 4;
  return add(dot3(v128.load(m + r), v128.load(m + r, 48), v128.load(m + r, 96), x, y, z), v128.load(m + r, 144));
}

/**
 * The largest squared distance any chain's first joint moved since it was last recorded (its position from
 * its parent's current world matrix; matrices as `prepare` left them), recording the new positions: a teleport
 * when it exceeds the threshold². Written to `out` (f64). Only the first record of each group is read.
 */
export function rootTravel(mats: usize, groups: usize, groupCount: i32, state: usize, scratch: usize, out: usize): void {
  let most = 0.0;
  for (let g = 0; g < groupCount; g++) {
    const rec = <usize>load<i32>(groups + (<usize>g << 4), 4);
    const st = state + <usize>(load<i32>(rec, 48) & INDEX) * STATE;
    gatherParent(mats, rec, scratch);
    const p0 = v128.load(scratch), p1 = v128.load(scratch, 16), p2 = v128.load(scratch, 32);
    const p3 = v128.load(scratch, 48), p4 = v128.load(scratch, 64), p5 = v128.load(scratch, 80);
    const p6 = v128.load(scratch, 96), p7 = v128.load(scratch, 112), p8 = v128.load(scratch, 128);
    const tx = fld(rec, F_L0 + 9), ty = fld(rec, F_L0 + 10), tz = fld(rec, F_L0 + 11);
    const px = add(dot3(p0, p3, p6, tx, ty, tz), v128.load(scratch, 144));
    const py = add(dot3(p1, p4, p7, tx, ty, tz), v128.load(scratch, 160));
    const pz = add(dot3(p2, p5, p8, tx, ty, tz), v128.load(scratch, 176));
    const dx = sub(px, v128.load(st, 96)), dy = sub(py, v128.load(st, 112)), dz = sub(pz, v128.load(st, 128));
    const d2 = v128.and(dot3(dx, dy, dz, dx, dy, dz), fld(rec, F_ACTIVE));
    most = Math.max(most, Math.max(f64x2.extract_lane(d2, 0), f64x2.extract_lane(d2, 1)));
    v128.store(st, px, 96); v128.store(st, py, 112); v128.store(st, pz, 128);
  }
  store<f64>(out, most);
}
