// AssemblyScript source of the pose kernel: the WebAssembly SIMD back end of `localToModel` and
// `computeSkinMatrices` (src/skeleton/local-to-model.ts, src/skinning/skin-matrices.ts hold the formulas and
// the portable back end). Compiled by `npm run build:wasm` into pose-kernel-binary.ts; a unit test keeps the
// two in step. Not type-checked by tsc (AssemblyScript types); `asc` checks it.
//
// Layout (byte offsets into the instance's own memory, chosen by PoseKernel, each 16-byte aligned):
// translations f32[3n], rotations f32[4n] (x y z w), scales f32[3n] — LocalPose's SoA; parents i32[n];
// model matrices f32[16n] column-major; per skin: joints i32[m], inverse binds f32[16m] column-major with
// bottom row 0 0 0 1, skin matrices f32[16m] column-major.
//
// Every matrix is affine (bottom row 0 0 0 1), so a column j of a product A·L is Σ_k A.col_k · L[k][j] over
// the three upper rows, plus A.col_3 for the translation column: four f32x4 lanes per column, the fourth lane
// carrying the bottom row's 0 (columns 0–2) or 1 (translation) through unchanged.

@inline function splat(x: f32): v128 { return f32x4.splat(x); }

@inline function column(a0: v128, a1: v128, a2: v128, x: f32, y: f32, z: f32): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(a0, splat(x)), f32x4.mul(a1, splat(y))), f32x4.mul(a2, splat(z)));
}

// The fourth lane of a direction column is 0·x + 0·y + 0·z, which is −0 for negative factors: cleared to +0,
// so the bottom row reads 0 0 0 1 exactly as the portable back end writes it.
@inline function direction(a0: v128, a1: v128, a2: v128, x: f32, y: f32, z: f32): v128 {
  return v128.and(column(a0, a1, a2, x, y, z), i32x4(-1, -1, -1, 0));
}

/**
 * M[i] = M[parent[i]] · T·R·S(i), parents first; roots get T(−O)·T·R·S with O = (ox, oy, oz) subtracted from
 * the translation in f64 before rounding to f32 (as the portable back end does). With `list` ≠ 0, the n joints
 * listed there (i32, increasing) instead of joints 0…n−1; the others' matrices are read as they are.
 */
export function modelMatrices(n: i32, list: usize, T: usize, R: usize, S: usize, parents: usize, out: usize, ox: f64, oy: f64, oz: f64): void {
  for (let k = 0; k < n; k++) {
    const i = list ? load<i32>(list + (<usize>k << 2)) : k;
    const q = R + (<usize>i << 4), t = T + <usize>(i * 12), s = S + <usize>(i * 12);
    const x = load<f32>(q), y = load<f32>(q, 4), z = load<f32>(q, 8), w = load<f32>(q, 12);
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const sx = load<f32>(s), sy = load<f32>(s, 4), sz = load<f32>(s, 8);
    const l0 = (<f32>1 - (yy + zz)) * sx, l1 = (xy + wz) * sx, l2 = (xz - wy) * sx;
    const l4 = (xy - wz) * sy, l5 = (<f32>1 - (xx + zz)) * sy, l6 = (yz + wx) * sy;
    const l8 = (xz + wy) * sz, l9 = (yz - wx) * sz, l10 = (<f32>1 - (xx + yy)) * sz;
    const l12 = load<f32>(t), l13 = load<f32>(t, 4), l14 = load<f32>(t, 8);
    const p = load<i32>(parents + (<usize>i << 2));
    const o = out + (<usize>i << 6);
    if (p < 0) {
      v128.store(o, f32x4(l0, l1, l2, 0));
      v128.store(o, f32x4(l4, l5, l6, 0), 16);
      v128.store(o, f32x4(l8, l9, l10, 0), 32);
      v128.store(o, f32x4(<f32>(<f64>l12 - ox), <f32>(<f64>l13 - oy), <f32>(<f64>l14 - oz), 1), 48);
    } else {
      const a = out + (<usize>p << 6);
      const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
      v128.store(o, direction(a0, a1, a2, l0, l1, l2));
      v128.store(o, direction(a0, a1, a2, l4, l5, l6), 16);
      v128.store(o, direction(a0, a1, a2, l8, l9, l10), 32);
      v128.store(o, f32x4.add(column(a0, a1, a2, l12, l13, l14), a3), 48);
    }
  }
}

/** K[i] = M[joints[i]] · B[i] for the m joints of one skin. */
export function skinMatrices(m: i32, joints: usize, model: usize, inverseBinds: usize, out: usize): void {
  for (let i = 0; i < m; i++) {
    const a = model + (<usize>load<i32>(joints + (<usize>i << 2)) << 6);
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48);
    const b = inverseBinds + (<usize>i << 6), o = out + (<usize>i << 6);
    v128.store(o, direction(a0, a1, a2, load<f32>(b), load<f32>(b, 4), load<f32>(b, 8)));
    v128.store(o, direction(a0, a1, a2, load<f32>(b, 16), load<f32>(b, 20), load<f32>(b, 24)), 16);
    v128.store(o, direction(a0, a1, a2, load<f32>(b, 32), load<f32>(b, 36), load<f32>(b, 40)), 32);
    v128.store(o, f32x4.add(column(a0, a1, a2, load<f32>(b, 48), load<f32>(b, 52), load<f32>(b, 56)), a3), 48);
  }
}
