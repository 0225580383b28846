import { describe, expect, it } from 'vitest';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds, forEachModelVertex } from '../../../src/scene/model-bounds.ts';
import { OrbitCamera } from '../../../src/scene/orbit-camera.ts';
import { CameraGoal, type FramedModel } from '../../../src/view/camera-goal.ts';

const DEG = Math.PI / 180;

/** The octopus at its rest pose, as a FramedModel. */
function octopus(): FramedModel {
  const asset = createOctopusAsset();
  const animated = new AnimatedModel(asset);
  animated.evaluate(animated.clipSample(-1));
  const displayMatrix = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  return { asset, animated, displayMatrix, bounds: computeModelBounds(asset, animated, displayMatrix) };
}

/** model-viewer's sphere radius about `c`: the farthest vertex. */
function farthest(model: FramedModel, c: readonly number[]): number {
  let r = 0;
  forEachModelVertex(model.asset, model.animated, model.displayMatrix, (x, y, z) => (r = Math.max(r, Math.hypot(x - c[0], y - c[1], z - c[2]))));
  return r;
}

describe("CameraGoal: model-viewer's framing", () => {
  const model = octopus();
  const { min, max } = model.bounds;
  const centre = [0, 1, 2].map((a) => 0.5 * (min[a] + max[a]));
  const radius = farthest(model, centre);
  const ideal = radius / Math.sin(15 * DEG);

  it('defaults to 0deg 75deg 105% of radius / sin(15°) about the box centre, 30° field of view on a wide canvas', () => {
    const camera = new OrbitCamera();
    new CameraGoal().apply(camera, model, 4, true);
    expect(camera.yaw).toBe(0);
    expect(camera.pitch).toBeCloseTo(15 * DEG, 12);
    expect(camera.distance).toBeCloseTo(1.05 * ideal, 6);
    expect(Array.from(camera.target)).toEqual(centre.map((v) => Math.fround(v)));
    expect(camera.fovY).toBeCloseTo(30 * DEG, 12);
    expect(camera.minDistance).toBeCloseTo(2.2 * radius, 6);
    expect(camera.maxDistance).toBeCloseTo(1.05 * ideal, 6);
  });

  it('widens the field of view on a narrow canvas, within max-field-of-view', () => {
    const camera = new OrbitCamera();
    const goal = new CameraGoal();
    goal.apply(camera, model, 0.2, true);
    expect(camera.fovY).toBeGreaterThan(30 * DEG);
    goal.maxFieldOfView = 20 * DEG;
    goal.apply(camera, model, 4, true);
    expect(camera.fovY).toBeCloseTo(20 * DEG, 12);
  });

  it('clamps camera-orbit to its limits and keeps input inside them', () => {
    const camera = new OrbitCamera();
    const goal = new CameraGoal();
    goal.orbit = { theta: 90 * DEG, phi: 10 * DEG, radius: { value: 1000, unit: '%' } };
    goal.minOrbit = { theta: null, phi: 45 * DEG, radius: null };
    goal.maxOrbit = { theta: 30 * DEG, phi: null, radius: { value: 200, unit: '%' } };
    goal.apply(camera, model, 1, true);
    expect(camera.yaw).toBeCloseTo(30 * DEG, 12);
    expect(camera.pitch).toBeCloseTo(45 * DEG, 12);
    expect(camera.distance).toBeCloseTo(2 * 1.05 * ideal, 6);
    camera.orbit(1, 1);
    expect(camera.yaw).toBeCloseTo(30 * DEG, 12);
    expect(camera.pitch).toBeCloseTo(45 * DEG, 12);
    camera.zoom(1e-6);
    expect(camera.distance).toBeCloseTo(2.2 * radius, 6);
  });

  it('measures the sphere about camera-target, and keeps the orbit on a resize', () => {
    const camera = new OrbitCamera();
    const goal = new CameraGoal();
    goal.target = [null, min[1], null];
    goal.orbit = { theta: null, phi: null, radius: { value: 3, unit: 'm' } };
    goal.apply(camera, model, 1, true);
    expect(camera.target[1]).toBeCloseTo(min[1], 6);
    expect(camera.minDistance).toBeCloseTo(2.2 * farthest(model, [centre[0], min[1], centre[2]]), 6);
    expect(camera.distance).toBe(Math.max(3, camera.minDistance));
    camera.orbit(0.3, 0);
    goal.apply(camera, model, 2, false);
    expect(camera.yaw).toBeCloseTo(0.3, 12);
  });
});
