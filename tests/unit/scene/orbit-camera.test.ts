import { describe, expect, it } from 'vitest';
import { vec4 } from 'gl-matrix';
import { OrbitCamera } from '../../../src/scene/orbit-camera.ts';

/** Clip-space position of a world point. */
function toClip(camera: OrbitCamera, p: [number, number, number]): vec4 {
  const out = vec4.fromValues(p[0], p[1], p[2], 1);
  vec4.transformMat4(out, out, camera.view);
  vec4.transformMat4(out, out, camera.projection);
  return out;
}

describe('OrbitCamera', () => {
  it('puts the eye on +Z at yaw 0, +X at yaw 90°, above at positive pitch', () => {
    const c = new OrbitCamera();
    c.target.set([1, 2, 3]);
    c.distance = 5;
    c.update(1);
    expect([...c.eye].map((v) => +v.toFixed(5))).toEqual([1, 2, 8]);
    c.yaw = Math.PI / 2;
    c.update(1);
    expect(c.eye[0]).toBeCloseTo(6, 5);
    expect(c.eye[2]).toBeCloseTo(3, 5);
    c.yaw = 0;
    c.pitch = Math.PI / 6;
    c.update(1);
    expect(c.eye[1]).toBeCloseTo(2 + 5 * Math.sin(Math.PI / 6), 5);
  });

  it('frames a box so every corner is inside the view and the depth range, at any yaw and pitch', () => {
    const c = new OrbitCamera();
    const bounds = { min: [-0.3, 0, -0.2] as const, max: [0.5, 1.8, 0.4] as const };
    for (const aspect of [0.5, 1, 2]) {
      c.frame(bounds, aspect);
      for (const yaw of [0, 1, 2.5, -2]) {
        for (const pitch of [-1.2, 0, 0.7]) {
          c.yaw = yaw;
          c.pitch = pitch;
          c.update(aspect);
          for (let k = 0; k < 8; k++) {
            const p: [number, number, number] = [
              k & 1 ? bounds.max[0] : bounds.min[0],
              k & 2 ? bounds.max[1] : bounds.min[1],
              k & 4 ? bounds.max[2] : bounds.min[2],
            ];
            const clip = toClip(c, p);
            for (let i = 0; i < 3; i++) expect(Math.abs(clip[i] / clip[3])).toBeLessThanOrEqual(1);
          }
        }
      }
    }
    // The target is the box centre, seen at the middle of the view.
    const centre = toClip(c, [0.1, 0.9, 0.1]);
    expect(centre[0] / centre[3]).toBeCloseTo(0, 5);
    expect(centre[1] / centre[3]).toBeCloseTo(0, 5);
  });

  it('clamps pitch short of the poles and zoom to [0.01, 100] × the framed distance', () => {
    const c = new OrbitCamera();
    c.frame({ min: [-1, -1, -1], max: [1, 1, 1] });
    c.orbit(0, 10);
    expect(c.pitch).toBeLessThan(Math.PI / 2);
    c.zoom(1e6);
    expect(c.distance).toBeCloseTo(100 * c.framedDistance, 6);
    c.zoom(1e-9);
    expect(c.distance).toBeCloseTo(0.01 * c.framedDistance, 6);
  });

  it('pans the target along the camera right and up vectors', () => {
    const c = new OrbitCamera();
    c.distance = 2;
    c.update(1);
    c.pan(0.5, 0);
    expect(c.target[0]).toBeLessThan(0); // dragging right moves the scene right: the target goes left
    expect(c.target[1]).toBeCloseTo(0, 6);
    c.pan(0, 0.5);
    expect(c.target[1]).toBeGreaterThan(0);
  });

  it('survives an empty or non-finite box', () => {
    const c = new OrbitCamera();
    c.frame({ min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] });
    c.update(1);
    expect([...c.view, ...c.projection].every(Number.isFinite)).toBe(true);
  });
});
