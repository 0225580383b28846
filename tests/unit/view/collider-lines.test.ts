import { describe, expect, it } from 'vitest';
import type { SpringColliderAsset } from '../../../src/asset/secondary-motion-asset.ts';
import {
  COLLIDER_INSIDE_COLOR, COLLIDER_OUTSIDE_COLOR, COLLIDER_PLANE_COLOR, ColliderLines, colliderVertexCount,
} from '../../../src/view/collider-lines.ts';

// Outlines placed as the simulation places the shapes: node matrix · offset, the node's 3×3 · (tail − offset),
// the normal through the normal matrix, radii unscaled. Expected points computed here by hand from the matrices.

/** Joint 0 at identity, joint 1 turned 90° about Z, moved to (1, 2, 3) and scaled by 2. */
function matrices(): Float32Array {
  const m = new Float32Array(32);
  m.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 0);
  m.set([0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1], 16);
  return m;
}
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function points(lines: ColliderLines, from: number, count: number): number[][] {
  const out: number[][] = [];
  for (let v = from; v < from + count; v++) out.push([...lines.positions.subarray(3 * v, 3 * v + 3)]);
  return out;
}
const distance = (a: number[], b: number[]): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('ColliderLines', () => {
  const sphere: SpringColliderAsset = { node: 1, shape: { kind: 'sphere', offset: [0.5, 0, 0], radius: 0.1, inside: false } };
  const capsule: SpringColliderAsset = { node: 1, shape: { kind: 'capsule', offset: [0, 0, 0], tail: [0, 0, 1], radius: 0.2, inside: true } };
  const plane: SpringColliderAsset = { node: 1, shape: { kind: 'plane', offset: [0, 0, 0], normal: [1, 0, 0] } };

  it('draws a sphere as three great circles of its radius about node · offset', () => {
    const lines = new ColliderLines([sphere]);
    expect(lines.update(matrices(), IDENTITY)).toBe(colliderVertexCount(sphere));
    // (0.5, 0, 0) through R(90° about Z)·2 + (1, 2, 3) = (1, 3, 3).
    const centre = [1, 3, 3];
    const ps = points(lines, 0, lines.vertexCount);
    for (const p of ps) expect(distance(p, centre)).toBeCloseTo(0.1, 6);
    // Three planes: each circle spans two of the axes (its points' extent along each axis is 0 or 2r).
    for (let c = 0; c < 3; c++) {
      const circle = ps.slice(c * 48, c * 48 + 48);
      const spans = [0, 1, 2].map((k) => Math.max(...circle.map((p) => p[k])) - Math.min(...circle.map((p) => p[k])));
      expect(spans.filter((s) => s < 1e-6)).toHaveLength(1);
    }
    expect([...lines.colors.subarray(0, 4)]).toEqual([...Float32Array.from(COLLIDER_OUTSIDE_COLOR)]);
  });

  it('draws a capsule: every vertex at its radius from the segment node · offset → + 3×3 · (tail − offset), both ends reached', () => {
    const lines = new ColliderLines([capsule]);
    lines.update(matrices(), IDENTITY);
    const a = [1, 2, 3], b = [1, 2, 5]; // tail (0, 0, 1) scaled by 2 along Z
    let nearA = 0, nearB = 0;
    for (const p of points(lines, 0, lines.vertexCount)) {
      const t = Math.min(1, Math.max(0, (p[2] - a[2]) / (b[2] - a[2])));
      const q = [a[0], a[1], a[2] + t * (b[2] - a[2])];
      expect(distance(p, q)).toBeCloseTo(0.2, 6);
      if (p[2] < a[2] - 0.19) nearA++;
      if (p[2] > b[2] + 0.19) nearB++;
    }
    // The hemispheres reach the poles beyond each end.
    expect(nearA).toBeGreaterThan(0);
    expect(nearB).toBeGreaterThan(0);
    expect([...lines.colors.subarray(0, 4)]).toEqual([...Float32Array.from(COLLIDER_INSIDE_COLOR)]);
  });

  it('draws a plane as a square perpendicular to the normal (through the normal matrix) and a tick along it', () => {
    const lines = new ColliderLines([plane], 0.5);
    lines.update(matrices(), IDENTITY);
    const ps = points(lines, 0, lines.vertexCount);
    const p = [1, 2, 3], n = [0, 1, 0]; // +X turned 90° about Z
    for (const q of ps.slice(0, 8)) {
      expect((q[0] - p[0]) * n[0] + (q[1] - p[1]) * n[1] + (q[2] - p[2]) * n[2]).toBeCloseTo(0, 6);
      expect(distance(q, p)).toBeCloseTo(0.5 * Math.SQRT2, 6);
    }
    expect(ps[8]).toEqual(p);
    expect(distance(ps[9], [1, 2.5, 3])).toBeLessThan(1e-6);
    expect([...lines.colors.subarray(0, 4)]).toEqual([...Float32Array.from(COLLIDER_PLANE_COLOR)]);
  });

  it('applies the display matrix after placing, and writes every vertex of several colliders', () => {
    const lines = new ColliderLines([sphere, capsule, plane]);
    const display = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 0, 0, 1];
    const count = lines.update(matrices(), display);
    expect(count).toBe(colliderVertexCount(sphere) + colliderVertexCount(capsule) + colliderVertexCount(plane));
    for (const q of points(lines, 0, colliderVertexCount(sphere))) expect(distance(q, [12, 6, 6])).toBeCloseTo(0.2, 5);
    expect(lines.positions.every(Number.isFinite)).toBe(true);
  });

  it('draws a zero-length capsule as its sphere', () => {
    const point: SpringColliderAsset = { node: 0, shape: { kind: 'capsule', offset: [0, 1, 0], tail: [0, 1, 0], radius: 0.3, inside: false } };
    const lines = new ColliderLines([point]);
    lines.update(matrices(), IDENTITY);
    for (const q of points(lines, 0, lines.vertexCount)) expect(distance(q, [0, 1, 0])).toBeLessThanOrEqual(0.3 + 1e-6);
    expect(lines.positions.every(Number.isFinite)).toBe(true);
  });

  it('rejects a plane size that is not a finite number > 0', () => {
    expect(() => new ColliderLines([plane], 0)).toThrow(RangeError);
    expect(() => new ColliderLines([plane], NaN)).toThrow(/planeHalfSize/);
  });
});
