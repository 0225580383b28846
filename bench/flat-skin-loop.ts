/**
 * The JavaScript limit for `skinVertices`: the same arithmetic (docs/explanation/skinning-formulas.md S0 accumulate-then-apply LBS, divide
 * by the weight sum, cofactor normals) written as one flat loop over monomorphic typed arrays passed in
 * directly, with nothing else around it. `skin.ratio_to_flat_loop` = this loop's time / skinVertices's time.
 */
export function flatSkinLoop(
  outPositions: Float32Array, outNormals: Float32Array,
  positions: Float32Array, normals: Float32Array, joints: Uint8Array, weights: Float32Array,
  palette: Float32Array, vertexCount: number,
): void {
  for (let v = 0; v < vertexCount; v++) {
    const i4 = 4 * v, i3 = 3 * v;
    let m0 = 0, m1 = 0, m2 = 0, m4 = 0, m5 = 0, m6 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0, sum = 0;
    for (let k = 0; k < 4; k++) {
      const w = weights[i4 + k];
      if (w === 0) continue;
      const o = joints[i4 + k] << 4;
      sum += w;
      m0 += w * palette[o]; m1 += w * palette[o + 1]; m2 += w * palette[o + 2];
      m4 += w * palette[o + 4]; m5 += w * palette[o + 5]; m6 += w * palette[o + 6];
      m8 += w * palette[o + 8]; m9 += w * palette[o + 9]; m10 += w * palette[o + 10];
      m12 += w * palette[o + 12]; m13 += w * palette[o + 13]; m14 += w * palette[o + 14];
    }
    const x = positions[i3], y = positions[i3 + 1], z = positions[i3 + 2];
    if (sum === 0) {
      outPositions[i3] = x; outPositions[i3 + 1] = y; outPositions[i3 + 2] = z;
      outNormals[i3] = normals[i3]; outNormals[i3 + 1] = normals[i3 + 1]; outNormals[i3 + 2] = normals[i3 + 2];
      continue;
    }
    const inv = 1 / sum;
    outPositions[i3] = (m0 * x + m4 * y + m8 * z + m12) * inv;
    outPositions[i3 + 1] = (m1 * x + m5 * y + m9 * z + m13) * inv;
    outPositions[i3 + 2] = (m2 * x + m6 * y + m10 * z + m14) * inv;
    const ax = m5 * m10 - m6 * m9, ay = m6 * m8 - m4 * m10, az = m4 * m9 - m5 * m8;
    const bx = m9 * m2 - m10 * m1, by = m10 * m0 - m8 * m2, bz = m8 * m1 - m9 * m0;
    const cx = m1 * m6 - m2 * m5, cy = m2 * m4 - m0 * m6, cz = m0 * m5 - m1 * m4;
    const det = m0 * ax + m1 * ay + m2 * az;
    const nx0 = normals[i3], ny0 = normals[i3 + 1], nz0 = normals[i3 + 2];
    const nx = nx0 * ax + ny0 * bx + nz0 * cx;
    const ny = nx0 * ay + ny0 * by + nz0 * cy;
    const nz = nx0 * az + ny0 * bz + nz0 * cz;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const scale = len > 0 ? (det < 0 ? -1 : 1) / len : 0;
    outNormals[i3] = nx * scale; outNormals[i3 + 1] = ny * scale; outNormals[i3 + 2] = nz * scale;
  }
}
