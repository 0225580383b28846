import { mat4, quat, vec3 } from 'gl-matrix';
import { evaluateModel } from '../helpers/evaluate-model-reference.ts';
import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';
import { DEFAULT_MATERIAL } from '../../../src/loaders/gltf/gltf-materials.ts';
import { GltfBuilder, skinnedQuad } from '../helpers/gltf-builder.ts';

/** One primitive mesh on one node; `primitive` gets the POSITION accessor of `positions`. */
function meshModel(positions: number[], primitive: (b: GltfBuilder, position: number) => Record<string, unknown>): GltfBuilder {
  const b = new GltfBuilder();
  const position = b.accessor(new Float32Array(positions), 'VEC3');
  b.json.nodes = [{ mesh: 0 }];
  b.json.meshes = [{ primitives: [primitive(b, position)] }];
  return b;
}

describe('parseGltf on generated files', () => {
  it('reorders child-first nodes parents-first and remaps skins, channels and instances', async () => {
    for (const [name, bytes] of [['quad.gltf', skinnedQuad().gltf()], ['quad.glb', skinnedQuad().glb()]] as const) {
      const asset = await parseGltf(name, bytes);
      // Roots in file order (node 1, node 2), each followed by its subtree: 1, 2, 0.
      expect([...asset.skeleton.sourceIndices]).toEqual([1, 2, 0]);
      expect([...asset.skeleton.parents]).toEqual([-1, -1, 1]);
      expect(asset.skeleton.names).toEqual(['quad', 'joint0', 'joint1']);
      expect([...asset.skins[0].joints]).toEqual([1, 2]);
      expect(asset.clips[0].channels[0].joint).toBe(2);
      expect(asset.clips[0]).toMatchObject({ name: 'bend', duration: 1 });
      expect(asset.meshInstances).toEqual([{ node: 0, sourceNode: 1, mesh: 0, skin: 0 }]);
      expect([...asset.restPose.translations.subarray(6, 9)]).toEqual([0, 1, 0]);
      // No material on the primitive: a default one is appended.
      expect(asset.materials).toEqual([DEFAULT_MATERIAL]);
      // No NORMAL: computed; the quad lies in z = 0 and winds counter-clockwise seen from +z.
      expect([...asset.meshes[0].primitives[0].normals]).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
      expect(asset.warnings).toEqual([]);
    }
  });

  it('external buffer from the resource map, by raw or percent-decoded uri', async () => {
    const builder = skinnedQuad();
    const bin = builder.bin();
    const a = await parseGltf('ext.gltf', builder.gltf('quad%20data.bin'), { 'quad%20data.bin': bin });
    const b = await parseGltf('ext.gltf', builder.gltf('quad%20data.bin'), { 'quad data.bin': bin });
    const c = await parseGltf('ext.gltf', builder.gltf());
    expect(a.meshes).toEqual(c.meshes);
    expect(b.meshes).toEqual(c.meshes);
  });

  it('triangulates strips and fans with the spec\'s vertex order; skips points and lines', async () => {
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 0, 0];
    for (const [mode, expected] of [
      [5, [0, 1, 2, 1, 3, 2, 2, 3, 4]], // strip: (v_i, v_{i+1+i%2}, v_{i+2−i%2})
      [6, [1, 2, 0, 2, 3, 0, 3, 4, 0]], // fan: (v_{i+1}, v_{i+2}, v_0)
    ] as const) {
      const asset = await parseGltf('strip.gltf', meshModel(positions, (_, POSITION) => ({ attributes: { POSITION }, mode })).gltf());
      expect([...asset.meshes[0].primitives[0].indices]).toEqual(expected);
    }
    const lines = await parseGltf('lines.gltf', meshModel(positions, (_, POSITION) => ({ attributes: { POSITION }, mode: 1 })).gltf());
    expect(lines.meshes[0].primitives).toEqual([]);
    expect(lines.warnings).toEqual(['lines.gltf: mesh 0 primitive 0 is LINES, not triangles; skipped']);
  });

  it('keeps the file\'s primitive index when an earlier primitive is skipped, and sinew eval reports it', async () => {
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const b = meshModel(positions, (_, POSITION) => ({ attributes: { POSITION }, mode: 0 }));
    b.json.meshes[0].primitives.push({ attributes: { POSITION: 0 } });
    const asset = await parseGltf('mixed.gltf', b.gltf());
    expect(asset.meshes[0].primitives.length).toBe(1);
    expect(asset.meshes[0].primitives[0].sourceIndex).toBe(1);
    const evaluation = evaluateModel(asset, -1, 0);
    expect(evaluation.primitives.map((p) => [p.node, p.mesh, p.primitive])).toEqual([[0, 0, 1]]);
  });

  it('reads interleaved (byteStride) and sparse accessors', async () => {
    // Interleaved position + normal, 24-byte stride.
    const interleaved = new Float32Array([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1]);
    const b = new GltfBuilder();
    const view = b.bufferView(new Uint8Array(interleaved.buffer), 24);
    b.json.accessors.push({ bufferView: view, componentType: 5126, count: 3, type: 'VEC3' });
    b.json.accessors.push({ bufferView: view, byteOffset: 12, componentType: 5126, count: 3, type: 'VEC3' });
    // Sparse TEXCOORD_0: zeros except element 2 = (0.5, 0.25).
    const sparseIndices = b.bufferView(new Uint8Array(new Uint16Array([2]).buffer));
    const sparseValues = b.bufferView(new Uint8Array(new Float32Array([0.5, 0.25]).buffer));
    b.json.accessors.push({
      componentType: 5126, count: 3, type: 'VEC2',
      sparse: { count: 1, indices: { bufferView: sparseIndices, componentType: 5123 }, values: { bufferView: sparseValues } },
    });
    b.json.nodes = [{ mesh: 0 }];
    b.json.meshes = [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1, TEXCOORD_0: 2 } }] }];
    const primitive = (await parseGltf('mixed.glb', b.glb())).meshes[0].primitives[0];
    expect([...primitive.positions]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect([...primitive.normals]).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
    expect([...primitive.uvs!]).toEqual([0, 0, 0, 0, 0.5, 0.25]);
    expect(primitive.indices).toEqual(new Uint16Array([0, 1, 2]));
  });

  it('de-normalises unorm8 / unorm16 texture coordinates', async () => {
    for (const [array, max] of [[new Uint8Array([0, 255, 51, 102, 255, 0, 0, 0]), 255], [new Uint16Array([0, 65535, 13107, 26214, 65535, 0, 0, 0]), 65535]] as const) {
      const b = meshModel([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1], (builder, POSITION) => ({
        attributes: { POSITION, TEXCOORD_0: builder.accessor(array, 'VEC2', { normalized: true }) }, indices: builder.accessor(new Uint8Array([0, 1, 2]), 'SCALAR'),
      }));
      const uvs = (await parseGltf('uv.gltf', b.gltf())).meshes[0].primitives[0].uvs!;
      expect(uvs).toEqual(new Float32Array([...array].map((c) => c / max)));
    }
  });

  it('uses Uint32 indices past 65 536 vertices', async () => {
    const vertexCount = 65537 + 2;
    const positions = new Float32Array(3 * vertexCount);
    for (let v = 0; v < vertexCount; v++) positions[3 * v] = v;
    const b = new GltfBuilder();
    const POSITION = b.accessor(positions, 'VEC3');
    const indices = b.accessor(new Uint32Array([0, 65537, 65538]), 'SCALAR');
    b.json.nodes = [{ mesh: 0 }];
    b.json.meshes = [{ primitives: [{ attributes: { POSITION }, indices }] }];
    const primitive = (await parseGltf('big.glb', b.glb())).meshes[0].primitives[0];
    expect(primitive.indices).toEqual(new Uint32Array([0, 65537, 65538]));
  });

  it('keeps u16 joints past 255 as Uint16Array; a skinned mesh on a node without skin is drawn rigid', async () => {
    const b = meshModel([0, 0, 0, 1, 0, 0, 0, 1, 0], (builder, POSITION) => ({
      attributes: {
        POSITION,
        JOINTS_0: builder.accessor(new Uint16Array([300, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]), 'VEC4'),
        WEIGHTS_0: builder.accessor(new Uint16Array([65535, 0, 0, 0, 65535, 0, 0, 0, 32768, 32767, 0, 0]), 'VEC4', { normalized: true }),
      },
    }));
    const asset = await parseGltf('rigid.gltf', b.gltf());
    const primitive = asset.meshes[0].primitives[0];
    expect(primitive.joints).toEqual(new Uint16Array([300, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]));
    expect(primitive.weights).toEqual(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 32768 / 65535, 32767 / 65535, 0, 0]));
    expect(asset.meshInstances[0].skin).toBe(-1);
    expect(asset.warnings).toEqual(['rigid.gltf: node 0 carries mesh 0, which has JOINTS_0/WEIGHTS_0, without a skin; drawn rigid']);
  });

  it('decomposes matrix nodes into TRS that rebuild the matrix', async () => {
    const expected = mat4.fromRotationTranslationScale(mat4.create(), quat.setAxisAngle(quat.create(), vec3.normalize(vec3.create(), [1, 2, 3]), 0.7), [4, 5, 6], [2, 3, 0.5]);
    const b = meshModel([0, 0, 0, 1, 0, 0, 0, 1, 0], (_, POSITION) => ({ attributes: { POSITION } }));
    b.json.nodes[0].matrix = [...expected];
    const { restPose } = await parseGltf('matrix.gltf', b.gltf());
    const rebuilt = mat4.fromRotationTranslationScale(mat4.create(), restPose.rotations as unknown as quat, restPose.translations as unknown as vec3, restPose.scales as unknown as vec3);
    for (let k = 0; k < 16; k++) expect(rebuilt[k]).toBeCloseTo(expected[k], 5);
    expect([...restPose.translations]).toEqual([4, 5, 6]);
    expect(restPose.scales[0]).toBeCloseTo(2, 5);
    expect(restPose.scales[1]).toBeCloseTo(3, 5);
    expect(restPose.scales[2]).toBeCloseTo(0.5, 5);
  });

  it('refuses a weights channel on a node whose mesh has no morph targets; an unnamed clip is `animation N`', async () => {
    const b = skinnedQuad();
    delete b.json.animations[0].name;
    expect((await parseGltf('quad.gltf', b.gltf())).clips[0].name).toBe('animation 0');
    b.json.animations[0].channels.push({ sampler: 0, target: { node: 1, path: 'weights' } });
    const error = await loadErrorOf(parseGltf('morph.gltf', b.gltf()));
    expect(error.where).toBe('/animations/0/channels/1/target/node');
    expect(error.code).toBe('ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS');
  });

  it('materials: factor, texture through textures[].source, double-sided; images keep their bytes and type', async () => {
    const b = skinnedQuad();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const jpegView = b.bufferView(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9]));
    b.json.images = [{ uri: `data:image/png;base64,${Buffer.from(png).toString('base64')}` }, { bufferView: jpegView, mimeType: 'image/jpeg', name: 'skin' }];
    b.json.textures = [{ source: 1 }, { source: 0 }];
    b.json.materials = [{ name: 'm', pbrMetallicRoughness: { baseColorFactor: [0.5, 0.25, 1, 0.75], baseColorTexture: { index: 0 } }, doubleSided: true }];
    b.json.meshes[0].primitives[0].material = 0;
    const asset = await parseGltf('mat.gltf', b.gltf());
    expect(asset.materials).toEqual([{ ...DEFAULT_MATERIAL, name: 'm', baseColorFactor: [0.5, 0.25, 1, 0.75], baseColorTexture: 1, doubleSided: true }]);
    expect(asset.images.map((i) => [i.name, i.mimeType, [...i.data]])).toEqual([
      ['image 0', 'image/png', [...png]],
      ['skin', 'image/jpeg', [0xff, 0xd8, 0xff, 0xe0, 9]],
    ]);
    expect(asset.warnings).toEqual([]);
  });

  it('materials: alphaMode BLEND is kept, with no warning; a texture on TEXCOORD_1 names set 1', async () => {
    const b = skinnedQuad();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    b.json.images = [{ uri: `data:image/png;base64,${Buffer.from(png).toString('base64')}` }];
    b.json.textures = [{ source: 0 }];
    b.json.materials = [{ pbrMetallicRoughness: { baseColorTexture: { index: 0, texCoord: 1 } }, alphaMode: 'BLEND' }];
    b.json.meshes[0].primitives[0].material = 0;
    const asset = await parseGltf('alpha.gltf', b.gltf());
    expect(asset.materials[0]).toMatchObject({ baseColorTexture: 0, baseColorUv: { texCoord: 1 }, alphaMode: 'BLEND' });
    expect(asset.warnings).toEqual([]);
  });

  it('reads bytes at an odd offset inside a larger buffer (e.g. a pooled node Buffer)', async () => {
    const glb = skinnedQuad().glb();
    const host = new Uint8Array(glb.length + 3);
    host.set(glb, 1);
    const asset = await parseGltf('offset.glb', host.subarray(1, 1 + glb.length));
    expect(asset.meshes[0].primitives[0].vertexCount).toBe(4);
  });

  it('a skin on a node whose mesh has no JOINTS_0/WEIGHTS_0 is drawn rigid with a warning', async () => {
    const b = skinnedQuad();
    const attributes = b.json.meshes[0].primitives[0].attributes;
    delete attributes.JOINTS_0;
    delete attributes.WEIGHTS_0;
    const asset = await parseGltf('noskin.gltf', b.gltf());
    expect(asset.meshInstances[0].skin).toBe(-1);
    expect(asset.meshes[0].primitives[0].joints).toBeNull();
    expect(asset.warnings).toEqual(['noskin.gltf: node 1 has skin 0 but mesh 0 has no JOINTS_0/WEIGHTS_0; drawn rigid']);
  });
});
