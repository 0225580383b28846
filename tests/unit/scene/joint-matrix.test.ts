import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mat4 } from 'gl-matrix';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { readRawGltf } from '../helpers/gltf-raw.ts';
import { referenceNodeMatrices } from '../helpers/gltf-node-reference.ts';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { AnimatedModel } from '../../../src/scene/animated-model.ts';

const assets = sharedAssets();

/** A placement with rotation, non-uniform scale and translation: world = T · R · S. */
function placement(): Float64Array {
  const m = new Float64Array(16) as unknown as mat4;
  mat4.fromRotationTranslationScale(m, [0.2, -0.4, 0.1, Math.sqrt(1 - 0.04 - 0.16 - 0.01)], [3, -2, 7], [2, 2, 0.5]);
  return m as unknown as Float64Array;
}

describe.skipIf(!assets)('AnimatedModel.jointMatrix', () => {
  it('is world · (the joint\'s model-space matrix) of this pose, for every joint, by index or name', async () => {
    const path = join(assets!, 'gltf', 'CesiumMan.glb');
    const model = new AnimatedModel(await loadModelFromPath(path));
    model.world.set(placement());
    model.evaluate(model.clipSample(0).at(0.9));
    const reference = referenceNodeMatrices(readRawGltf(path), 0, 0.9);
    const skeleton = model.asset.skeleton, out = new Float64Array(16), expected = new Float64Array(16) as unknown as mat4;
    let worst = 0;
    for (let j = 0; j < skeleton.jointCount; j++) {
      mat4.multiply(expected, model.world as unknown as mat4, reference[skeleton.sourceIndices[j]] as unknown as mat4);
      model.jointMatrix(j, out);
      for (let k = 0; k < 16; k++) worst = Math.max(worst, Math.abs(out[k] - expected[k]) / (k >= 12 && k < 15 ? 10 : 1));
    }
    expect(worst).toBeLessThan(1e-5);
    const named = skeleton.names.findIndex((n) => n !== '');
    expect(Array.from(model.jointMatrix(skeleton.names[named], new Float64Array(16)))).toEqual(Array.from(model.jointMatrix(named, out)));
    // A float32 output holds the same numbers rounded.
    const single = model.jointMatrix(named, new Float32Array(16));
    single.forEach((x, k) => expect(x).toBe(Math.fround(out[k])));
  });

  it('may write into world itself; names the model and its joints for an unknown joint', async () => {
    const model = new AnimatedModel(await loadModelFromPath(join(assets!, 'gltf', 'RiggedSimple.glb')));
    const expected = model.jointMatrix(2, new Float64Array(16));
    expect(Array.from(model.jointMatrix(2, model.world))).toEqual(Array.from(expected));
    expect(() => model.jointMatrix('hand_R', new Float64Array(16))).toThrow(/RiggedSimple\.glb: no joint "hand_R" \(5 joints: /);
    // The skin's joints are "Bone" and "Bone.001": a name off only in case is suggested (and "Bone.001" is 4 edits away).
    expect(() => model.jointMatrix('bone', new Float64Array(16))).toThrow(/RiggedSimple\.glb: no joint "bone" \(did you mean "Bone"\? 5 joints: /);
    expect(() => model.jointMatrix(99, new Float64Array(16))).toThrow(RangeError);
  });
});
