import { describe, expect, it } from 'vitest';
import { mat4 } from 'gl-matrix';
import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { ModelVertexSkinner } from '../../../src/scene/model-vertex-skinner.ts';
import { MorphedPrimitive } from '../../../src/skinning/morph-targets.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { skinnedMorphTube } from '../helpers/morph-tube.ts';
import { BOUND } from '../skinning/kernel-parity.ts';

/**
 * The box of the reference `skinVertices` (morph targets applied first) at `animated`'s pose: what the bounds' skinning
 * kernels must match within float32 rounding (kernel-parity.ts `BOUND` of the extent).
 */
function referenceBox(asset: ModelAsset, animated: AnimatedModel): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const instance of asset.meshInstances) {
    for (const source of asset.meshes[instance.mesh].primitives) {
      const offset = instance.morphWeightOffset ?? -1;
      const p = source.morphTargets && offset >= 0 ? new MorphedPrimitive(source).apply(animated.morphWeights, offset) : source;
      const out = new Float32Array(3 * p.vertexCount);
      skinVertices(out, null, p, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin]);
      for (let i = 0; i < out.length; i++) {
        min[i % 3] = Math.min(min[i % 3], out[i] + animated.origin[i % 3]);
        max[i % 3] = Math.max(max[i % 3], out[i] + animated.origin[i % 3]);
      }
    }
  }
  return { min, max };
}

function expectBox(actual: { min: number[]; max: number[] }, expected: { min: number[]; max: number[] }): void {
  const extent = Math.max(1, ...expected.min.map(Math.abs), ...expected.max.map(Math.abs));
  for (let a = 0; a < 3; a++) {
    expect(Math.abs(actual.min[a] - expected.min[a])).toBeLessThan(BOUND * extent);
    expect(Math.abs(actual.max[a] - expected.max[a])).toBeLessThan(BOUND * extent);
  }
}

describe('computeModelBounds', () => {
  const asset = createOctopusAsset();
  const animated = new AnimatedModel(asset);
  animated.evaluate(animated.clipSample(0).at(0.5));

  it('is the box of the CPU-skinned vertices at the current pose (the skinning kernel, within float32 rounding of skinVertices)', () => {
    const bounds = computeModelBounds(asset, animated);
    expectBox(bounds, referenceBox(asset, animated));
    // The pose matters: the rest pose has another box.
    const rest = new AnimatedModel(asset);
    rest.evaluate(rest.clipSample(-1));
    expect(computeModelBounds(asset, rest)).not.toEqual(bounds);
  });

  it('applies the display matrix (Z-up → Y-up sends z to y and y to −z)', () => {
    const bounds = computeModelBounds(asset, animated);
    const display = mat4.fromXRotation(new Float32Array(16), -Math.PI / 2) as Float32Array;
    const turned = computeModelBounds(asset, animated, display);
    expect(turned.min[0]).toBeCloseTo(bounds.min[0], 4);
    expect(turned.min[1]).toBeCloseTo(bounds.min[2], 4);
    expect(turned.max[1]).toBeCloseTo(bounds.max[2], 4);
    expect(turned.min[2]).toBeCloseTo(-bounds.max[1], 4);
    expect(turned.max[2]).toBeCloseTo(-bounds.min[1], 4);
  });

  it('follows morph weights and poses with one skinner kept across calls (as computeAnimatedBounds keeps it)', async () => {
    const tube = await parseGltf('morph-tube.glb', skinnedMorphTube({ targets: 5 }).glb());
    const model = new AnimatedModel(tube);
    const skinner = new ModelVertexSkinner();
    const boxes: string[] = [];
    for (const time of [0, 0.3, 0.7, 1]) {
      model.evaluate(model.clipSample(0).at(time * tube.clips[0].duration));
      const bounds = computeModelBounds(tube, model, undefined, skinner);
      expectBox(bounds, referenceBox(tube, model));
      boxes.push(JSON.stringify(bounds));
    }
    // The poses differ, so a kernel left on stale rest positions or an old pose would show.
    expect(new Set(boxes).size).toBe(4);
  });
});
