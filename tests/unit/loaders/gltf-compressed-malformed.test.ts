/**
 * Compressed streams that are damaged after a real encoder wrote them — cut short, overwritten, or disagreeing
 * with the accessor counts — end in one LoadError naming the file and the extension's JSON pointer, print
 * nothing (the Emscripten and WebAssembly decoders are silenced), and leave the decoders working for the next file.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';
import { compressModel } from '../helpers/compress-model.ts';
import { skinnedQuad } from '../helpers/gltf-builder.ts';
import { loadErrorOf } from '../helpers/load-error-of.ts';

/** A `.glb`'s JSON and BIN chunk, and a writer back to `.glb`. */
function splitGlb(glb: Uint8Array): { json: any; bin: Uint8Array; write(json: any, bin?: Uint8Array): Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const bin = glb.slice(28 + jsonLength, 28 + jsonLength + view.getUint32(20 + jsonLength, true));
  const write = (out: any, outBin = bin): Uint8Array => {
    const text = new TextEncoder().encode(JSON.stringify(out));
    const jsonPadded = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20);
    jsonPadded.set(text);
    const total = 12 + 8 + jsonPadded.length + 8 + outBin.length;
    const bytes = new Uint8Array(total);
    const dv = new DataView(bytes.buffer);
    dv.setUint32(0, 0x46546c67, true); dv.setUint32(4, 2, true); dv.setUint32(8, total, true);
    dv.setUint32(12, jsonPadded.length, true); dv.setUint32(16, 0x4e4f534a, true);
    bytes.set(jsonPadded, 20);
    dv.setUint32(20 + jsonPadded.length, outBin.length, true); dv.setUint32(24 + jsonPadded.length, 0x004e4942, true);
    bytes.set(outBin, 28 + jsonPadded.length);
    return bytes;
  };
  return { json, bin, write };
}

let consoleCalls: MockInstance[] = [];
beforeEach(() => { consoleCalls = (['log', 'warn', 'error', 'info', 'debug'] as const).map((name) => vi.spyOn(console, name)); });
afterEach(() => {
  for (const spy of consoleCalls) expect(spy).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

describe('KHR_draco_mesh_compression streams that lie', () => {
  const DRACO = '/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression';

  it('cut short, or every byte after the header overwritten: COMPRESSED_DATA_INVALID at the primitive, and the decoder still works after', async () => {
    const glb = await compressModel(skinnedQuad().glb(), 'draco');
    const { json, bin, write } = splitGlb(glb);
    const view = json.bufferViews[json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView];
    const start = view.byteOffset ?? 0;
    for (const damage of ['truncate', 'overwrite'] as const) {
      for (const keep of [8, 16, Math.floor(view.byteLength / 2)]) {
        const broken = bin.slice();
        const out = structuredClone(json);
        if (damage === 'truncate') out.bufferViews[json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView].byteLength = keep;
        else for (let i = start + keep; i < start + view.byteLength; i++) broken[i] = (i * 151) & 0xff;
        const error = await loadErrorOf(parseGltf('damaged.glb', write(out, broken)));
        expect([error.file, error.where, error.code], `${damage} after ${keep} bytes: ${error.message}`).toEqual(['damaged.glb', DRACO, 'COMPRESSED_DATA_INVALID']);
        expect(error.message.length).toBeLessThan(300);
      }
    }
    expect((await parseGltf('quad-draco.glb', glb)).meshes[0].primitives[0].vertexCount).toBe(4);
  });

  it('with several compressed primitives, the damaged one is named', async () => {
    const b = skinnedQuad();
    const position = b.accessor(new Float32Array([0, 0, 1, 2, 0, 1, 0, 2, 1, 2, 2, 1, 1, 1, 1]), 'VEC3', { min: [0, 0, 1], max: [2, 2, 1] });
    const joints = b.accessor(new Uint8Array(20), 'VEC4');
    const weights = b.accessor(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), 'VEC4');
    const indices = b.accessor(new Uint16Array([0, 1, 4, 1, 3, 4, 3, 2, 4]), 'SCALAR');
    b.json.meshes[0].primitives.push({ attributes: { POSITION: position, JOINTS_0: joints, WEIGHTS_0: weights }, indices });
    const glb = await compressModel(b.glb(), 'draco');
    const { json, bin, write } = splitGlb(glb);
    const streams = json.meshes[0].primitives.map((p: any) => p.extensions.KHR_draco_mesh_compression.bufferView);
    expect(new Set(streams).size).toBe(2);
    for (const damaged of [0, 1]) {
      const view = json.bufferViews[streams[damaged]];
      const broken = bin.slice();
      broken.fill(0xee, (view.byteOffset ?? 0) + 8, (view.byteOffset ?? 0) + view.byteLength);
      const error = await loadErrorOf(parseGltf('two.glb', write(json, broken)));
      expect([error.where, error.code], error.message).toEqual([`/meshes/0/primitives/${damaged}/extensions/KHR_draco_mesh_compression`, 'COMPRESSED_DATA_INVALID']);
    }
    expect((await parseGltf('two.glb', glb)).meshes[0].primitives.map((p) => p.vertexCount).sort()).toEqual([4, 5]);
  });

  it('files read at the same time: each checked against its own JSON, a damaged one named, the others load', async () => {
    const glb = await compressModel(skinnedQuad().glb(), 'draco');
    const { json, bin, write } = splitGlb(glb);
    const view = json.bufferViews[json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView];
    const broken = bin.slice();
    broken.fill(0xee, (view.byteOffset ?? 0) + 8, (view.byteOffset ?? 0) + view.byteLength);
    const damaged = write(json, broken);
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => parseGltf(`file${i}.glb`, i % 2 ? damaged : glb)
      .then((asset) => `${asset.name} ${asset.meshes[0].primitives[0].vertexCount}`, (error) => `${error.file} ${error.where} ${error.code}`)));
    expect(outcomes).toEqual(Array.from({ length: 6 }, (_, i) => (i % 2
      ? `file${i}.glb /meshes/0/primitives/0/extensions/KHR_draco_mesh_compression COMPRESSED_DATA_INVALID`
      : `file${i}.glb 4`)));
  });

  it('an accessor count other than the decoded point or index count: COMPRESSED_DATA_INVALID before anything is copied out', async () => {
    const glb = await compressModel(skinnedQuad().glb(), 'draco');
    const { json, write } = splitGlb(glb);
    const primitive = json.meshes[0].primitives[0];
    const points = structuredClone(json);
    points.accessors[primitive.attributes.POSITION].count = 3;
    const error = await loadErrorOf(parseGltf('count.glb', write(points)));
    expect([error.where, error.code]).toEqual([DRACO, 'COMPRESSED_DATA_INVALID']);
    expect(error.problem).toMatch(/^decodes 4 vertices; the \w+ accessor has count 3$/);
    const indices = structuredClone(json);
    indices.accessors[primitive.indices].count = 3;
    expect((await loadErrorOf(parseGltf('indices.glb', write(indices)))).problem).toBe('decodes 2 triangles (6 indices); the indices accessor has count 3');
    const id = structuredClone(json);
    id.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.attributes.POSITION = 17;
    expect((await loadErrorOf(parseGltf('id.glb', write(id)))).problem).toBe('names Draco attribute 17 for POSITION, which the stream does not have');
  });
});

describe('EXT_meshopt_compression streams that lie', () => {
  it('cut short or overwritten: COMPRESSED_DATA_INVALID at the buffer view, and the decoder still works after', async () => {
    const glb = await compressModel(skinnedQuad().glb(), 'meshopt');
    const { json, bin, write } = splitGlb(glb);
    const compressed = json.bufferViews.map((view: any, i: number) => [view, i]).filter(([view]: any) => view.extensions?.EXT_meshopt_compression);
    expect(compressed.length).toBeGreaterThan(0);
    for (const [view, i] of compressed) {
      const extension = view.extensions.EXT_meshopt_compression;
      const cut = structuredClone(json);
      cut.bufferViews[i].extensions.EXT_meshopt_compression.byteLength = Math.max(1, extension.byteLength >> 1);
      const overwritten = bin.slice();
      overwritten.fill(0xff, extension.byteOffset ?? 0, (extension.byteOffset ?? 0) + extension.byteLength);
      for (const bytes of [write(cut), write(json, overwritten)]) {
        const error = await loadErrorOf(parseGltf('damaged.glb', bytes));
        expect([error.file, error.where, error.code], error.message).toEqual(['damaged.glb', `/bufferViews/${i}/extensions/EXT_meshopt_compression`, 'COMPRESSED_DATA_INVALID']);
      }
    }
    expect((await parseGltf('quad-meshopt.glb', glb)).meshes[0].primitives[0].vertexCount).toBe(4);
  });
});

describe('the memory budget counts decoded sizes', () => {
  it('meshopt: the views decode to more than the budget → MEMORY_BUDGET_EXCEEDED at a view, before decoding; Draco: at an accessor count', async () => {
    const quad = skinnedQuad().glb();
    const meshopt = await compressModel(quad, 'meshopt');
    const views = splitGlb(meshopt).json.bufferViews.map((view: any) => view.extensions?.EXT_meshopt_compression).filter(Boolean);
    const decodedBytes = views.reduce((sum: number, view: any) => sum + view.count * view.byteStride, 0);
    expect((await parseGltf('meshopt.glb', meshopt, undefined, { memoryBudgetBytes: decodedBytes })).meshes).toHaveLength(1);
    const error = await loadErrorOf(parseGltf('meshopt.glb', meshopt, undefined, { memoryBudgetBytes: decodedBytes - 1 }));
    expect([error.code, error.where]).toEqual(['MEMORY_BUDGET_EXCEEDED', expect.stringMatching(/^\/bufferViews\/\d+\/extensions\/EXT_meshopt_compression\/count$/)]);
    const draco = await compressModel(quad, 'draco');
    const dracoError = await loadErrorOf(parseGltf('draco.glb', draco, undefined, { memoryBudgetBytes: 64 }));
    expect([dracoError.code, dracoError.where]).toEqual(['MEMORY_BUDGET_EXCEEDED', expect.stringMatching(/^\/accessors\/\d+\/count$/)]);
  });
});
