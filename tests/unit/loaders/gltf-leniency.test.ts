/**
 * docs/explanation/compatibility.md, row by row: small files made here with the test builder, each showing one deviation
 * real exporters make; the documented outcome and its one warning per file.
 */
import { describe, expect, it } from 'vitest';
import { compileClip } from '../../../src/animation/runtime-clip.ts';
import { sampleClip } from '../../../src/animation/sample-clip.ts';
import { SamplingContext } from '../../../src/animation/sampling-context.ts';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { collapseWarnings } from '../../../src/loaders/collapse-warnings.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { cloneLocalPose } from '../../../src/skeleton/local-pose.ts';
import { threeTrack } from '../animation/three-oracle.ts';
import { quadWithTranslation, skinnedQuad, type GltfBuilder } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';


describe('equal consecutive key times: a step, as three.js plays it', () => {
  const times = [0, 1 / 6, 1 / 6, 0.5, 1];
  const values = [0, 0, 0, 1, 0, 0, 5, 2, 0, 6, 4, 0, 7, 0, 1];

  for (const interpolation of ['LINEAR', 'STEP'] as const) {
    it(`${interpolation}: at, just before and just after the repeated time, like three.js`, async () => {
      const asset = await parseGltf('tokyo.gltf', quadWithTranslation(times, values, interpolation).gltf());
      const clip = asset.clips[0];
      const runtime = compileClip(clip, asset.skeleton.jointCount);
      const pose = cloneLocalPose(asset.restPose);
      const cursor = new SamplingContext();
      const three = await threeTrack(3, interpolation, Float32Array.from(times), Float32Array.from(values));
      const repeat = Math.fround(1 / 6);
      const joint = Array.prototype.indexOf.call(asset.skeleton.sourceIndices, 2);
      for (const t of [0, 0.1, repeat - 1e-3, repeat - 1e-6, repeat, repeat + 1e-6, repeat + 1e-3, 0.3, 0.5, 0.9, 1]) {
        sampleClip(pose, runtime, t, cursor);
        const ours = Array.from(pose.translations.subarray(3 * joint, 3 * joint + 3));
        const expected = three(t);
        for (let i = 0; i < 3; i++) expect(Math.abs(ours[i] - expected[i]), `t=${t} [${i}]`).toBeLessThan(1e-5);
      }
      // At the repeated time the later key holds (5, 2, 0), not the earlier (1, 0, 0).
      sampleClip(pose, runtime, repeat, cursor);
      expect(Array.from(pose.translations.subarray(3 * joint, 3 * joint + 3))).toEqual([5, 2, 0]);
    });
  }

  it('one warning for the file, however many samplers repeat a time', async () => {
    const asset = await parseGltf('tokyo.gltf', quadWithTranslation(times, values, 'LINEAR', 3).gltf());
    const repeats = asset.warnings.filter((w) => w.includes('repeat a key time'));
    expect(repeats).toEqual([
      'tokyo.gltf: 4 of 5 animation samplers repeat a key time (first /animations/0/samplers/1/input key 2 at 0.1666666716337204); ' +
      'played as a step: the later key holds from that time',
    ]);
  });

  it('strictly decreasing times stay an error', async () => {
    const error = await loadErrorOf(parseGltf('back.gltf', quadWithTranslation([0, 0.5, 0.25], [0, 0, 0, 1, 0, 0, 2, 0, 0]).gltf()));
    expect(error.code).toBe('ACCESSOR_ANIMATION_INPUT_NON_INCREASING');
    expect(error.where).toBe('/animations/0/samplers/1/input');
    expect(error.message).toBe('back.gltf: /animations/0/samplers/1/input key times are not strictly increasing at key 2 (0.5 then 0.25)');
  });

  it('a repeat of the first key time is a step at the start', async () => {
    const asset = await parseGltf('start.gltf', quadWithTranslation([0, 0, 1], [9, 9, 9, 0, 0, 0, 1, 0, 0]).gltf());
    const clip = asset.clips[0];
    const runtime = compileClip(clip, asset.skeleton.jointCount);
    const pose = cloneLocalPose(asset.restPose);
    const joint = Array.prototype.indexOf.call(asset.skeleton.sourceIndices, 2);
    sampleClip(pose, runtime, 0, new SamplingContext());
    expect(Array.from(pose.translations.subarray(3 * joint, 3 * joint + 3))).toEqual([0, 0, 0]);
  });
});

describe('rotations that are not unit', () => {
  it('node rotations and rotation keys are normalised, with one warning each', async () => {
    const b = skinnedQuad();
    b.json.nodes[2].rotation = [0, 0, 0, 2];
    b.json.nodes[0].rotation = [0, 0, 1, 1];
    const rotations = b.accessor(new Float32Array([0, 0, 0, 3, 0, 0, 1, 1]), 'VEC4');
    b.json.animations[0].samplers[0].output = rotations;
    const asset = await parseGltf('long.gltf', b.gltf());
    const root = Array.prototype.indexOf.call(asset.skeleton.sourceIndices, 2);
    expect(Array.from(asset.restPose.rotations.subarray(4 * root, 4 * root + 4))).toEqual([0, 0, 0, 1]);
    expect(asset.clips[0].channels[0].values[3]).toBe(1);
    expect(asset.clips[0].channels[0].values[7]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(asset.warnings).toContain('long.gltf: 2 node rotations are not unit quaternions; normalised');
    expect(asset.warnings).toContain('long.gltf: 2 rotation keys are not unit quaternions (first in /animations/0/samplers/0/output); normalised');
  });

  it('a rotation of length 0 is an error', async () => {
    const b = skinnedQuad();
    b.json.nodes[0].rotation = [0, 0, 0, 0];
    const error = await loadErrorOf(parseGltf('zero.gltf', b.gltf()));
    expect([error.where, error.code]).toEqual(['/nodes/0/rotation', 'ROTATION_NON_UNIT']);
  });
});

describe('a skinned node whose mesh mixes skinned and unskinned primitives', () => {
  /** The quad's mesh with a second, unskinned primitive: a triangle at z = 1. */
  function mixed(): GltfBuilder {
    const b = skinnedQuad();
    const position = b.accessor(new Float32Array([0, 0, 1, 1, 0, 1, 0, 1, 1]), 'VEC3', { min: [0, 0, 1], max: [1, 1, 1] });
    b.json.meshes[0].primitives.push({ attributes: { POSITION: position } });
    b.json.nodes[1].translation = [10, 0, 0];
    return b;
  }

  it('loads: skinned primitives through the skin, the others rigidly with the node (sinew eval)', async () => {
    const asset = await parseGltf('mixed.gltf', mixed().gltf());
    expect(asset.meshInstances).toHaveLength(1);
    expect(asset.meshInstances[0].skin).toBe(0);
    expect(asset.warnings).toContain(
      'mixed.gltf: skinned node 1 carries a mesh that mixes primitives with and without JOINTS_0/WEIGHTS_0; the ones without are drawn rigidly with the node',
    );
    const evaluation = evaluateModel(asset, -1, 0);
    expect(evaluation.primitives.map((p) => p.skinned)).toEqual([true, false]);
    // The rigid triangle moves with its node (translated by 10 in x); the skinned quad ignores the node.
    expect(evaluation.primitives[1].positions).toEqual([10, 0, 1, 11, 0, 1, 10, 1, 1]);
    expect(evaluation.primitives[0].positions.slice(0, 3)).toEqual([0, 0, 0]);
  });
});

describe('file-level deviations: one warning each', () => {
  it("a skin's skeleton that is not a common root is ignored", async () => {
    const b = skinnedQuad();
    b.json.skins[0].skeleton = 0; // joint1, a child of joint0: not above joint0
    const asset = await parseGltf('root.gltf', b.gltf());
    expect(asset.warnings).toContain("root.gltf: /skins/0/skeleton (node 0) is not a common root of the skin's joints; ignored (Sinew does not need it)");
    b.json.skins[0].skeleton = 2;
    expect((await parseGltf('root.gltf', b.gltf())).warnings.some((w) => w.includes('common root'))).toBe(false);
  });

  it('empty animations and zero-length clips are kept as clips', async () => {
    const b = skinnedQuad();
    const one = b.accessor(new Float32Array([0.5]), 'SCALAR', { min: [0.5], max: [0.5] });
    const pose = b.accessor(new Float32Array([0, 0, 0, 1]), 'VEC4');
    b.json.animations.push({ name: 'empty', samplers: [], channels: [] });
    b.json.animations.push({ name: 'still', samplers: [{ input: one, output: pose }], channels: [{ sampler: 0, target: { node: 0, path: 'rotation' } }] });
    b.json.animations.push({ name: 'empty2', samplers: [], channels: [] });
    const asset = await parseGltf('clips.gltf', b.gltf());
    expect(asset.clips.map((c) => [c.name, c.duration, c.channels.length])).toEqual([['bend', 1, 1], ['empty', 0, 0], ['still', 0.5, 1], ['empty2', 0, 0]]);
    expect(asset.warnings).toContain('clips.gltf: animations 1, 3 have no channels; kept as clips that show the rest pose');
    expect(asset.warnings).toContain('clips.gltf: animation 2 lasts 0 s (every channel has one key time); played as one pose');
    expect(evaluateModel(asset, 1, 0).time).toBe(0);
  });

  it('several scenes and no default scene: every mesh node is drawn', async () => {
    const b = skinnedQuad();
    delete b.json.scene;
    b.json.scenes = [{ nodes: [2] }, { nodes: [1] }];
    const asset = await parseGltf('scenes.gltf', b.gltf());
    expect(asset.meshInstances).toHaveLength(1);
    expect(asset.warnings).toContain('scenes.gltf: has 2 scenes and no default /scene; drew the mesh nodes of every scene');
    b.json.scenes = [{ nodes: [1, 2] }];
    expect((await parseGltf('scenes.gltf', b.gltf())).warnings).toEqual([]);
  });
});

describe('extensions', () => {
  it('only in extensionsUsed and not decodable: one warning, the file loads', async () => {
    const b = skinnedQuad();
    b.json.extensionsUsed = ['EXT_mesh_gpu_instancing', 'KHR_xmp_json_ld'];
    const asset = await parseGltf('used.gltf', b.gltf());
    expect(asset.warnings).toEqual(['used.gltf: uses extensions "EXT_mesh_gpu_instancing", "KHR_xmp_json_ld", not required; ignored']);
  });

  it('required and not decodable: an error', async () => {
    const b = skinnedQuad();
    b.json.extensionsUsed = b.json.extensionsRequired = ['EXT_mesh_gpu_instancing'];
    const error = await loadErrorOf(parseGltf('req.gltf', b.gltf()));
    expect([error.where, error.code]).toEqual(['/extensionsRequired', 'UNSUPPORTED_EXTENSION']);
  });

  for (const required of [false, true]) {
    it(`KHR_mesh_quantization ${required ? 'required' : 'only used'}: integer positions and texture coordinates are read`, async () => {
      const b = skinnedQuad();
      const positions = b.accessor(new Int16Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]), 'VEC3', { min: [0, 0, 0], max: [1, 1, 0] });
      const uvs = b.accessor(new Uint8Array([0, 0, 255, 0, 0, 255, 255, 255]), 'VEC2', { normalized: true });
      const primitive = b.json.meshes[0].primitives[0];
      primitive.attributes.POSITION = positions;
      primitive.attributes.TEXCOORD_0 = uvs;
      b.json.extensionsUsed = ['KHR_mesh_quantization'];
      if (required) b.json.extensionsRequired = ['KHR_mesh_quantization'];
      const asset = await parseGltf('quantized.gltf', b.gltf());
      expect(asset.warnings).toEqual([]);
      expect(Array.from(asset.meshes[0].primitives[0].positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
      expect(Array.from(asset.meshes[0].primitives[0].uvs!)).toEqual([0, 0, 1, 0, 0, 1, 1, 1]);
    });
  }

  it('KHR_mesh_quantization: every component type its table allows for POSITION, NORMAL, TANGENT and TEXCOORD_n', async () => {
    // (array, normalized, expected floats): glTF 2.0 §3.11's de-normalisation, or the integers as they are.
    const positions: [Int8Array | Uint8Array | Int16Array | Uint16Array, boolean, number[]][] = [
      [new Int8Array([0, 0, 0, 127, 0, 0, 0, -127, 0, 127, 127, -128]), true, [0, 0, 0, 1, 0, 0, 0, -1, 0, 1, 1, -1]],
      [new Uint8Array([0, 0, 0, 255, 0, 0, 0, 51, 0, 255, 255, 0]), true, [0, 0, 0, 1, 0, 0, 0, 0.2, 0, 1, 1, 0]],
      [new Int16Array([0, 0, 0, 32767, 0, 0, 0, -32767, 0, 32767, 32767, 0]), true, [0, 0, 0, 1, 0, 0, 0, -1, 0, 1, 1, 0]],
      [new Uint16Array([0, 0, 0, 65535, 0, 0, 0, 13107, 0, 65535, 65535, 0]), true, [0, 0, 0, 1, 0, 0, 0, 0.2, 0, 1, 1, 0]],
      [new Int8Array([0, 0, 0, 5, 0, 0, 0, -5, 0, 5, 5, 0]), false, [0, 0, 0, 5, 0, 0, 0, -5, 0, 5, 5, 0]],
      [new Uint16Array([0, 0, 0, 500, 0, 0, 0, 500, 0, 500, 500, 0]), false, [0, 0, 0, 500, 0, 0, 0, 500, 0, 500, 500, 0]],
    ];
    for (const [array, normalized, expected] of positions) {
      const b = skinnedQuad();
      const primitive = b.json.meshes[0].primitives[0];
      primitive.attributes.POSITION = b.accessor(array, 'VEC3', { normalized, min: [0, 0, 0], max: [1, 1, 1] });
      primitive.attributes.NORMAL = b.accessor(new Int8Array([0, 0, 127, 0, 0, 127, 0, 0, -127, 127, 0, 0]), 'VEC3', { normalized: true });
      primitive.attributes.TANGENT = b.accessor(new Int16Array([32767, 0, 0, 32767, 0, 32767, 0, -32767, 0, 0, 32767, 32767, 32767, 0, 0, 32767]), 'VEC4', { normalized: true });
      primitive.attributes.TEXCOORD_0 = b.accessor(new Int16Array([0, 0, 3, 0, 0, 3, 3, 3]), 'VEC2');
      b.json.extensionsUsed = b.json.extensionsRequired = ['KHR_mesh_quantization'];
      const asset = await parseGltf('quantized.gltf', b.gltf());
      const built = asset.meshes[0].primitives[0];
      Array.from(built.positions).forEach((x, i) => expect(x).toBeCloseTo(expected[i], 6));
      expect(Array.from(built.normals)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, -1, 1, 0, 0]);
      expect(Array.from(built.tangents!)).toEqual([1, 0, 0, 1, 0, 1, 0, -1, 0, 0, 1, 1, 1, 0, 0, 1]);
      expect(Array.from(built.uvs!)).toEqual([0, 0, 3, 0, 0, 3, 3, 3]);
    }
  });

  it('KHR_mesh_quantization: a quantised mesh whose node scale and offset dequantize it draws where the float one does', async () => {
    // The rigid quad of skinnedQuad without its skin: positions as unsigned shorts over 0…65535, the node's
    // scale 1/65535 and translation (−0.5, 0, 0) put them back (KHR_mesh_quantization, "Transforms").
    const float = skinnedQuad(), quantized = skinnedQuad();
    for (const b of [float, quantized]) {
      b.json.nodes[1] = { name: 'quad', mesh: 0 };
      delete b.json.skins;
      const attributes = b.json.meshes[0].primitives[0].attributes;
      delete attributes.JOINTS_0; delete attributes.WEIGHTS_0;
    }
    float.json.meshes[0].primitives[0].attributes.POSITION = float.accessor(new Float32Array([-0.5, 0, 0, 0.5, 0, 0, -0.5, 1, 0, 0.5, 1, 0]), 'VEC3', { min: [-0.5, 0, 0], max: [0.5, 1, 0] });
    quantized.json.meshes[0].primitives[0].attributes.POSITION = quantized.accessor(new Uint16Array([0, 0, 0, 65535, 0, 0, 0, 65535, 0, 65535, 65535, 0]), 'VEC3', { min: [0, 0, 0], max: [65535, 65535, 0] });
    Object.assign(quantized.json.nodes[1], { translation: [-0.5, 0, 0], scale: [1 / 65535, 1 / 65535, 1] });
    quantized.json.extensionsUsed = quantized.json.extensionsRequired = ['KHR_mesh_quantization'];
    const expected = evaluateModel(await parseGltf('float.gltf', float.gltf()), -1, 0).primitives[0].positions;
    const actual = evaluateModel(await parseGltf('quantized.gltf', quantized.gltf()), -1, 0).primitives[0].positions;
    actual.forEach((x, i) => expect(x).toBeCloseTo(expected[i], 6));
  });
});

describe('TEXCOORD_1', () => {
  it("a material's base colour texture with texCoord 1 draws with TEXCOORD_1", async () => {
    const b = skinnedQuad();
    const uv0 = b.accessor(new Float32Array(8), 'VEC2');
    const uv1 = b.accessor(new Float32Array([0, 0, 2, 0, 0, 2, 2, 2]), 'VEC2');
    const png = b.bufferView(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    Object.assign(b.json, {
      images: [{ bufferView: png, mimeType: 'image/png' }],
      textures: [{ source: 0 }],
      materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0, texCoord: 1 } } }],
    });
    Object.assign(b.json.meshes[0].primitives[0], { material: 0 });
    Object.assign(b.json.meshes[0].primitives[0].attributes, { TEXCOORD_0: uv0, TEXCOORD_1: uv1 });
    const asset = await parseGltf('uv1.gltf', b.gltf());
    expect(Array.from(asset.meshes[0].primitives[0].uvs1!)).toEqual([0, 0, 2, 0, 0, 2, 2, 2]);
    expect(Array.from(asset.meshes[0].primitives[0].uvs!)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(asset.materials[0].baseColorUv).toEqual({ texCoord: 1 });
    expect(asset.warnings).toEqual([]);
  });
});

describe('texture samplers and KHR_texture_basisu images', () => {
  /** The quad with a material whose base colour texture is texture 0 over image 0 (a PNG signature). */
  function textured(texture: object): GltfBuilder {
    const b = skinnedQuad();
    const png = b.bufferView(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const ktx2 = b.bufferView(new Uint8Array([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb]));
    Object.assign(b.json, {
      images: [{ bufferView: png, mimeType: 'image/png' }, { bufferView: ktx2, mimeType: 'image/ktx2' }],
      samplers: [{ wrapS: 33071, wrapT: 33648, magFilter: 9728, minFilter: 9986 }, {}],
      textures: [texture],
      materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
    });
    b.json.meshes[0].primitives[0].material = 0;
    return b;
  }

  it("a texture's sampler reaches the material; absent wraps are REPEAT, absent filters left to the renderer", async () => {
    const asset = await parseGltf('s.gltf', textured({ source: 0, sampler: 0 }).gltf());
    expect(asset.materials[0].baseColorSampler).toEqual({ wrapS: 33071, wrapT: 33648, magFilter: 9728, minFilter: 9986 });
    const plain = await parseGltf('s.gltf', textured({ source: 0, sampler: 1 }).gltf());
    expect(plain.materials[0].baseColorSampler).toEqual({ wrapS: 10497, wrapT: 10497, magFilter: undefined, minFilter: undefined });
    expect((await parseGltf('s.gltf', textured({ source: 0 }).gltf())).materials[0].baseColorSampler).toBeUndefined();
  });

  it('a wrap or filter glTF does not list is an error naming the sampler', async () => {
    const b = textured({ source: 0, sampler: 0 });
    b.json.samplers[0].wrapS = 1234;
    const error = await loadErrorOf(parseGltf('s.gltf', b.gltf()));
    expect(error.message).toBe('s.gltf: /samplers/0/wrapS is 1234, not one of 33071, 33648, 10497');
    expect(error.code).toBe('VALUE_NOT_IN_LIST');
  });

  it('KHR_texture_basisu (required): the KTX2 image is the base colour image, the file loads with no warning', async () => {
    const b = textured({ sampler: 1, extensions: { KHR_texture_basisu: { source: 1 } } });
    b.json.extensionsUsed = b.json.extensionsRequired = ['KHR_texture_basisu'];
    const asset = await parseGltf('k.gltf', b.gltf());
    expect(asset.materials[0].baseColorTexture).toBe(1);
    expect(asset.images[1].mimeType).toBe('image/ktx2');
    expect(asset.warnings).toEqual([]);
    // With a PNG fallback as `source`, the KTX2 image still wins.
    const fallback = textured({ source: 0, extensions: { KHR_texture_basisu: { source: 1 } } });
    fallback.json.extensionsUsed = ['KHR_texture_basisu'];
    expect((await parseGltf('k.gltf', fallback.gltf())).materials[0].baseColorTexture).toBe(1);
    const bad = textured({ extensions: { KHR_texture_basisu: { source: 7 } } });
    bad.json.extensionsUsed = ['KHR_texture_basisu'];
    const error = await loadErrorOf(parseGltf('k.gltf', bad.gltf()));
    expect([error.where, error.code]).toEqual(['/textures/0/extensions/KHR_texture_basisu/source', 'UNRESOLVED_REFERENCE']);
  });
});

describe('one line per kind of warning', () => {
  it('collapseWarnings keeps the first of each kind (numbers and quoted names aside) and counts the rest', () => {
    expect(collapseWarnings([
      'a.gltf: mesh 0 primitive 0 has morph targets; ignored',
      'a.gltf: material 2 has alphaMode BLEND; drawn opaque',
      'a.gltf: mesh 3 primitive 1 has morph targets; ignored',
      "a.gltf: animation 0 channel 4 animates 'weights', which Sinew does not play; skipped",
      'a.gltf: mesh 12 primitive 0 has morph targets; ignored',
      "a.gltf: animation 1 channel 0 animates 'pointer', which Sinew does not play; skipped",
    ])).toEqual([
      'a.gltf: mesh 0 primitive 0 has morph targets; ignored (and 2 more like it)',
      'a.gltf: material 2 has alphaMode BLEND; drawn opaque',
      "a.gltf: animation 0 channel 4 animates 'weights', which Sinew does not play; skipped (and 1 more like it)",
    ]);
  });

  it('parseGltf: three primitives with morph targets on TEXCOORD_0 (not morphed) give one warning', async () => {
    const b = skinnedQuad();
    const primitive = b.json.meshes[0].primitives[0];
    const offsets = b.accessor(new Float32Array(12), 'VEC3', { min: [0, 0, 0], max: [0, 0, 0] });
    const uvOffsets = b.accessor(new Float32Array(8), 'VEC2');
    primitive.targets = [{ POSITION: offsets, TEXCOORD_0: uvOffsets }];
    b.json.meshes[0].primitives.push(structuredClone(primitive), structuredClone(primitive));
    const asset = await parseGltf('morph.gltf', b.gltf());
    expect(asset.warnings).toEqual(['morph.gltf: /meshes/0/primitives/0/targets/0 displaces TEXCOORD_0, which Sinew does not morph; ignored (and 2 more like it)']);
    expect(asset.meshes[0].morphTargetCount).toBe(1);
  });
});
