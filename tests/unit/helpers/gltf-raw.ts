import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A test-side reading of a glTF file, written independently of src/loaders/gltf so tests compare the
 * loader against the file itself: the JSON (from the GLB JSON chunk or the .gltf text) and each buffer's
 * bytes (GLB BIN chunk, base64 data URI, or the sibling file).
 */
export interface RawGltf {
  json: any; // the file's JSON, untyped on purpose: tests read it as the spec describes it
  buffers: Buffer[];
}

/** Reads `path` (.glb or .gltf) and its buffers with node's Buffer. */
export function readRawGltf(path: string): RawGltf {
  const file = readFileSync(path);
  let json;
  let bin: Buffer | null = null;
  if (file.readUInt32LE(0) === 0x46546c67) {
    const jsonLength = file.readUInt32LE(12);
    json = JSON.parse(file.subarray(20, 20 + jsonLength).toString('utf8'));
    const binStart = 20 + jsonLength;
    if (binStart + 8 <= file.length) bin = file.subarray(binStart + 8, binStart + 8 + file.readUInt32LE(binStart));
  } else {
    json = JSON.parse(file.toString('utf8'));
  }
  const buffers = (json.buffers ?? []).map((buffer: { uri?: string }) => {
    if (buffer.uri === undefined) return bin!;
    if (buffer.uri.startsWith('data:')) return Buffer.from(buffer.uri.slice(buffer.uri.indexOf(',') + 1), 'base64');
    return readFileSync(join(dirname(path), decodeURIComponent(buffer.uri)));
  });
  return { json, buffers };
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

/**
 * The stored components of accessor `index` as numbers, exactly as in the bytes (no de-normalisation),
 * honouring byteOffset and byteStride. Sparse accessors are not supported (none of the test models has one).
 */
export function rawAccessor(raw: RawGltf, index: number): number[] {
  const accessor = raw.json.accessors[index];
  if (accessor.sparse) throw new Error('rawAccessor: sparse accessors are not supported');
  const view = raw.json.bufferViews[accessor.bufferView];
  const buffer = raw.buffers[view.buffer];
  const components = COMPONENTS[accessor.type];
  const size = BYTES[accessor.componentType];
  const stride = view.byteStride ?? components * size;
  const base = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  const out: number[] = [];
  for (let i = 0; i < accessor.count; i++) {
    for (let c = 0; c < components; c++) {
      const at = base + i * stride + c * size;
      switch (accessor.componentType) {
        case 5120: out.push(buffer.readInt8(at)); break;
        case 5121: out.push(buffer.readUInt8(at)); break;
        case 5122: out.push(buffer.readInt16LE(at)); break;
        case 5123: out.push(buffer.readUInt16LE(at)); break;
        case 5125: out.push(buffer.readUInt32LE(at)); break;
        default: out.push(buffer.readFloatLE(at));
      }
    }
  }
  return out;
}
