/**
 * The glTF loader's metallic-roughness materials (glTF 2.0 §3.9, KHR_texture_transform,
 * KHR_materials_emissive_strength, KHR_materials_unlit) and the vertex attributes they use (TEXCOORD_1,
 * COLOR_0): defaults as the spec states them, every field read, and one LoadError with a JSON pointer for a
 * value outside what the spec allows.
 */
import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { skinnedQuad, type GltfBuilder } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';

/** The skinned quad with `materials[0] = material` on its primitive, and five textures over one PNG image. */
function withMaterial(material: object, extensionsUsed: string[] = []): GltfBuilder {
  const b = skinnedQuad();
  const png = b.bufferView(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  Object.assign(b.json, {
    images: [{ bufferView: png, mimeType: 'image/png' }],
    samplers: [{ wrapS: 33071, wrapT: 33071 }],
    textures: [{ source: 0 }, { source: 0, sampler: 0 }, { source: 0 }, { source: 0 }, { source: 0 }],
    materials: [material],
  });
  if (extensionsUsed.length > 0) b.json.extensionsUsed = extensionsUsed;
  b.json.meshes[0].primitives[0].material = 0;
  return b;
}

describe('glTF materials', () => {
  it('an empty material has the spec defaults: metallic 1, roughness 1, no emission, OPAQUE with cutoff 0.5, lit', async () => {
    const asset = await parseGltf('m.gltf', withMaterial({}).gltf());
    expect(asset.materials[0]).toEqual({
      name: '', baseColorFactor: [1, 1, 1, 1], baseColorTexture: -1, metallicFactor: 1, roughnessFactor: 1,
      emissiveFactor: [0, 0, 0], alphaMode: 'OPAQUE', alphaCutoff: 0.5, doubleSided: false,
    });
    expect(asset.warnings).toEqual([]);
  });

  it('reads every texture with its sampler, texCoord and KHR_texture_transform (whose texCoord overrides)', async () => {
    const transform = { offset: [0.5, -0.25], rotation: 1.5, scale: [2, 3], texCoord: 1 };
    const b = withMaterial({
      name: 'all',
      pbrMetallicRoughness: {
        baseColorFactor: [0.5, 0.5, 0.5, 0.25],
        baseColorTexture: { index: 0, extensions: { KHR_texture_transform: { offset: [0.25, 0] } } },
        metallicFactor: 0.25, roughnessFactor: 0.75,
        metallicRoughnessTexture: { index: 1, texCoord: 1 },
      },
      normalTexture: { index: 2, scale: -0.5 },
      occlusionTexture: { index: 3, strength: 0.5, texCoord: 0, extensions: { KHR_texture_transform: transform } },
      emissiveTexture: { index: 4 },
      emissiveFactor: [1, 0.5, 0],
      alphaMode: 'MASK', alphaCutoff: 0.3, doubleSided: true,
      extensions: { KHR_materials_emissive_strength: { emissiveStrength: 4 }, KHR_materials_unlit: {} },
    }, ['KHR_texture_transform', 'KHR_materials_emissive_strength', 'KHR_materials_unlit']);
    const asset = await parseGltf('all.gltf', b.gltf());
    expect(asset.materials[0]).toEqual({
      name: 'all',
      baseColorFactor: [0.5, 0.5, 0.5, 0.25], baseColorTexture: 0,
      baseColorUv: { texCoord: 0, transform: { offset: [0.25, 0], rotation: 0, scale: [1, 1] } },
      metallicFactor: 0.25, roughnessFactor: 0.75,
      metallicRoughnessTexture: { image: 0, sampler: { wrapS: 33071, wrapT: 33071, magFilter: undefined, minFilter: undefined }, texCoord: 1 },
      normalTexture: { image: 0, texCoord: 0 }, normalScale: -0.5,
      occlusionTexture: { image: 0, texCoord: 1, transform: { offset: [0.5, -0.25], rotation: 1.5, scale: [2, 3] } }, occlusionStrength: 0.5,
      emissiveFactor: [1, 0.5, 0], emissiveTexture: { image: 0, texCoord: 0 }, emissiveStrength: 4,
      alphaMode: 'MASK', alphaCutoff: 0.3, unlit: true, doubleSided: true,
    });
    // The extensions are supported: none is reported as ignored.
    expect(asset.warnings).toEqual([]);
  });

  it('a texCoord above 1 samples TEXCOORD_0, with one warning', async () => {
    const asset = await parseGltf('uv2.gltf', withMaterial({ normalTexture: { index: 0, texCoord: 2 } }).gltf());
    expect(asset.materials[0].normalTexture).toEqual({ image: 0, texCoord: 0 });
    expect(asset.warnings).toEqual(['uv2.gltf: material 0\'s normal texture samples TEXCOORD_2; Sinew reads TEXCOORD_0 and TEXCOORD_1, so it samples TEXCOORD_0']);
  });

  it.each([
    [{ pbrMetallicRoughness: { metallicFactor: 1.5 } }, '/materials/0/pbrMetallicRoughness/metallicFactor', 'VALUE_NOT_IN_RANGE', 'is 1.5, not in [0, 1]'],
    [{ pbrMetallicRoughness: { roughnessFactor: -0.1 } }, '/materials/0/pbrMetallicRoughness/roughnessFactor', 'VALUE_NOT_IN_RANGE', 'is -0.1, not in [0, 1]'],
    [{ pbrMetallicRoughness: { baseColorFactor: [1, 2, 1, 1] } }, '/materials/0/pbrMetallicRoughness/baseColorFactor/1', 'VALUE_NOT_IN_RANGE', 'is 2, not in [0, 1]'],
    [{ emissiveFactor: [0, 0] }, '/materials/0/emissiveFactor', 'TYPE_MISMATCH', 'is not an array of 3 finite numbers'],
    [{ alphaMode: 'CUTOUT' }, '/materials/0/alphaMode', 'VALUE_NOT_IN_LIST', 'is "CUTOUT", not one of OPAQUE, MASK, BLEND'],
    [{ alphaCutoff: -1 }, '/materials/0/alphaCutoff', 'VALUE_NOT_IN_RANGE', 'is -1, not in [0, ∞]'],
    [{ normalTexture: { index: 0, scale: 'big' } }, '/materials/0/normalTexture/scale', 'TYPE_MISMATCH', 'is "big", not a finite number'],
    [{ occlusionTexture: { index: 0, strength: 2 } }, '/materials/0/occlusionTexture/strength', 'VALUE_NOT_IN_RANGE', 'is 2, not in [0, 1]'],
    [{ emissiveTexture: { index: 0, texCoord: -1 } }, '/materials/0/emissiveTexture/texCoord', 'VALUE_NOT_IN_RANGE', 'is -1, not an integer ≥ 0'],
    [{ extensions: { KHR_materials_emissive_strength: { emissiveStrength: -2 } } }, '/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength', 'VALUE_NOT_IN_RANGE', 'is -2, not in [0, ∞]'],
    [{ pbrMetallicRoughness: { baseColorTexture: { index: 0, extensions: { KHR_texture_transform: { scale: [1] } } } } },
      '/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/scale', 'TYPE_MISMATCH', 'is not an array of 2 finite numbers'],
    [{ normalTexture: { index: 0, extensions: { KHR_texture_transform: { rotation: null } } } },
      '/materials/0/normalTexture/extensions/KHR_texture_transform/rotation', 'TYPE_MISMATCH', 'is null, not a finite number'],
    [{ occlusionTexture: { index: 0, extensions: { KHR_texture_transform: { texCoord: 0.5 } } } },
      '/materials/0/occlusionTexture/extensions/KHR_texture_transform/texCoord', 'VALUE_NOT_IN_RANGE', 'is 0.5, not an integer ≥ 0'],
  ])('%j is a LoadError at its JSON pointer', async (material, where, code, problem) => {
    const error = await loadErrorOf(parseGltf('bad.gltf', withMaterial(material).gltf()));
    expect([error.where, error.code, error.problem]).toEqual([where, code, problem]);
    expect(error.message).toBe(`bad.gltf: ${where} ${problem}`);
  });
});

describe('TEXCOORD_1 and COLOR_0', () => {
  it('TEXCOORD_0 and TEXCOORD_1 become uvs and uvs1, whatever set the textures name', async () => {
    const b = withMaterial({ pbrMetallicRoughness: { baseColorTexture: { index: 0, texCoord: 1 } } });
    const uv0 = b.accessor(new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), 'VEC2');
    const uv1 = b.accessor(new Uint8Array([0, 0, 255, 0, 0, 255, 255, 255]), 'VEC2', { normalized: true });
    Object.assign(b.json.meshes[0].primitives[0].attributes, { TEXCOORD_0: uv0, TEXCOORD_1: uv1 });
    const primitive = (await parseGltf('uv.gltf', b.gltf())).meshes[0].primitives[0];
    expect(Array.from(primitive.uvs!)).toEqual([0, 0, 1, 0, 0, 1, 1, 1]);
    expect(Array.from(primitive.uvs1!)).toEqual([0, 0, 1, 0, 0, 1, 1, 1]);
    expect(primitive.colors).toBeUndefined();
  });

  it('COLOR_0 as float VEC3 gets alpha 1; as normalised unorm16 VEC4 it is de-normalised', async () => {
    const b = withMaterial({});
    b.json.meshes[0].primitives[0].attributes.COLOR_0 = b.accessor(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5]), 'VEC3');
    const rgb = (await parseGltf('c.gltf', b.gltf())).meshes[0].primitives[0].colors!;
    expect(Array.from(rgb)).toEqual([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0.5, 0.5, 0.5, 1]);
    b.json.meshes[0].primitives[0].attributes.COLOR_0 = b.accessor(new Uint16Array([65535, 0, 0, 65535, 0, 65535, 0, 0, 0, 0, 65535, 32768, 0, 0, 0, 0]), 'VEC4', { normalized: true });
    const rgba = (await parseGltf('c.gltf', b.gltf())).meshes[0].primitives[0].colors!;
    expect(Array.from(rgba.subarray(0, 12))).toEqual([1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, Math.fround(32768 / 65535)]);
  });

  it('COLOR_0 of integers stored without normalized is a LoadError naming the attribute', async () => {
    const b = withMaterial({});
    b.json.meshes[0].primitives[0].attributes.COLOR_0 = b.accessor(new Uint8Array(16), 'VEC4');
    const error = await loadErrorOf(parseGltf('c.gltf', b.gltf()));
    expect(error.where).toBe('/meshes/0/primitives/0/attributes/COLOR_0');
  });
});
