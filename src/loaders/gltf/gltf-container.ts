import type { GLTF } from '@gltf-transform/core';
import { LoadError } from '../load-error.ts';

/** GLB magic `glTF` read as a little-endian uint32 (glTF 2.0 §4.4.2 "Header"). */
const GLB_MAGIC = 0x46546c67;
/** Chunk type `JSON` (glTF 2.0 §4.4.3 "Chunks"). */
const CHUNK_JSON = 0x4e4f534a;
/** Chunk type `BIN\0`. */
const CHUNK_BIN = 0x004e4942;

/** A glTF file split into its JSON document and, for GLB, its binary chunk. */
export interface GltfContainer {
  /** The parsed JSON, not yet validated (see validate-gltf-json.ts). */
  readonly json: GLTF.IGLTF;
  /** The GLB `BIN` chunk (buffer 0 when that buffer has no uri), or null for `.gltf` and GLB without one. */
  readonly binChunk: Uint8Array | null;
}

/** Whether `bytes` start with the GLB magic `glTF`. */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

/**
 * Splits `.glb` bytes (12-byte header, JSON chunk, optional BIN chunk; glTF 2.0 §4.4 "Binary glTF Layout")
 * or `.gltf` bytes (UTF-8 JSON, optional BOM) into the JSON document and the BIN chunk. Chunks are views
 * into `bytes`, not copies. Unknown chunks after the BIN chunk are ignored, as the spec requires.
 *
 * @throws LoadError (where: a GLB byte offset, or null) for a bad GLB header or version (`GLB_UNEXPECTED_END_OF_HEADER`,
 *   `GLB_UNEXPECTED_END_OF_CHUNK_HEADER`, `GLB_INVALID_VERSION`, `GLB_LENGTH_TOO_SMALL`), a length field that
 *   disagrees with the byte count (truncated file: `GLB_UNEXPECTED_END_OF_CHUNK_DATA`), a chunk running past the
 *   end (`GLB_CHUNK_TOO_BIG`), a first chunk that is not JSON (`GLB_UNEXPECTED_FIRST_CHUNK`), invalid UTF-8 or
 *   invalid JSON, or JSON whose top level is not an object (`INVALID_JSON`).
 */
export function splitGltfContainer(fileName: string, bytes: Uint8Array): GltfContainer {
  if (!isGlb(bytes)) return { json: parseJsonText(fileName, bytes, 'file'), binChunk: null };

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20) {
    const code = bytes.length < 12 ? 'GLB_UNEXPECTED_END_OF_HEADER' : 'GLB_UNEXPECTED_END_OF_CHUNK_HEADER';
    throw new LoadError(fileName, `byte ${bytes.length}`, code, `GLB is truncated: ${bytes.length} bytes, a header and a chunk header need 20`);
  }
  const version = view.getUint32(4, true);
  if (version !== 2) throw new LoadError(fileName, 'byte 4', 'GLB_INVALID_VERSION', `GLB header declares version ${version}; only glTF 2.0 is supported`);
  const declaredLength = view.getUint32(8, true);
  if (declaredLength > bytes.length) {
    throw new LoadError(fileName, `byte ${bytes.length}`, 'GLB_UNEXPECTED_END_OF_CHUNK_DATA', `GLB is truncated: header declares ${declaredLength} bytes, file has ${bytes.length}`);
  }
  if (declaredLength < 20) throw new LoadError(fileName, 'byte 8', 'GLB_LENGTH_TOO_SMALL', `GLB header declares ${declaredLength} bytes, less than a header and a chunk header`);

  let json: GLTF.IGLTF | null = null;
  let binChunk: Uint8Array | null = null;
  let offset = 12;
  let chunkIndex = 0;
  while (offset < declaredLength) {
    if (offset + 8 > declaredLength) {
      throw new LoadError(fileName, `byte ${offset}`, 'GLB_UNEXPECTED_END_OF_CHUNK_HEADER', `GLB chunk ${chunkIndex} header at byte ${offset} runs past the declared length ${declaredLength}`);
    }
    const chunkLength = view.getUint32(offset, true);
    const chunkType = view.getUint32(offset + 4, true);
    const start = offset + 8;
    const end = start + chunkLength;
    if (end > declaredLength) {
      throw new LoadError(
        fileName, `byte ${offset}`, 'GLB_CHUNK_TOO_BIG',
        `GLB chunk ${chunkIndex} (${chunkLength} bytes at byte ${start}) runs past the declared length ${declaredLength} (truncated file?)`,
      );
    }
    const data = bytes.subarray(start, end);
    if (chunkIndex === 0) {
      if (chunkType !== CHUNK_JSON) throw new LoadError(fileName, `byte ${offset}`, 'GLB_UNEXPECTED_FIRST_CHUNK', `GLB chunk 0 has type 0x${chunkType.toString(16)}, expected JSON`);
      json = parseJsonText(fileName, data, 'GLB JSON chunk');
    } else if (chunkIndex === 1 && chunkType === CHUNK_BIN) {
      binChunk = data;
    }
    // Chunks are 4-byte aligned; a length that is not is tolerated by advancing to the next boundary.
    offset = end + ((4 - (chunkLength % 4)) % 4);
    chunkIndex++;
  }
  if (json === null) throw new LoadError(fileName, 'byte 12', 'GLB_UNEXPECTED_FIRST_CHUNK', 'GLB has no JSON chunk');
  return { json, binChunk };
}

function parseJsonText(fileName: string, bytes: Uint8Array, what: string): GLTF.IGLTF {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LoadError(fileName, null, 'INVALID_JSON', `${what} is not valid UTF-8 (neither GLB nor glTF JSON?)`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LoadError(fileName, null, 'INVALID_JSON', `${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LoadError(fileName, null, 'INVALID_JSON', `${what}: top level is not a JSON object`);
  }
  return value as GLTF.IGLTF;
}
