import { WebIO, type Document } from '@gltf-transform/core';

/** The glTF JSON as written, open to the writers' additions (glTF 2.0 §5: the top-level object). */
export type GltfJson = Record<string, unknown> & {
  nodes?: { name?: string; mesh?: number }[];
  meshes?: { name?: string }[];
  materials?: { name?: string }[];
  extensions?: Record<string, unknown>;
  extensionsUsed?: string[];
};

const GLB_MAGIC = 0x46546c67, CHUNK_JSON = 0x4e4f534a, CHUNK_BIN = 0x004e4942;

/**
 * Writes a document as GLB bytes (glTF 2.0 §4.4 "Binary glTF Layout") after `patch` has edited its JSON — how the
 * generated avatars get extensions glTF-Transform does not model (`VRMC_vrm`, `VRM`, `VRMC_vrm_animation`). The
 * same document gives the same bytes.
 * @throws Error if glTF-Transform's output is not a two-chunk GLB (it always is)
 */
export async function writeGlbWithJson(document: Document, patch: (json: GltfJson) => void): Promise<Uint8Array<ArrayBuffer>> {
  const glb = await new WebIO().writeBinary(document);
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(16, true) !== CHUNK_JSON) throw new Error('writeGlbWithJson: not a GLB');
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as GltfJson;
  const binStart = 20 + jsonLength;
  let bin: Uint8Array | null = null;
  if (binStart < glb.length) {
    if (view.getUint32(binStart + 4, true) !== CHUNK_BIN) throw new Error('writeGlbWithJson: second chunk is not BIN');
    bin = glb.subarray(binStart + 8, binStart + 8 + view.getUint32(binStart, true));
  }
  patch(json);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonPadded = (text.length + 3) & ~3;
  const binPadded = bin ? (bin.length + 3) & ~3 : 0;
  const total = 12 + 8 + jsonPadded + (bin ? 8 + binPadded : 0);
  const out = new Uint8Array(total);
  const outView = new DataView(out.buffer);
  outView.setUint32(0, GLB_MAGIC, true); outView.setUint32(4, 2, true); outView.setUint32(8, total, true);
  outView.setUint32(12, jsonPadded, true); outView.setUint32(16, CHUNK_JSON, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonPadded);
  if (bin) {
    const at = 20 + jsonPadded;
    outView.setUint32(at, binPadded, true); outView.setUint32(at + 4, CHUNK_BIN, true);
    out.set(bin, at + 8);
  }
  return out;
}

/** Index of the entry named `name` in a JSON array (`nodes`, `meshes`, `materials`). @throws Error if absent */
export function indexByName(entries: readonly { name?: string }[] | undefined, name: string): number {
  const index = entries?.findIndex((entry) => entry.name === name) ?? -1;
  if (index < 0) throw new Error(`generated avatar: no entry named ${name}`);
  return index;
}

/** Adds an extension's name to `extensionsUsed` (once) and its object to the top-level `extensions`. */
export function addExtension(json: GltfJson, name: string, value: unknown): void {
  json.extensions = { ...json.extensions, [name]: value };
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), name])];
}
