import { describe, expect, it } from 'vitest';
import { createOctopusAsset } from '../../../src/procedural/octopus.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';
import { skinVertices } from '../../../src/skinning/skin-vertices.ts';
import { WEIGHT_POLICIES } from '../../../src/skinning/skinning-method.ts';

describe('skinVertices on a list of vertices', () => {
  const asset = createOctopusAsset();
  const model = new AnimatedModel(asset);
  model.evaluate(model.clipSample(0).at(0.7));
  const instance = asset.meshInstances.find((i) => i.skin >= 0)!;
  const primitive = asset.meshes[instance.mesh].primitives[0];
  const n = primitive.vertexCount;
  const list = Uint32Array.from([n - 1, 0, 17, 17, Math.floor(n / 2), 5]);

  for (const skinning of ['lbs', 'dqs'] as const) {
    for (const weights of WEIGHT_POLICIES) {
      it(`${skinning} / ${weights}: each listed vertex bit for bit as the whole mesh, the others untouched`, () => {
        const method = { skinning, weights };
        const context = model.skinningContexts[instance.skin], matrices = model.skinMatrices[instance.skin];
        const whole = new Float32Array(3 * n), wholeNormals = new Float32Array(3 * n);
        skinVertices(whole, wholeNormals, primitive, matrices, context, method);
        const part = new Float32Array(3 * n).fill(-7), partNormals = new Float32Array(3 * n).fill(-7);
        skinVertices(part, partNormals, primitive, matrices, context, method, null, list, 5);
        const listed = new Set(Array.from(list.subarray(0, 5)));
        for (let v = 0; v < n; v++) {
          for (let a = 0; a < 3; a++) {
            if (listed.has(v)) {
              expect(part[3 * v + a]).toBe(whole[3 * v + a]);
              expect(partNormals[3 * v + a]).toBe(wholeNormals[3 * v + a]);
            } else {
              expect(part[3 * v + a]).toBe(-7);
            }
          }
        }
      });
    }
  }

  it('a length past the list is a RangeError', () => {
    const out = new Float32Array(3 * n);
    expect(() => skinVertices(out, null, primitive, model.skinMatrices[instance.skin], model.skinningContexts[instance.skin], undefined, null, list, 7))
      .toThrow(RangeError);
  });
});
