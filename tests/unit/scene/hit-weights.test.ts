import { describe, expect, it } from 'vitest';
import { createWorm, WORM_800 } from '../../../src/procedural/worm.ts';
import { blendHitWeights } from '../../../src/scene/hit-weights.ts';
import { createSurfaceHit } from '../../../src/scene/pick-model.ts';
import { withRigidProp } from '../../browser/helpers/rigid-prop.ts';

describe('blendHitWeights', () => {
  const asset = withRigidProp(createWorm(WORM_800), 4, 0.25, [0.3, 0.1, 0]);
  const primitive = asset.meshes[0].primitives[0];
  const joints = new Int32Array(12), weights = new Float64Array(12);

  it('blends the three vertices\' weights by the barycentric weights, heaviest first, summing to 1', () => {
    // Vertices on three different rings, so up to three joints take part.
    const hit = createSurfaceHit();
    hit.meshInstance = 0; hit.mesh = 0; hit.primitive = primitive.sourceIndex ?? 0;
    hit.vertexIndices.set([16 * 7, 16 * 8 + 3, 16 * 9 + 5]);
    hit.barycentric.set([0.2, 0.3, 0.5]);
    const n = blendHitWeights(asset, hit, joints, weights);
    // Independent expectation: Σₖ bₖ·w(k, j) by a plain loop over the stored influences, then normalised.
    const expected = new Map<number, number>();
    for (let k = 0; k < 3; k++) {
      for (let s = 0; s < 4; s++) {
        const v = hit.vertexIndices[k], w = primitive.weights![4 * v + s];
        if (w) expected.set(primitive.joints![4 * v + s], (expected.get(primitive.joints![4 * v + s]) ?? 0) + hit.barycentric[k] * w);
      }
    }
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(n).toBe(expected.size);
    for (let i = 0; i < n; i++) {
      expect(weights[i]).toBeCloseTo(expected.get(asset.skins[0].joints.indexOf(joints[i]))! / total, 12);
      if (i > 0) expect(weights[i]).toBeLessThanOrEqual(weights[i - 1]);
    }
    expect(Array.from(weights.subarray(0, n)).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('a rigid mesh is its node, weight 1', () => {
    const hit = createSurfaceHit();
    hit.meshInstance = 1; hit.mesh = asset.meshInstances[1].mesh; hit.primitive = 0;
    hit.vertexIndices.set([0, 1, 2]); hit.barycentric.set([1, 0, 0]);
    expect(blendHitWeights(asset, hit, joints, weights)).toBe(1);
    expect([joints[0], weights[0]]).toEqual([asset.meshInstances[1].node, 1]);
  });

  it('refuses arrays too short for the influences', () => {
    const hit = createSurfaceHit();
    hit.meshInstance = 0; hit.mesh = 0; hit.primitive = 0; hit.vertexIndices.set([0, 1, 2]); hit.barycentric.set([1, 0, 0]);
    expect(() => blendHitWeights(asset, hit, new Int32Array(4), new Float64Array(4))).toThrow(/12 entries/);
  });
});
