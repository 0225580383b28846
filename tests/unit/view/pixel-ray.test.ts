import { describe, expect, it } from 'vitest';
import { OrbitCamera } from '../../../src/scene/orbit-camera.ts';
import { createRay } from '../../../src/scene/pick-model.ts';
import { cssToBuffer, PixelRays } from '../../../src/view/pixel-ray.ts';

describe('PixelRays', () => {
  const camera = new OrbitCamera();
  camera.yaw = 0.6; camera.pitch = -0.3; camera.distance = 4; camera.target.set([0.5, 1, -0.2]);
  camera.viewOffsetX = 0.2;
  const width = 640, height = 360;
  camera.update(width / height);
  const rays = new PixelRays(), ray = createRay(), out = new Float64Array(3);

  it('a ray through a pixel projects back onto that pixel all along its length, off-axis projection included', () => {
    for (const [x, y] of [[0.5, 0.5], [320, 180], [639.5, 12.25], [100.5, 300.5]]) {
      rays.through(ray, camera, width, height, x, y);
      for (const t of [0, 0.01, 0.3, 1]) {
        const p = [0, 1, 2].map((a) => ray.origin[a] + t * ray.direction[a]);
        rays.project(out, camera, width, height, p);
        expect(out[0]).toBeCloseTo(x, 6);
        expect(out[1]).toBeCloseTo(y, 6);
      }
    }
  });

  it('the target lands right of centre by the view offset, the ray starts at the near plane (NDC −1)', () => {
    rays.project(out, camera, width, height, camera.target);
    // projection[8] = −viewOffsetX shifts NDC x by +viewOffsetX at every depth.
    // (float32 camera matrices: a few millionths of a pixel)
    expect(out[0]).toBeCloseTo(0.5 * width * (1 + 0.2), 4);
    expect(out[1]).toBeCloseTo(height / 2, 4);
    rays.through(ray, camera, width, height, 10, 20);
    rays.project(out, camera, width, height, ray.origin);
    expect(out[2]).toBeCloseTo(-1, 6);
  });

  it('a point behind the eye has no pixel; bad sizes are refused', () => {
    const behind = [0, 1, 2].map((a) => 2 * camera.eye[a] - camera.target[a]);
    expect(rays.project(out, camera, width, height, behind)[0]).toBeNaN();
    expect(() => rays.through(ray, camera, 0, height, 1, 1)).toThrow(RangeError);
    expect(() => cssToBuffer(out, 1, 1, 0, 10, 10, 10)).toThrow(/positive/);
  });

  it('CSS pixels scale by the buffer over the CSS box (devicePixelRatio)', () => {
    expect(Array.from(cssToBuffer(new Float64Array(2), 10, 20, 320, 180, 640, 360))).toEqual([20, 40]);
  });
});
