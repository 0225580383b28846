import type { PrimitiveAsset } from '../asset/model-asset.ts';

/**
 * One vertex of a parametric surface, filled in by a {@link SurfaceFunction}: a bind-pose position in
 * metres (model space) and up to 4 skin influences. The builder zeroes `joints` and `weights` before each
 * call; unused influence slots stay (0, 0).
 */
export interface SurfaceSample {
  /** `Float64Array(3)`: x, y, z in metres. */
  readonly position: Float64Array;
  /** `Uint16Array(4)`: skin joint indices. */
  readonly joints: Uint16Array;
  /** `Float64Array(4)`: weights of `joints`, summing to 1. */
  readonly weights: Float64Array;
}

/**
 * Evaluates a surface at a grid vertex: `u` ∈ [0, 1] goes around the surface (u = 0 and u = 1 are the
 * same seam); `row` ∈ 0…rows (an integer) runs from one end (usually a pole) to the other. The surface
 * faces outward when ∂P/∂row × ∂P/∂u points out of it.
 */
export type SurfaceFunction = (u: number, row: number, out: SurfaceSample) => void;

/**
 * Accumulates closed parametric surfaces ("parts") into one skinned triangle list (one
 * {@link PrimitiveAsset}). Each part is a (columns + 1) × (rows + 1) vertex grid: the seam column is
 * duplicated so UVs do not wrap, and pole rows may collapse to one point. Normals are area-weighted vertex
 * normals of the part, shared across the seam and over each pole, so seams and poles shade smoothly.
 */
export class SkinnedMeshBuilder {
  private readonly parts: SurfacePart[] = [];
  private count = 0;
  private readonly sample: SurfaceSample = {
    position: new Float64Array(3),
    joints: new Uint16Array(4),
    weights: new Float64Array(4),
  };

  /** Number of vertices added so far. */
  get vertexCount(): number {
    return this.count;
  }

  /**
   * Adds one closed surface sampled on a grid.
   * @param columns segments around (u), ≥ 3
   * @param rows segments along, ≥ 1; texture coordinate v = row / rows
   */
  addSurface(columns: number, rows: number, surface: SurfaceFunction): void {
    const vertexCount = (columns + 1) * (rows + 1);
    const positions = new Float32Array(3 * vertexCount);
    const uvs = new Float32Array(2 * vertexCount);
    const joints = new Uint16Array(4 * vertexCount);
    const weights = new Float32Array(4 * vertexCount);
    const s = this.sample;
    let k = 0;
    for (let r = 0; r <= rows; r++) {
      for (let c = 0; c <= columns; c++) {
        const u = c / columns;
        s.joints.fill(0);
        s.weights.fill(0);
        surface(u, r, s);
        positions[3 * k] = s.position[0];
        positions[3 * k + 1] = s.position[1];
        positions[3 * k + 2] = s.position[2];
        uvs[2 * k] = u;
        uvs[2 * k + 1] = r / rows;
        joints.set(s.joints, 4 * k);
        weights.set(s.weights, 4 * k);
        k++;
      }
    }
    const indices = new Uint32Array(6 * columns * rows);
    const stride = columns + 1;
    let t = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const a = r * stride + c, b = a + 1, d = a + stride, e = d + 1;
        // Winding (a, d, b), (b, d, e): counter-clockwise seen from ∂P/∂row × ∂P/∂u.
        indices[t++] = a; indices[t++] = d; indices[t++] = b;
        indices[t++] = b; indices[t++] = d; indices[t++] = e;
      }
    }
    const normals = smoothGridNormals(positions, indices, columns, rows);
    this.parts.push({ first: this.count, positions, normals, uvs, joints, weights, indices });
    this.count += vertexCount;
  }

  /**
   * The accumulated triangle list as a skinned primitive: Uint8 joints (skins here have < 256 joints),
   * Uint16 indices while vertexCount ≤ 65 536, else Uint32.
   * @param material index into `ModelAsset.materials`
   */
  build(material: number): PrimitiveAsset {
    const vertexCount = this.count;
    const positions = new Float32Array(3 * vertexCount);
    const normals = new Float32Array(3 * vertexCount);
    const uvs = new Float32Array(2 * vertexCount);
    const joints = new Uint8Array(4 * vertexCount);
    const weights = new Float32Array(4 * vertexCount);
    let indexCount = 0;
    for (const part of this.parts) indexCount += part.indices.length;
    const indices = vertexCount <= 65536 ? new Uint16Array(indexCount) : new Uint32Array(indexCount);
    let t = 0;
    for (const part of this.parts) {
      positions.set(part.positions, 3 * part.first);
      normals.set(part.normals, 3 * part.first);
      uvs.set(part.uvs, 2 * part.first);
      joints.set(part.joints, 4 * part.first);
      weights.set(part.weights, 4 * part.first);
      for (let i = 0; i < part.indices.length; i++) indices[t++] = part.first + part.indices[i];
    }
    return { vertexCount, positions, normals, uvs, joints, weights, indices, material };
  }
}

/** One added surface, with indices local to it (offset by `first` when built). */
interface SurfacePart {
  readonly first: number;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly uvs: Float32Array;
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  readonly indices: Uint32Array;
}

/**
 * Area-weighted vertex normals of a (columns + 1) × (rows + 1) grid in which vertices at one position
 * share one normal: the two seam columns (column 0 and column `columns` of each row), and every vertex of
 * a row collapsed to a point (a pole, where a single vertex may touch only degenerate triangles). Each
 * triangle's cross product is added to its vertices' group sums, then the sums are normalised.
 * @param positions `Float32Array(3n)`, metres
 * @param indices triangle list into `positions`
 * @returns `Float32Array(3n)` unit normals
 */
function smoothGridNormals(positions: Float32Array, indices: Uint32Array, columns: number, rows: number): Float32Array {
  const stride = columns + 1;
  const vertexCount = positions.length / 3;
  const groupOf = new Int32Array(vertexCount);
  for (let r = 0; r <= rows; r++) {
    const first = r * stride;
    let collapsed = true;
    for (let c = 1; c <= columns && collapsed; c++) {
      const v = 3 * (first + c);
      collapsed = Math.abs(positions[v] - positions[3 * first]) < 1e-7 &&
        Math.abs(positions[v + 1] - positions[3 * first + 1]) < 1e-7 &&
        Math.abs(positions[v + 2] - positions[3 * first + 2]) < 1e-7;
    }
    for (let c = 0; c <= columns; c++) groupOf[first + c] = collapsed || c === columns ? first : first + c;
  }
  const sums = new Float64Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const e1x = positions[b] - positions[a], e1y = positions[b + 1] - positions[a + 1], e1z = positions[b + 2] - positions[a + 2];
    const e2x = positions[c] - positions[a], e2y = positions[c + 1] - positions[a + 1], e2z = positions[c + 2] - positions[a + 2];
    const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    for (let i = 0; i < 3; i++) {
      const g = 3 * groupOf[indices[t + i]];
      sums[g] += nx; sums[g + 1] += ny; sums[g + 2] += nz;
    }
  }
  const normals = new Float32Array(positions.length);
  for (let v = 0; v < vertexCount; v++) {
    const g = 3 * groupOf[v];
    const len = Math.hypot(sums[g], sums[g + 1], sums[g + 2]);
    if (len > 0) {
      normals[3 * v] = sums[g] / len; normals[3 * v + 1] = sums[g + 1] / len; normals[3 * v + 2] = sums[g + 2] / len;
    } else {
      normals[3 * v + 1] = 1;
    }
  }
  return normals;
}
