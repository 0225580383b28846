const GLB_MAGIC = 0x46546c67, CHUNK_JSON = 0x4e4f534a, CHUNK_BIN = 0x004e4942;

/** A GLB split into its JSON and its BIN chunk (glTF 2.0 §4.4 "Binary glTF Layout"). */
export interface GlbParts {
  json: Record<string, unknown>;
  bin: Uint8Array | null;
}

/** The JSON and BIN chunks of GLB bytes, or null when the bytes are not a two-chunk GLB (a .gltf's JSON, say). */
export function splitGlb(glb: Uint8Array): GlbParts | null {
  if (glb.length < 20) return null;
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(16, true) !== CHUNK_JSON) return null;
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binStart = 20 + jsonLength;
  let bin: Uint8Array | null = null;
  if (binStart + 8 <= glb.length && view.getUint32(binStart + 4, true) === CHUNK_BIN) {
    bin = glb.subarray(binStart + 8, binStart + 8 + view.getUint32(binStart, true));
  }
  return { json, bin };
}

/** GLB bytes from a JSON object and a BIN chunk, each padded to 4 bytes (JSON with spaces, BIN with zeros). */
export function joinGlb({ json, bin }: GlbParts): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonPadded = (text.length + 3) & ~3, binPadded = bin ? (bin.length + 3) & ~3 : 0;
  const total = 20 + jsonPadded + (bin ? 8 + binPadded : 0);
  const out = new Uint8Array(total), view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true); view.setUint32(4, 2, true); view.setUint32(8, total, true);
  view.setUint32(12, jsonPadded, true); view.setUint32(16, CHUNK_JSON, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonPadded);
  if (bin) {
    view.setUint32(20 + jsonPadded, binPadded, true); view.setUint32(24 + jsonPadded, CHUNK_BIN, true);
    out.set(bin, 28 + jsonPadded);
  }
  return out;
}

type JsonObject = Record<string, unknown> & { extensions?: Record<string, unknown> };

/**
 * Copies into `out` the extensions of `source` that glTF-Transform dropped because it does not model them (a VRM's
 * `VRMC_vrm`, `VRM`, `VRMC_springBone`, `VRMC_node_constraint`, `VRMC_materials_mtoon`, …): at the top level and on
 * each node, material, mesh, texture and image, matched by index (the optimizer neither adds nor removes those, so
 * their indices are the source's), and adds their names to `extensionsUsed` (and `extensionsRequired` where the
 * source required them). Extensions `out` already has are left as written.
 */
export function carryUnknownExtensions(source: JsonObject, out: JsonObject): void {
  const carried = new Set<string>();
  const carry = (from: JsonObject | undefined, to: JsonObject | undefined) => {
    if (!from?.extensions || !to) return;
    for (const [name, value] of Object.entries(from.extensions)) {
      if (to.extensions && name in to.extensions) continue;
      to.extensions = { ...to.extensions, [name]: value };
      carried.add(name);
    }
  };
  carry(source, out);
  for (const list of ['nodes', 'materials', 'meshes', 'textures', 'images']) {
    const from = source[list] as JsonObject[] | undefined, to = out[list] as JsonObject[] | undefined;
    if (!Array.isArray(from) || !Array.isArray(to) || from.length !== to.length) continue;
    from.forEach((item, i) => carry(item, to[i]));
  }
  if (carried.size === 0) return;
  out.extensionsUsed = [...new Set([...((out.extensionsUsed as string[]) ?? []), ...carried])];
  const required = ((source.extensionsRequired as string[]) ?? []).filter((name) => carried.has(name));
  if (required.length > 0) out.extensionsRequired = [...new Set([...((out.extensionsRequired as string[]) ?? []), ...required])];
}
