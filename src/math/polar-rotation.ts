/**
 * The rotation factor of the polar decomposition `A = R·S` of a 3×3 matrix (R a rotation, S symmetric), as a
 * unit quaternion. Higham's iteration `X ← (X + X⁻ᵀ)/2` from `X = A` (N. J. Higham, "Computing the polar
 * decomposition — with applications", SIAM J. Sci. Stat. Comput. 7(4), 1986): quadratic convergence, and one
 * step for a matrix that is already a rotation times a uniform scale. A mirroring A (det < 0) is decomposed
 * as `−A = R·P`, so R stays a proper rotation and S = −P carries the mirror. A singular A (no inverse to
 * iterate with) gives the identity. The quaternion is taken by Shepperd's method (the largest of w, x, y, z
 * first), with w ≥ 0. Scalar locals only: allocates nothing.
 *
 * @param a column-major 3×3 within a column-major 4×4: `a[o + 4c + r]` is row r, column c
 * @param out receives (x, y, z, w) at `out[oo…oo+4)`
 */
export function polarRotation(a: ArrayLike<number>, o: number, out: Float32Array | Float64Array, oo: number): void {
  let x0 = a[o], x1 = a[o + 1], x2 = a[o + 2];
  let x3 = a[o + 4], x4 = a[o + 5], x5 = a[o + 6];
  let x6 = a[o + 8], x7 = a[o + 9], x8 = a[o + 10];
  // Columns c0 = (x0 x1 x2), c1 = (x3 x4 x5), c2 = (x6 x7 x8).
  let det = x0 * (x4 * x8 - x5 * x7) - x3 * (x1 * x8 - x2 * x7) + x6 * (x1 * x5 - x2 * x4);
  const scale = Math.abs(x0) + Math.abs(x1) + Math.abs(x2) + Math.abs(x3) + Math.abs(x4) + Math.abs(x5) + Math.abs(x6) + Math.abs(x7) + Math.abs(x8);
  if (!(Math.abs(det) > 1e-12 * scale * scale * scale)) {
    out[oo] = 0; out[oo + 1] = 0; out[oo + 2] = 0; out[oo + 3] = 1;
    return;
  }
  if (det < 0) {
    x0 = -x0; x1 = -x1; x2 = -x2; x3 = -x3; x4 = -x4; x5 = -x5; x6 = -x6; x7 = -x7; x8 = -x8;
    det = -det;
  }
  for (let k = 0; k < 40; k++) {
    // X⁻ᵀ = cof(X) / det X; cof's columns are c1×c2, c2×c0, c0×c1.
    const inv = 1 / det;
    const y0 = 0.5 * (x0 + (x4 * x8 - x5 * x7) * inv), y1 = 0.5 * (x1 + (x5 * x6 - x3 * x8) * inv), y2 = 0.5 * (x2 + (x3 * x7 - x4 * x6) * inv);
    const y3 = 0.5 * (x3 + (x7 * x2 - x8 * x1) * inv), y4 = 0.5 * (x4 + (x8 * x0 - x6 * x2) * inv), y5 = 0.5 * (x5 + (x6 * x1 - x7 * x0) * inv);
    const y6 = 0.5 * (x6 + (x1 * x5 - x2 * x4) * inv), y7 = 0.5 * (x7 + (x2 * x3 - x0 * x5) * inv), y8 = 0.5 * (x8 + (x0 * x4 - x1 * x3) * inv);
    const change = Math.abs(y0 - x0) + Math.abs(y1 - x1) + Math.abs(y2 - x2) + Math.abs(y3 - x3) + Math.abs(y4 - x4)
      + Math.abs(y5 - x5) + Math.abs(y6 - x6) + Math.abs(y7 - x7) + Math.abs(y8 - x8);
    x0 = y0; x1 = y1; x2 = y2; x3 = y3; x4 = y4; x5 = y5; x6 = y6; x7 = y7; x8 = y8;
    if (change < 1e-14) break;
    det = x0 * (x4 * x8 - x5 * x7) - x3 * (x1 * x8 - x2 * x7) + x6 * (x1 * x5 - x2 * x4);
  }
  // Shepperd: R = [c0 c1 c2], R[r][c]: m00 = x0, m10 = x1, m20 = x2, m01 = x3, m11 = x4, m21 = x5, m02 = x6, m12 = x7, m22 = x8.
  const trace = x0 + x4 + x8;
  let qx: number, qy: number, qz: number, qw: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    qw = 0.25 / s; qx = (x5 - x7) * s; qy = (x6 - x2) * s; qz = (x1 - x3) * s;
  } else if (x0 > x4 && x0 > x8) {
    const s = 2 * Math.sqrt(1 + x0 - x4 - x8);
    qw = (x5 - x7) / s; qx = 0.25 * s; qy = (x3 + x1) / s; qz = (x6 + x2) / s;
  } else if (x4 > x8) {
    const s = 2 * Math.sqrt(1 + x4 - x0 - x8);
    qw = (x6 - x2) / s; qx = (x3 + x1) / s; qy = 0.25 * s; qz = (x7 + x5) / s;
  } else {
    const s = 2 * Math.sqrt(1 + x8 - x0 - x4);
    qw = (x1 - x3) / s; qx = (x6 + x2) / s; qy = (x7 + x5) / s; qz = 0.25 * s;
  }
  const n = (qw < 0 ? -1 : 1) / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  out[oo] = qx * n; out[oo + 1] = qy * n; out[oo + 2] = qz * n; out[oo + 3] = qw * n;
}
