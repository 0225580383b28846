import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { OCCLUSION_TOLERANCE, PointOcclusion } from '../../../src/scene/point-occlusion.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

// PointOcclusion.crossings against an independent count: the whole mesh skinned, then every triangle met by the
// segment (plane intersection and a same-side test, not Möller–Trumbore).

const assets = sharedAssets();

/** Triangles of the segment eye → point met before 1 − tolerance (in segment fractions). */
function countCrossings(corners: Float64Array, eye: number[], point: number[]): number {
  const d = [point[0] - eye[0], point[1] - eye[1], point[2] - eye[2]];
  let count = 0;
  for (let i = 0; i < corners.length; i += 9) {
    const a = corners.subarray(i, i + 3), b = corners.subarray(i + 3, i + 6), c = corners.subarray(i + 6, i + 9);
    const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]];
    const denominator = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    if (denominator === 0) continue;
    const t = (n[0] * (a[0] - eye[0]) + n[1] * (a[1] - eye[1]) + n[2] * (a[2] - eye[2])) / denominator;
    if (!(t >= 0 && t < 1 - OCCLUSION_TOLERANCE)) continue;
    const x = [eye[0] + t * d[0], eye[1] + t * d[1], eye[2] + t * d[2]];
    // x is inside when it lies on the inner side of each edge.
    const inside = [[a, b], [b, c], [c, a]].every(([p, q]) => {
      const e = [q[0] - p[0], q[1] - p[1], q[2] - p[2]], f = [x[0] - p[0], x[1] - p[1], x[2] - p[2]];
      return n[0] * (e[1] * f[2] - e[2] * f[1]) + n[1] * (e[2] * f[0] - e[0] * f[2]) + n[2] * (e[0] * f[1] - e[1] * f[0]) >= 0;
    });
    if (inside) count++;
  }
  return count;
}

describe.skipIf(!assets)('PointOcclusion on Fox.glb', () => {
  it('counts the surface crossings between an eye and a point as an independent segment–triangle count does', async () => {
    const asset = await loadModelFromPath(join(assets!, 'gltf', 'Fox.glb'));
    const model = new AnimatedModel(asset);
    model.evaluate(model.clipSample(1).at(0.4));
    // A world that is not the identity: the rays are in world space.
    model.world.set([0, 0, -0.02, 0, 0, 0.02, 0, 0, 0.02, 0, 0, 0, 1, 2, 3, 1]);
    const primitive = asset.meshes[0].primitives[0];
    const skinned = new Float32Array(3 * primitive.vertexCount);
    skinVertices(skinned, null, primitive, model.skinMatrices[0], model.skinningContexts[0]);
    const w = model.world;
    const corners = new Float64Array(3 * primitive.indices.length);
    primitive.indices.forEach((v, i) => {
      for (let r = 0; r < 3; r++) corners[3 * i + r] = w[r] * skinned[3 * v] + w[4 + r] * skinned[3 * v + 1] + w[8 + r] * skinned[3 * v + 2] + w[12 + r];
    });
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < corners.length; i += 3) {
      for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], corners[i + k]); max[k] = Math.max(max[k], corners[i + k]); }
    }
    const occlusion = new PointOcclusion(model);
    // A fixed pseudo-random walk (no Math.random: the test must give the same answer each run).
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const histogram = [0, 0, 0, 0];
    for (let i = 0; i < 60; i++) {
      const point = [0, 1, 2].map((k) => min[k] + random() * (max[k] - min[k]));
      const angle = 2 * Math.PI * random(), height = random() - 0.3;
      const eye = [Math.cos(angle) * 10, height * 4, Math.sin(angle) * 10].map((x, k) => x + 0.5 * (min[k] + max[k]));
      const expected = countCrossings(corners, eye, point);
      expect(occlusion.crossings(eye, point, 3), `segment ${i}`).toBe(Math.min(3, expected));
      histogram[Math.min(3, expected)]++;
    }
    // The segments covered the cases that matter: clear, one crossing (a point inside), and more.
    expect(histogram[0]).toBeGreaterThan(5);
    expect(histogram[1] + histogram[2] + histogram[3]).toBeGreaterThan(5);
  });

  it('does not count the surface the point lies on', async () => {
    const asset = await loadModelFromPath(join(assets!, 'gltf', 'Fox.glb'));
    const model = new AnimatedModel(asset);
    const primitive = asset.meshes[0].primitives[0];
    const skinned = new Float32Array(3 * primitive.vertexCount);
    skinVertices(skinned, null, primitive, model.skinMatrices[0], model.skinningContexts[0]);
    const occlusion = new PointOcclusion(model);
    let clear = 0;
    for (let t = 0; t < 576; t += 7) {
      const [a, b, c] = [0, 1, 2].map((k) => primitive.indices[3 * t + k]);
      const point = [0, 1, 2].map((k) => (skinned[3 * a + k] + skinned[3 * b + k] + skinned[3 * c + k]) / 3);
      const ab = [0, 1, 2].map((k) => skinned[3 * b + k] - skinned[3 * a + k]), ac = [0, 1, 2].map((k) => skinned[3 * c + k] - skinned[3 * a + k]);
      const n = [ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]];
      const length = Math.hypot(...n);
      // An eye 2 m out along the face normal: at most the triangle itself lies between, and it must not count.
      const eye = point.map((x, k) => x + (200 * n[k]) / length);
      if (occlusion.crossings(eye, point, 1) === 0) clear++;
    }
    // Most centroids are in plain view from straight above their own face (a few lie in folds).
    expect(clear).toBeGreaterThan(60);
  });
});
