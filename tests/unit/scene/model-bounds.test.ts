import { describe, expect, it } from 'vitest';
import { mat4 } from 'gl-matrix';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { computeModelBounds } from '../../../src/scene/model-bounds.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';

describe('computeModelBounds', () => {
  const asset = createOctopusAsset();
  const animated = new AnimatedModel(asset);
  animated.evaluate(animated.clipSample(0).at(0.5));

  it('is the box of the CPU-skinned vertices at the current pose', () => {
    const bounds = computeModelBounds(asset, animated);
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (const instance of asset.meshInstances) {
      for (const p of asset.meshes[instance.mesh].primitives) {
        const out = new Float32Array(3 * p.vertexCount);
        skinVertices(out, null, p, animated.skinMatrices[instance.skin], animated.skinningContexts[instance.skin]);
        for (let i = 0; i < out.length; i++) {
          min[i % 3] = Math.min(min[i % 3], out[i]);
          max[i % 3] = Math.max(max[i % 3], out[i]);
        }
      }
    }
    expect(bounds.min).toEqual(min);
    expect(bounds.max).toEqual(max);
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
});
