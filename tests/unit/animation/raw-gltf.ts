/**
 * A deliberately small, independent glTF 2.0 reader for tests: container (GLB or .gltf with external or
 * data-URI buffers) and accessors as float arrays (normalized integers de-normalised per glTF 2.0 §3.11).
 * It shares no code with src/loaders, so sampling our loaded clips against three.js tracks built from this
 * reader's data checks the loader and the samplers together.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface Json {
  buffers: { uri?: string; byteLength: number }[];
  bufferViews: { buffer: number; byteOffset?: number; byteLength: number; byteStride?: number }[];
  accessors: { bufferView?: number; byteOffset?: number; componentType: number; count: number; type: string; normalized?: boolean; sparse?: unknown }[];
  animations?: { name?: string; channels: { sampler: number; target: { node?: number; path: string } }[]; samplers: { input: number; output: number; interpolation?: string }[] }[];
}

export interface RawGltf {
  readonly json: Json;
  /** Accessor `index` as floats, `count · components` long. */
  floats(index: number): Float32Array;
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

export function readRawGltf(path: string): RawGltf {
  const file = readFileSync(path);
  let json: Json;
  const buffers: Uint8Array[] = [];
  if (file.readUInt32LE(0) === 0x46546c67) {
    const jsonLength = file.readUInt32LE(12);
    json = JSON.parse(file.subarray(20, 20 + jsonLength).toString('utf8')) as Json;
    const binStart = 20 + jsonLength;
    if (binStart < file.length) buffers.push(new Uint8Array(file.buffer, file.byteOffset + binStart + 8, file.readUInt32LE(binStart)));
  } else {
    json = JSON.parse(file.toString('utf8')) as Json;
  }
  json.buffers.forEach((buffer, i) => {
    if (buffer.uri === undefined) return;
    buffers[i] = buffer.uri.startsWith('data:')
      ? new Uint8Array(Buffer.from(buffer.uri.slice(buffer.uri.indexOf(',') + 1), 'base64'))
      : new Uint8Array(readFileSync(join(dirname(path), decodeURIComponent(buffer.uri))));
  });
  return {
    json,
    floats(index: number): Float32Array {
      const accessor = json.accessors[index];
      if (accessor.sparse || accessor.bufferView === undefined) throw new Error(`${path}: accessor ${index} is sparse or empty (not supported by this reader)`);
      const view = json.bufferViews[accessor.bufferView];
      const bytes = buffers[view.buffer];
      const components = COMPONENTS[accessor.type];
      const size = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }[accessor.componentType]!;
      const stride = view.byteStride ?? components * size;
      const data = new DataView(bytes.buffer, bytes.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0));
      const out = new Float32Array(accessor.count * components);
      for (let i = 0; i < accessor.count; i++) {
        for (let c = 0; c < components; c++) {
          const at = i * stride + c * size;
          let v: number;
          switch (accessor.componentType) {
            case 5126: v = data.getFloat32(at, true); break;
            case 5120: v = Math.max(data.getInt8(at) / 127, -1); break;
            case 5121: v = data.getUint8(at) / 255; break;
            case 5122: v = Math.max(data.getInt16(at, true) / 32767, -1); break;
            case 5123: v = data.getUint16(at, true) / 65535; break;
            default: throw new Error(`${path}: accessor ${index} component type ${accessor.componentType}`);
          }
          out[i * components + c] = v;
        }
      }
      return out;
    },
  };
}
