import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { LoadError } from '../../../src/loaders/load-error.ts';
import { skinnedQuad, type GltfBuilder } from '../helpers/gltf-builder.ts';
import { sharedAssets } from '../../helpers/shared-assets.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';

const text = (s: string) => new TextEncoder().encode(s);

/**
 * Loads the quad after `breakIt` edits its JSON; the promise must reject with a LoadError about `fileName` at
 * `where` with `code`. Returns its message.
 */
async function rejectsAfter(breakIt: (b: GltfBuilder) => void, where: string | null, code: string, fileName = 'quad.gltf'): Promise<string> {
  const builder = skinnedQuad();
  breakIt(builder);
  const bytes = fileName.endsWith('.glb') ? builder.glb() : builder.gltf();
  const error = await loadErrorOf(parseGltf(fileName, bytes));
  expect({ file: error.file, where: error.where, code: error.code }).toEqual({ file: fileName, where, code });
  expect(error.message.startsWith(`${fileName}: `)).toBe(true);
  return error.message;
}

/** `[where, code]` of the LoadError `promise` rejects with. */
async function placeAndCode(promise: Promise<unknown>): Promise<[string | null, string]> {
  const error = await loadErrorOf(promise);
  return [error.where, error.code];
}

describe('parseGltf on malformed input', () => {
  it('the unbroken quad loads (so each failure below is due to its one change)', async () => {
    await expect(parseGltf('quad.gltf', skinnedQuad().gltf())).resolves.toBeTruthy();
    await expect(parseGltf('quad.glb', skinnedQuad().glb())).resolves.toBeTruthy();
  });

  it('bad JSON', async () => {
    await expect(parseGltf('bad.gltf', text('{"asset": {"version": "2.0"},'))).rejects.toThrow(/^bad\.gltf: file is not valid JSON/);
    await expect(parseGltf('bad.gltf', text('[1, 2]'))).rejects.toThrow(/^bad\.gltf: .*not a JSON object/);
    await expect(parseGltf('bad.gltf', new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x12]))).rejects.toThrow(/^bad\.gltf: /);
    await expect(parseGltf('empty.gltf', new Uint8Array(0))).rejects.toThrow(/^empty\.gltf: /);
    await expect(parseGltf('old.gltf', text('{"asset": {"version": "1.0"}}'))).rejects.toThrow('old.gltf: /asset/version is "1.0"; only glTF 2.0 is supported');
    await expect(parseGltf('none.gltf', text('{"nodes": []}'))).rejects.toThrow('none.gltf: /asset is missing');
    expect(await placeAndCode(parseGltf('bad.gltf', text('{"asset": {"version": "2.0"},')))).toEqual([null, 'INVALID_JSON']);
    expect(await placeAndCode(parseGltf('bad.gltf', text('[1, 2]')))).toEqual([null, 'INVALID_JSON']);
    expect(await placeAndCode(parseGltf('bad.gltf', new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x12])))).toEqual([null, 'INVALID_JSON']);
    expect(await placeAndCode(parseGltf('old.gltf', text('{"asset": {"version": "1.0"}}')))).toEqual(['/asset/version', 'UNKNOWN_ASSET_MAJOR_VERSION']);
    expect(await placeAndCode(parseGltf('none.gltf', text('{"nodes": []}')))).toEqual(['/asset', 'UNDEFINED_PROPERTY']);
  });

  it('truncated GLB, at every length', async () => {
    const glb = skinnedQuad().glb();
    for (const length of [4, 12, 19, 20, 40, glb.length >> 1, glb.length - 4, glb.length - 1]) {
      await expect(parseGltf('cut.glb', glb.slice(0, length))).rejects.toThrow(/^cut\.glb: /);
    }
    await expect(parseGltf('cut.glb', glb.slice(0, glb.length - 1))).rejects.toThrow(`cut.glb: GLB is truncated: header declares ${glb.length} bytes, file has ${glb.length - 1}`);
    expect(await placeAndCode(parseGltf('cut.glb', glb.slice(0, glb.length - 1)))).toEqual([`byte ${glb.length - 1}`, 'GLB_UNEXPECTED_END_OF_CHUNK_DATA']);
    expect(await placeAndCode(parseGltf('cut.glb', glb.slice(0, 4)))).toEqual(['byte 4', 'GLB_UNEXPECTED_END_OF_HEADER']);
    expect(await placeAndCode(parseGltf('cut.glb', glb.slice(0, 19)))).toEqual(['byte 19', 'GLB_UNEXPECTED_END_OF_CHUNK_HEADER']);
    const error = await loadErrorOf(parseGltf('cut.glb', glb.slice(0, 40)));
    expect(error.file).toBe('cut.glb');
  });

  it.skipIf(!sharedAssets())('truncated Fox.glb', async () => {
    const fox = new Uint8Array(readFileSync(join(sharedAssets()!, 'gltf/Fox.glb')));
    await expect(parseGltf('Fox.glb', fox.slice(0, 50_000))).rejects.toThrow(/^Fox\.glb: GLB is truncated/);
  });

  it('GLB with a wrong version or a chunk running past the end', async () => {
    const wrongVersion = skinnedQuad().glb();
    new DataView(wrongVersion.buffer).setUint32(4, 1, true);
    await expect(parseGltf('v1.glb', wrongVersion)).rejects.toThrow('v1.glb: GLB header declares version 1');
    expect(await placeAndCode(parseGltf('v1.glb', wrongVersion))).toEqual(['byte 4', 'GLB_INVALID_VERSION']);
    const longChunk = skinnedQuad().glb();
    new DataView(longChunk.buffer).setUint32(12, 1 << 30, true);
    await expect(parseGltf('long.glb', longChunk)).rejects.toThrow(/^long\.glb: GLB chunk 0 .* runs past/);
    expect(await placeAndCode(parseGltf('long.glb', longChunk))).toEqual(['byte 12', 'GLB_CHUNK_TOO_BIG']);
  });

  it('skin joint index that is not a node', async () => {
    const message = await rejectsAfter((b) => { b.json.skins[0].joints[1] = 41; }, '/skins/0/joints/1', 'UNRESOLVED_REFERENCE');
    expect(message).toBe('quad.gltf: /skins/0/joints/1 is not a node (41 of 3)');
  });

  it('JOINTS value past the skin\'s joint list', async () => {
    const message = await rejectsAfter((b) => {
      const joints = b.accessor(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5, 0, 0]), 'VEC4');
      b.json.meshes[0].primitives[0].attributes.JOINTS_0 = joints;
    }, null, 'ACCESSOR_JOINTS_INDEX_OOB', 'quad.glb');
    expect(message).toBe("quad.glb: mesh 0 primitive 0 vertex 3 influence 1 names joint 5 of skin 0's 2");
  });

  it('a zero-weight influence may name any joint', async () => {
    const builder = skinnedQuad();
    builder.json.meshes[0].primitives[0].attributes.JOINTS_0 =
      builder.accessor(new Uint8Array([0, 9, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]), 'VEC4');
    const asset = await parseGltf('quad.gltf', builder.gltf());
    expect([...asset.meshes[0].primitives[0].joints!.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
  });

  it('references out of range', async () => {
    expect(await rejectsAfter((b) => { b.json.nodes[1].mesh = 3; }, '/nodes/1/mesh', 'UNRESOLVED_REFERENCE')).toBe('quad.gltf: /nodes/1/mesh is not a mesh (3 of 1)');
    expect(await rejectsAfter((b) => { b.json.nodes[2].children = [7]; }, '/nodes/2/children/0', 'UNRESOLVED_REFERENCE')).toBe('quad.gltf: /nodes/2/children/0 is not a node (7 of 3)');
    expect(await rejectsAfter((b) => { b.json.meshes[0].primitives[0].indices = 99; }, '/meshes/0/primitives/0/indices', 'UNRESOLVED_REFERENCE')).toMatch(/^quad\.gltf: \/meshes\/0\/primitives\/0\/indices is not an accessor/);
    expect(await rejectsAfter((b) => { b.json.animations[0].channels[0].sampler = 1; }, '/animations/0/channels/0/sampler', 'UNRESOLVED_REFERENCE')).toMatch(/\/animations\/0\/channels\/0\/sampler is not a sampler/);
    expect(await rejectsAfter((b) => { b.json.accessors[0].bufferView = 50; }, '/accessors/0/bufferView', 'UNRESOLVED_REFERENCE')).toMatch(/\/accessors\/0\/bufferView is not a bufferView/);
    expect(await rejectsAfter((b) => { b.json.nodes[1].skin = -1; }, '/nodes/1/skin', 'INVALID_INDEX')).toMatch(/\/nodes\/1\/skin is not a skin/);
    expect(await rejectsAfter((b) => { b.json.nodes[1].skin = 'zero'; }, '/nodes/1/skin', 'INVALID_INDEX')).toBe('quad.gltf: /nodes/1/skin is "zero", not an index');
  });

  it('accessor or buffer view past its end', async () => {
    expect(await rejectsAfter((b) => { b.json.accessors[0].count = 5; }, '/accessors/0', 'ACCESSOR_TOO_LONG')).toMatch(/^quad\.gltf: \/accessors\/0 needs 60 bytes of bufferView 0, which has 48/);
    expect(await rejectsAfter((b) => { b.json.bufferViews[0].byteLength += 10_000; }, '/bufferViews/0', 'BUFFER_VIEW_TOO_LONG')).toMatch(/^quad\.gltf: \/bufferViews\/0 spans bytes/);
  });

  it('node hierarchy that is not a forest', async () => {
    expect(await rejectsAfter((b) => { b.json.nodes[0].children = [2]; }, '/nodes', 'NODE_LOOP')).toBe('quad.gltf: /nodes 0, 2 form a cycle (no root above them)');
    expect(await rejectsAfter((b) => { b.json.nodes[1].children = [0]; }, '/nodes/2/children/0', 'NODE_PARENT_OVERRIDE')).toBe('quad.gltf: /nodes/2/children/0 names node 0, already a child of node 1');
    expect(await rejectsAfter((b) => { b.json.nodes[0].children = [0]; }, '/nodes/0/children/0', 'NODE_LOOP')).toBe('quad.gltf: /nodes/0/children/0 is the node itself');
  });

  it('bad animation samplers', async () => {
    expect(await rejectsAfter((b) => {
      b.json.animations[0].samplers[0].input = b.accessor(new Float32Array([1, 0]), 'SCALAR');
    }, '/animations/0/samplers/0/input', 'ACCESSOR_ANIMATION_INPUT_NON_INCREASING')).toBe('quad.gltf: /animations/0/samplers/0/input key times are not strictly increasing at key 1 (1 then 0)');
    expect(await rejectsAfter((b) => {
      b.json.animations[0].samplers[0].input = b.accessor(new Float32Array([0, 1, 2]), 'SCALAR');
    }, '/animations/0/samplers/0/output', 'ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT')).toBe('quad.gltf: /animations/0/samplers/0/output has 2 elements; a LINEAR sampler with 3 keys needs 3');
    expect(await rejectsAfter((b) => { b.json.animations[0].samplers[0].interpolation = 'CUBICSPLINE'; }, '/animations/0/samplers/0/output', 'ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT'))
      .toBe('quad.gltf: /animations/0/samplers/0/output has 2 elements; a CUBICSPLINE sampler with 2 keys needs 6');
    expect(await rejectsAfter((b) => { b.json.animations[0].samplers[0].interpolation = 'SMOOTH'; }, '/animations/0/samplers/0/interpolation', 'VALUE_NOT_IN_LIST'))
      .toBe('quad.gltf: /animations/0/samplers/0/interpolation is "SMOOTH", not LINEAR, STEP or CUBICSPLINE');
    expect(await rejectsAfter((b) => { b.json.animations[0].channels[0].target.path = 'translation'; }, '/animations/0/samplers/0/output', 'ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT'))
      .toBe('quad.gltf: /animations/0/samplers/0/output uses accessor 6 of type VEC4; expected VEC3');
  });

  it('NaN or ±∞ in any float accessor Sinew reads (positions, inverse binds, keys) names accessor, element and component', async () => {
    const cases: [(b: any) => void, string][] = [
      [(b) => { b.json.meshes[0].primitives[0].attributes.POSITION = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, 0, NaN, 0, 1, 1, 0]), 'VEC3'); },
        'quad.gltf: /meshes/0/primitives/0/attributes/POSITION uses accessor 7, whose element 2 component 1 is NaN (float components must be finite)'],
      [(b) => { const m = new Float32Array(32); m.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, Infinity, 0, 1]); b.json.skins[0].inverseBindMatrices = b.accessor(m, 'MAT4'); },
        'quad.gltf: /skins/0/inverseBindMatrices uses accessor 7, whose element 1 component 13 is Infinity (float components must be finite)'],
      [(b) => { b.json.animations[0].samplers[0].output = b.accessor(new Float32Array([0, 0, 0, 1, 0, 0, -Infinity, 1]), 'VEC4'); },
        'quad.gltf: /animations/0/samplers/0/output uses accessor 7, whose element 1 component 2 is -Infinity (float components must be finite)'],
    ];
    for (const [mutate, message] of cases) {
      expect(await rejectsAfter(mutate, message.slice('quad.gltf: '.length, message.indexOf(' uses')), 'ACCESSOR_INVALID_FLOAT')).toBe(message);
    }
  });

  it('negative or NaN weights (glTF 2.0 §3.7.3.2: weights must not be negative)', async () => {
    for (const bad of [-0.5, NaN]) {
      expect(await rejectsAfter((b) => {
        b.json.meshes[0].primitives[0].attributes.WEIGHTS_0 = b.accessor(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1.5, bad, 0, 0, 0.5, 0.5, 0, 0]), 'VEC4');
      }, '/meshes/0/primitives/0/attributes/WEIGHTS_0', bad < 0 ? 'ACCESSOR_WEIGHTS_NEGATIVE' : 'ACCESSOR_INVALID_FLOAT')).toBe(bad < 0
        ? `quad.gltf: /meshes/0/primitives/0/attributes/WEIGHTS_0 vertex 2 component 1 is ${bad}; weights must be finite and not negative`
        // A NaN is refused where any float accessor is read, before the weight rules.
        : `quad.gltf: /meshes/0/primitives/0/attributes/WEIGHTS_0 uses accessor 7, whose element 2 component 1 is NaN (float components must be finite)`);
    }
  });

  it('inverse bind matrices: projective (bottom row not 0 0 0 1)', async () => {
    const projective = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1]);
    expect(await rejectsAfter((b) => { b.json.skins[0].inverseBindMatrices = b.accessor(projective, 'MAT4'); }, '/skins/0/inverseBindMatrices/1', 'ACCESSOR_INDECOMPOSABLE_MATRIX'))
      .toMatch(/^quad\.gltf: \/skins\/0\/inverseBindMatrices\/1 is not affine: its bottom row is 0\.5 0 0 1, not 0 0 0 1$/);
  });

  it('inverse bind matrices: too few, or not MAT4', async () => {
    expect(await rejectsAfter((b) => { b.json.skins[0].joints.push(1); }, '/skins/0/inverseBindMatrices', 'INVALID_IBM_ACCESSOR_COUNT'))
      .toBe('quad.gltf: /skins/0/inverseBindMatrices (accessor 4) has 2 matrices for 3 joints');
    expect(await rejectsAfter((b) => { b.json.skins[0].inverseBindMatrices = 0; }, '/skins/0/inverseBindMatrices', 'SKIN_IBM_INVALID_FORMAT'))
      .toBe('quad.gltf: /skins/0/inverseBindMatrices uses accessor 0 of type VEC3; expected MAT4');
  });

  it('bad primitives', async () => {
    expect(await rejectsAfter((b) => { delete b.json.meshes[0].primitives[0].attributes.POSITION; }, '/meshes/0/primitives/0/attributes/POSITION', 'MESH_PRIMITIVE_NO_POSITION'))
      .toBe('quad.gltf: /meshes/0/primitives/0/attributes/POSITION is missing');
    expect(await rejectsAfter((b) => { b.json.meshes[0].primitives[0].indices = b.accessor(new Uint16Array([0, 1, 4]), 'SCALAR'); }, '/meshes/0/primitives/0/indices', 'ACCESSOR_INDEX_OOB'))
      .toBe('quad.gltf: /meshes/0/primitives/0/indices element 2 is 4, past the 4 vertices');
    expect(await rejectsAfter((b) => { b.json.meshes[0].primitives[0].indices = b.accessor(new Uint16Array([0, 1, 2, 3]), 'SCALAR'); }, '/meshes/0/primitives/0', 'MESH_PRIMITIVE_INCOMPATIBLE_MODE'))
      .toBe('quad.gltf: /meshes/0/primitives/0 is TRIANGLES with 4 indices, not a multiple of 3');
    expect(await rejectsAfter((b) => { b.json.meshes[0].primitives[0].attributes.WEIGHTS_0 = b.accessor(new Float32Array(12), 'VEC4'); }, '/meshes/0/primitives/0/attributes/WEIGHTS_0', 'MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT'))
      .toBe('quad.gltf: /meshes/0/primitives/0/attributes/WEIGHTS_0 has 3 elements, POSITION has 4');
    expect(await rejectsAfter((b) => { b.json.meshes[0].primitives[0].attributes.WEIGHTS_0 = b.accessor(new Uint8Array(16), 'VEC4'); }, '/meshes/0/primitives/0/attributes/WEIGHTS_0', 'MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT'))
      .toBe('quad.gltf: /meshes/0/primitives/0/attributes/WEIGHTS_0 uses accessor 7 of UNSIGNED_BYTE; allowed: FLOAT, normalized UNSIGNED_BYTE, normalized UNSIGNED_SHORT');
    expect(await rejectsAfter((b) => { b.json.meshes[0].primitives[0].attributes.JOINTS_1 = 2; }, '/meshes/0/primitives/0/attributes', 'MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH'))
      .toBe('quad.gltf: /meshes/0/primitives/0/attributes has 2 JOINTS_n sets but 1 WEIGHTS_n sets');
  });

  it('a required extension, a missing external buffer, a short data URI buffer', async () => {
    expect(await rejectsAfter((b) => { b.json.extensionsRequired = ['EXT_mesh_gpu_instancing']; }, '/extensionsRequired', 'UNSUPPORTED_EXTENSION'))
      .toBe('quad.gltf: /extensionsRequired names "EXT_mesh_gpu_instancing", which Sinew does not support');
    await expect(parseGltf('ext.gltf', skinnedQuad().gltf('quad%20data.bin'), {}))
      .rejects.toThrow("ext.gltf: /buffers/0 names external file \"quad%20data.bin\", which was not supplied among the resources");
    expect(await placeAndCode(parseGltf('ext.gltf', skinnedQuad().gltf('quad%20data.bin'), {}))).toEqual(['/buffers/0', 'FILE_NOT_FOUND']);
    const json = JSON.parse(new TextDecoder().decode(skinnedQuad().gltf()));
    json.buffers[0].byteLength += 100;
    await expect(parseGltf('short.gltf', text(JSON.stringify(json)))).rejects.toThrow(/^short\.gltf: \/buffers\/0 declares \d+ bytes but has \d+/);
    expect(await placeAndCode(parseGltf('short.gltf', text(JSON.stringify(json))))).toEqual(['/buffers/0', 'BUFFER_EMBEDDED_BYTELENGTH_MISMATCH']);
  });

  it('random bytes never hang and always name the file', async () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const glb = skinnedQuad().glb();
    for (let trial = 0; trial < 200; trial++) {
      const bytes = glb.slice();
      // Flip a few bytes anywhere (header, JSON, BIN): the result either loads or throws naming the file.
      for (let k = 0; k < 3; k++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      try {
        await parseGltf('noise.glb', bytes);
      } catch (error) {
        // Whatever breaks (container, JSON, accessor data, gltf-transform itself): a LoadError naming the file.
        expect(error).toBeInstanceOf(LoadError);
        expect((error as LoadError).file).toBe('noise.glb');
        expect((error as Error).message).toMatch(/^noise\.glb: /);
      }
    }
  });
});
