import type { SpringColliderAsset } from '../asset/secondary-motion-asset.ts';

/** Segments per full circle of a collider's outline. */
export const COLLIDER_CIRCLE_SEGMENTS = 24;
const N = COLLIDER_CIRCLE_SEGMENTS, HALF = N / 2;

/** RGBA in [0, 1] of a sphere's or capsule's lines (pushes joints out). */
export const COLLIDER_OUTSIDE_COLOR: readonly [number, number, number, number] = [0.2, 0.9, 1, 0.95];
/** RGBA of an inside sphere's or capsule's lines (VRMC_springBone_extended_collider: keeps joints in). */
export const COLLIDER_INSIDE_COLOR: readonly [number, number, number, number] = [1, 0.45, 0.1, 0.95];
/** RGBA of a plane's square and normal tick (VRMC_springBone_extended_collider). */
export const COLLIDER_PLANE_COLOR: readonly [number, number, number, number] = [0.55, 1, 0.25, 0.95];

/** Line vertices (pairs) one collider's outline takes: see {@link ColliderLines}. */
export function colliderVertexCount(collider: SpringColliderAsset): number {
  switch (collider.shape.kind) {
    case 'sphere': return 3 * 2 * N;
    case 'capsule': return 2 * 2 * N + 4 * 2 * HALF + 4 * 2;
    case 'plane': return 4 * 2 + 2;
  }
}

const COS = Float64Array.from({ length: N + 1 }, (_, i) => Math.cos((2 * Math.PI * i) / N));
const SIN = Float64Array.from({ length: N + 1 }, (_, i) => Math.sin((2 * Math.PI * i) / N));

/**
 * The outlines of a model's spring-bone colliders as line pairs (what the "show colliders" view draws), placed
 * where the simulation places the shapes (`collideTail`, three-vrm 3.5.5's collider shapes): a shape's origin is
 * its node's matrix applied to `offset`; a capsule's other end adds the node's 3×3 applied to `tail − offset`; a
 * plane's normal goes through the node's normal matrix; radii are not scaled by the node's scale (three-vrm reads
 * them as they are). Per shape:
 * - sphere: three great circles, in the planes of the node's axes (so they turn with the node);
 * - capsule: a circle about the axis at each end, the two hemispheres' half circles in two planes through the
 *   axis, and four lines along the sides (a zero-length capsule is drawn as its sphere's circles);
 * - plane: a square of half side {@link planeHalfSize} about the origin and a tick along the normal of the same length.
 * Inside shapes ({@link COLLIDER_INSIDE_COLOR}) differ in colour from outside ones and planes.
 *
 * Built once per model (the colours and counts); {@link update} rewrites the positions in place each frame and
 * allocates nothing.
 */
export class ColliderLines {
  /** `Float32Array(3·vertexCount)`: xyz of each line end, display space relative to the model origin. */
  readonly positions: Float32Array;
  /** `Float32Array(4·vertexCount)`: RGBA of each vertex, fixed at construction. */
  readonly colors: Float32Array;
  /** Line vertices (twice the line count). */
  readonly vertexCount: number;
  /** Half the side of a plane's square, and the normal tick's length, in model units (metres for VRM). */
  readonly planeHalfSize: number;
  private v = 0;
  private readonly p = new Float64Array(3);
  private readonly a = new Float64Array(3);
  private readonly b = new Float64Array(3);
  private readonly u = new Float64Array(3);
  private readonly w = new Float64Array(3);
  private readonly n = new Float64Array(3);
  private display: ArrayLike<number> = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

  /**
   * @param colliders the model's colliders (`ModelAsset.secondaryMotion.springBone.colliders`)
   * @param planeHalfSize half the side of a plane's square, model units (default 0.25)
   * @throws RangeError when planeHalfSize is not a finite number > 0
   */
  constructor(readonly colliders: readonly SpringColliderAsset[], planeHalfSize = 0.25) {
    if (!(planeHalfSize > 0 && Number.isFinite(planeHalfSize))) throw new RangeError(`ColliderLines: planeHalfSize ${planeHalfSize} is not a finite number > 0`);
    this.planeHalfSize = planeHalfSize;
    let count = 0;
    for (const c of colliders) count += colliderVertexCount(c);
    this.vertexCount = count;
    this.positions = new Float32Array(3 * count);
    this.colors = new Float32Array(4 * count);
    let v = 0;
    for (const c of colliders) {
      const shape = c.shape;
      const color = shape.kind === 'plane' ? COLLIDER_PLANE_COLOR : shape.inside ? COLLIDER_INSIDE_COLOR : COLLIDER_OUTSIDE_COLOR;
      for (let k = colliderVertexCount(c); k > 0; k--) this.colors.set(color, 4 * v++);
    }
  }

  /**
   * Places every outline for the pose of `modelMatrices` and writes {@link positions}.
   * @param modelMatrices `Float32Array(16·jointCount)`, column-major: each joint's model-space matrix relative to the
   *   model origin (`AnimatedModel.modelMatrices`)
   * @param displayMatrix 16 numbers, column-major: model space → display space (`ViewFrame.displayMatrix`)
   * @returns {@link vertexCount}
   */
  update(modelMatrices: Float32Array, displayMatrix: ArrayLike<number>): number {
    this.display = displayMatrix;
    this.v = 0;
    const m = modelMatrices, p = this.p, a = this.a, b = this.b, u = this.u, w = this.w, n = this.n;
    for (let c = 0; c < this.colliders.length; c++) {
      const collider = this.colliders[c], shape = collider.shape, o = 16 * collider.node;
      const ox = shape.offset[0], oy = shape.offset[1], oz = shape.offset[2];
      p[0] = m[o] * ox + m[o + 4] * oy + m[o + 8] * oz + m[o + 12];
      p[1] = m[o + 1] * ox + m[o + 5] * oy + m[o + 9] * oz + m[o + 13];
      p[2] = m[o + 2] * ox + m[o + 6] * oy + m[o + 10] * oz + m[o + 14];
      if (shape.kind === 'sphere') {
        this.sphere(m, o, p, shape.radius);
      } else if (shape.kind === 'capsule') {
        const tx = shape.tail[0] - ox, ty = shape.tail[1] - oy, tz = shape.tail[2] - oz;
        w[0] = m[o] * tx + m[o + 4] * ty + m[o + 8] * tz;
        w[1] = m[o + 1] * tx + m[o + 5] * ty + m[o + 9] * tz;
        w[2] = m[o + 2] * tx + m[o + 6] * ty + m[o + 10] * tz;
        b[0] = p[0] + w[0]; b[1] = p[1] + w[1]; b[2] = p[2] + w[2];
        const length = Math.hypot(w[0], w[1], w[2]);
        if (!(length > 1e-12)) {
          // Its sphere, and the capsule's remaining vertices as degenerate lines at the centre.
          const end = this.v + colliderVertexCount(collider);
          this.sphere(m, o, p, shape.radius);
          while (this.v < end) this.put(p[0], p[1], p[2]);
          continue;
        }
        w[0] /= length; w[1] /= length; w[2] /= length;
        // u ⟂ w from the node's x axis (else its y axis), then n = w × u: the axis's own frame.
        this.perpendicular(u, w, m[o], m[o + 1], m[o + 2], m[o + 4], m[o + 5], m[o + 6]);
        n[0] = w[1] * u[2] - w[2] * u[1]; n[1] = w[2] * u[0] - w[0] * u[2]; n[2] = w[0] * u[1] - w[1] * u[0];
        const r = shape.radius;
        this.arc(p, u, n, r, N); this.arc(b, u, n, r, N);
        // Hemispheres: half circles from +side through the far pole (−w at the offset end, +w at the tail end).
        this.halfArc(p, u, w, r, -1); this.halfArc(p, n, w, r, -1);
        this.halfArc(b, u, w, r, 1); this.halfArc(b, n, w, r, 1);
        this.side(p, b, u, r); this.side(p, b, u, -r); this.side(p, b, n, r); this.side(p, b, n, -r);
      } else {
        this.planeNormal(n, m, o, shape.normal);
        this.perpendicular(u, n, m[o], m[o + 1], m[o + 2], m[o + 4], m[o + 5], m[o + 6]);
        w[0] = n[1] * u[2] - n[2] * u[1]; w[1] = n[2] * u[0] - n[0] * u[2]; w[2] = n[0] * u[1] - n[1] * u[0];
        const h = this.planeHalfSize;
        for (let i = 0; i < 4; i++) { this.corner(p, u, w, h, i); this.corner(p, u, w, h, (i + 1) % 4); }
        this.put(p[0], p[1], p[2]);
        this.put(p[0] + h * n[0], p[1] + h * n[1], p[2] + h * n[2]);
      }
    }
    return this.v;
  }

  /** Three great circles of radius r about `p`, in the planes of the node's normalised axes. */
  private sphere(m: Float32Array, o: number, p: Float64Array, r: number): void {
    const u = this.u, w = this.w, n = this.n;
    this.perpendicular(u, NO_AXIS, m[o], m[o + 1], m[o + 2], m[o + 4], m[o + 5], m[o + 6]);
    this.perpendicular(w, u, m[o + 4], m[o + 5], m[o + 6], m[o + 8], m[o + 9], m[o + 10]);
    n[0] = u[1] * w[2] - u[2] * w[1]; n[1] = u[2] * w[0] - u[0] * w[2]; n[2] = u[0] * w[1] - u[1] * w[0];
    this.arc(p, u, w, r, N); this.arc(p, w, n, r, N); this.arc(p, n, u, r, N);
  }

  /** `out` = the unit part of (x) perpendicular to unit `axis`, or of (y) when x is (nearly) along it, or any. */
  private perpendicular(out: Float64Array, axis: Float64Array, x0: number, x1: number, x2: number, y0: number, y1: number, y2: number): void {
    for (let attempt = 0; attempt < 3; attempt++) {
      let a = attempt === 0 ? x0 : attempt === 1 ? y0 : 1, b = attempt === 0 ? x1 : attempt === 1 ? y1 : 0, c = attempt === 0 ? x2 : attempt === 1 ? y2 : 0;
      if (attempt === 2 && Math.abs(axis[0]) > 0.9) { a = 0; b = 1; }
      const d = a * axis[0] + b * axis[1] + c * axis[2];
      a -= d * axis[0]; b -= d * axis[1]; c -= d * axis[2];
      const l = Math.hypot(a, b, c);
      if (l > 1e-6) { out[0] = a / l; out[1] = b / l; out[2] = c / l; return; }
    }
    out[0] = 1; out[1] = 0; out[2] = 0;
  }

  /** The plane's unit normal: the node's normal matrix (inverse transpose of its 3×3) applied to `normal`. */
  private planeNormal(out: Float64Array, m: Float32Array, o: number, normal: readonly number[]): void {
    const a00 = m[o], a01 = m[o + 1], a02 = m[o + 2], a10 = m[o + 4], a11 = m[o + 5], a12 = m[o + 6], a20 = m[o + 8], a21 = m[o + 9], a22 = m[o + 10];
    const c00 = a11 * a22 - a12 * a21, c01 = a12 * a20 - a10 * a22, c02 = a10 * a21 - a11 * a20;
    const c10 = a21 * a02 - a22 * a01, c11 = a22 * a00 - a20 * a02, c12 = a20 * a01 - a21 * a00;
    const c20 = a01 * a12 - a02 * a11, c21 = a02 * a10 - a00 * a12, c22 = a00 * a11 - a01 * a10;
    const det = a00 * c00 + a01 * c01 + a02 * c02;
    const nx = normal[0], ny = normal[1], nz = normal[2];
    const x = c00 * nx + c10 * ny + c20 * nz, y = c01 * nx + c11 * ny + c21 * nz, z = c02 * nx + c12 * ny + c22 * nz;
    const l = Math.hypot(x, y, z), s = (det < 0 ? -1 : 1) / (l > 0 ? l : 1);
    out[0] = l > 0 ? x * s : 0; out[1] = l > 0 ? y * s : 1; out[2] = l > 0 ? z * s : 0;
  }

  /** `segments` segments of the circle c + r(cos θ·e1 + sin θ·e2), θ from 0 by 2π/N. */
  private arc(c: Float64Array, e1: Float64Array, e2: Float64Array, r: number, segments: number): void {
    for (let i = 0; i < 2 * segments; i++) {
      const k = (i + 1) >> 1, x = r * COS[k], y = r * SIN[k];
      this.put(c[0] + x * e1[0] + y * e2[0], c[1] + x * e1[1] + y * e2[1], c[2] + x * e1[2] + y * e2[2]);
    }
  }

  /** The half circle from c + r·e to c − r·e through c + sign·r·axis. */
  private halfArc(c: Float64Array, e: Float64Array, axis: Float64Array, r: number, sign: number): void {
    for (let i = 0; i < 2 * HALF; i++) {
      const k = (i + 1) >> 1, x = r * COS[k], y = sign * r * SIN[k];
      this.put(c[0] + x * e[0] + y * axis[0], c[1] + x * e[1] + y * axis[1], c[2] + x * e[2] + y * axis[2]);
    }
  }

  /** A side line of a capsule: a + s·e → b + s·e. */
  private side(a: Float64Array, b: Float64Array, e: Float64Array, s: number): void {
    this.put(a[0] + s * e[0], a[1] + s * e[1], a[2] + s * e[2]);
    this.put(b[0] + s * e[0], b[1] + s * e[1], b[2] + s * e[2]);
  }

  /** Corner i (0…3, around) of the square p ± h·u ± h·w. */
  private corner(p: Float64Array, u: Float64Array, w: Float64Array, h: number, i: number): void {
    const su = i === 0 || i === 3 ? -h : h, sw = i < 2 ? -h : h;
    this.put(p[0] + su * u[0] + sw * w[0], p[1] + su * u[1] + sw * w[1], p[2] + su * u[2] + sw * w[2]);
  }

  /** Writes model-space point (x, y, z) through the display matrix as the next vertex. */
  private put(x: number, y: number, z: number): void {
    const d = this.display, out = this.positions, i = 3 * this.v++;
    out[i] = d[0] * x + d[4] * y + d[8] * z + d[12];
    out[i + 1] = d[1] * x + d[5] * y + d[9] * z + d[13];
    out[i + 2] = d[2] * x + d[6] * y + d[10] * z + d[14];
  }
}

/** An "axis" that nothing is along: {@link ColliderLines.perpendicular} then only normalises. */
const NO_AXIS = new Float64Array(3);
