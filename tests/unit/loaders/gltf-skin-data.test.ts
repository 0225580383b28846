import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelFromPath } from '../../../src/node/load-model-from-path.ts';
import { denormalize } from '../../../src/loaders/gltf/gltf-accessors.ts';
import { rawAccessor, readRawGltf } from '../helpers/gltf-raw.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';

const assets = sharedAssets();
const generator = assets ? join(assets, 'conformance/glTF-Asset-Generator') : '';

/** glTF 2.0 normalized-integer decoding, written out here from the spec's table (not from the loader). */
function decode(value: number, componentType: number, normalized: boolean): number {
  if (!normalized) return value;
  switch (componentType) {
    case 5120: return Math.max(value / 127, -1);
    case 5121: return value / 255;
    case 5122: return Math.max(value / 32767, -1);
    case 5123: return value / 65535;
    default: return value;
  }
}

describe.skipIf(!assets)('glTF skin data against the raw accessor bytes', () => {
  // Animation_SkinType: JOINTS u8/u16, WEIGHTS float / unorm8 / unorm16 (the Asset Generator's README table).
  const variants = [
    { file: 'Animation_SkinType_00.gltf', joints: 5121, weights: 5126 },
    { file: 'Animation_SkinType_01.gltf', joints: 5121, weights: 5121 },
    { file: 'Animation_SkinType_02.gltf', joints: 5121, weights: 5123 },
    { file: 'Animation_SkinType_03.gltf', joints: 5123, weights: 5126 },
  ];
  for (const variant of variants) {
    it(`${variant.file}: joints and de-normalised weights equal the stored values`, async () => {
      const path = join(generator, 'Animation_SkinType', variant.file);
      const raw = readRawGltf(path);
      const asset = await loadModelFromPath(path);
      const attributes = raw.json.meshes[0].primitives[0].attributes;
      const jointsAccessor = raw.json.accessors[attributes.JOINTS_0];
      const weightsAccessor = raw.json.accessors[attributes.WEIGHTS_0];
      expect(jointsAccessor.componentType).toBe(variant.joints);
      expect(weightsAccessor.componentType).toBe(variant.weights);
      expect(weightsAccessor.normalized ?? false).toBe(variant.weights !== 5126);

      const primitive = asset.meshes[0].primitives[0];
      const storedWeights = rawAccessor(raw, attributes.WEIGHTS_0);
      const storedJoints = rawAccessor(raw, attributes.JOINTS_0);
      const expected = storedWeights.map((w) => decode(w, weightsAccessor.componentType, weightsAccessor.normalized ?? false));
      expect(primitive.weights).toEqual(new Float32Array(expected));
      // Each vertex's weights sum to 1 within the storage's quantisation.
      for (let v = 0; v < primitive.vertexCount; v++) {
        const sum = expected.slice(4 * v, 4 * v + 4).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(variant.weights === 5121 ? 4 / 255 : 1e-4);
      }
      storedJoints.forEach((joint, i) => {
        if (expected[i] > 0) expect(primitive.joints![i]).toBe(joint);
      });
      expect(primitive.joints).toBeInstanceOf(Uint8Array);
    });
  }

  it('Animation_Skin_03 (no inverseBindMatrices) gets identity inverse bind matrices', async () => {
    const path = join(generator, 'Animation_Skin', 'Animation_Skin_03.gltf');
    expect(readRawGltf(path).json.skins[0].inverseBindMatrices).toBeUndefined();
    const asset = await loadModelFromPath(path);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect([...asset.skins[0].inverseBindMatrices]).toEqual([...identity, ...identity]);
  });

  it('Animation_Skin_11: two nodes share one mesh with separate skins', async () => {
    const asset = await loadModelFromPath(join(generator, 'Animation_Skin', 'Animation_Skin_11.gltf'));
    expect(asset.meshInstances.map((i) => [i.mesh, i.skin])).toEqual([[0, 0], [0, 1]]);
    expect(asset.skins[0].joints).not.toEqual(asset.skins[1].joints);
  });

  it('quad_skin.glb: all 3 JOINTS/WEIGHTS sets kept (12 slots per vertex, 10 weighted), as stored, no warning', async () => {
    const path = join(assets!, 'gltf', 'quad_skin.glb');
    const raw = readRawGltf(path);
    const asset = await loadModelFromPath(path);
    const attributes = raw.json.meshes[0].primitives[0].attributes;
    const vertexCount = raw.json.accessors[attributes.POSITION].count;
    const sets = [0, 1, 2].map((s) => ({ joints: rawAccessor(raw, attributes[`JOINTS_${s}`]), weights: rawAccessor(raw, attributes[`WEIGHTS_${s}`]) }));
    const primitive = asset.meshes[0].primitives[0];
    expect(primitive.influenceCount).toBe(12);
    expect(primitive.joints!.length).toBe(12 * vertexCount);
    let most = 0;
    for (let v = 0; v < vertexCount; v++) {
      let weighted = 0;
      for (let s = 0; s < 3; s++) {
        for (let c = 0; c < 4; c++) {
          const weight = sets[s].weights[4 * v + c];
          expect(primitive.weights![12 * v + 4 * s + c]).toBeCloseTo(weight, 6);
          expect(primitive.joints![12 * v + 4 * s + c]).toBe(weight > 0 ? sets[s].joints[4 * v + c] : 0);
          if (weight > 0) weighted++;
        }
      }
      most = Math.max(most, weighted);
    }
    expect(most).toBe(10);
    expect(asset.warnings.filter((w) => /influence/.test(w))).toEqual([]);
  });

  it('Animation_SamplerType: normalized byte / short rotations de-normalised with max(c/127,−1), max(c/32767,−1), each key then normalised', async () => {
    for (const [file, componentType] of [['Animation_SamplerType_00.gltf', 5126], ['Animation_SamplerType_01.gltf', 5120], ['Animation_SamplerType_02.gltf', 5122]] as const) {
      const path = join(generator, 'Animation_SamplerType', file);
      const raw = readRawGltf(path);
      const asset = await loadModelFromPath(path);
      const output = raw.json.animations[0].samplers[0].output;
      expect(raw.json.accessors[output].componentType).toBe(componentType);
      const stored = rawAccessor(raw, output);
      const decoded = stored.map((c) => decode(c, componentType, raw.json.accessors[output].normalized ?? false));
      // LINEAR keys are normalised at load (the Sample Viewer's rule before slerp; docs/explanation/compatibility.md).
      const expected = decoded.map((c, i) => c / Math.hypot(...decoded.slice(i - (i % 4), i - (i % 4) + 4)));
      const values = asset.clips[0].channels[0].values;
      expect(values).toHaveLength(expected.length);
      values.forEach((value, i) => expect(Math.abs(value - expected[i])).toBeLessThan(1e-7));
      if (componentType === 5120) expect(stored.some((c) => c === -127 || c === 127)).toBe(true);
    }
  });

  it('denormalize: glTF 2.0 §3.11 normalized integers (the rotations above are normalised after, which would hide a wrong scale)', () => {
    expect(Array.from(denormalize(new Int8Array([-128, -127, 0, 64, 127]), 5120))).toEqual([-1, -1, 0, 64 / 127, 1].map(Math.fround));
    expect(Array.from(denormalize(new Uint8Array([0, 51, 255]), 5121))).toEqual([0, 0.2, 1].map(Math.fround));
    expect(Array.from(denormalize(new Int16Array([-32768, -32767, 16384, 32767]), 5122))).toEqual([-1, -1, 16384 / 32767, 1].map(Math.fround));
    expect(Array.from(denormalize(new Uint16Array([0, 13107, 65535]), 5123))).toEqual([0, 0.2, 1].map(Math.fround));
  });

  it('CUBICSPLINE keeps the in-tangent, value, out-tangent triple per key (Animation_Node_04, _05)', async () => {
    for (const file of ['Animation_Node_04.gltf', 'Animation_Node_05.gltf']) {
      const path = join(generator, 'Animation_Node', file);
      const raw = readRawGltf(path);
      const asset = await loadModelFromPath(path);
      const sampler = raw.json.animations[0].samplers[0];
      expect(sampler.interpolation).toBe('CUBICSPLINE');
      const channel = asset.clips[0].channels[0];
      expect(channel.interpolation).toBe('CUBICSPLINE');
      expect(channel.values).toEqual(new Float32Array(rawAccessor(raw, sampler.output)));
      expect(channel.values.length).toBe(3 * (channel.path === 'rotation' ? 4 : 3) * channel.times.length);
    }
  });

  it('Animation_NodeMisc_08: the channel without a target node is skipped with a warning', async () => {
    const asset = await loadModelFromPath(join(generator, 'Animation_NodeMisc', 'Animation_NodeMisc_08.gltf'));
    expect(asset.clips[0].channels.length).toBe(1);
    expect(asset.warnings).toContain('Animation_NodeMisc_08.gltf: animation 0 channel 0 has no target node; skipped');
  });

  it('Fox.glb: non-indexed, no NORMAL → generated indices 0…n−1 and computed unit normals', async () => {
    const asset = await loadModelFromPath(join(assets!, 'gltf', 'Fox.glb'));
    const primitive = asset.meshes[0].primitives[0];
    expect([...primitive.indices]).toEqual(Array.from({ length: primitive.vertexCount }, (_, i) => i));
    // Flat triangles: each triangle's computed normals are parallel to its face normal.
    const p = primitive.positions, n = primitive.normals;
    let checked = 0;
    for (let t = 0; t < 30; t++) {
      const [a, b, c] = [3 * t, 3 * t + 1, 3 * t + 2].map((i) => 3 * i);
      const e1 = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
      const e2 = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
      const f = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const len = Math.hypot(f[0], f[1], f[2]);
      if (len < 1e-6) continue;
      expect((f[0] * n[a] + f[1] * n[a + 1] + f[2] * n[a + 2]) / len).toBeCloseTo(1, 4);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});
