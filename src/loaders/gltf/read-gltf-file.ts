import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ModelAsset } from '../../asset/model-asset.ts';
import { splitGltfContainer } from './gltf-container.ts';
import { parseGltf } from './parse-gltf.ts';

/**
 * Node only (uses node:fs; keep out of browser imports). Reads a `.gltf` / `.glb` file and the external
 * buffers and images its JSON names (relative to the file's folder, uri percent-decoded), ready for
 * {@link parseGltf} (or use {@link readGltfFile} to read and parse). Data URIs and the GLB BIN chunk need no reading. A named file that does not exist is
 * left out, so parseGltf reports it with the JSON place that names it.
 *
 * @returns the file name (no folder), its bytes, and uri → bytes for each external resource found
 * @throws Error from node:fs when `path` itself cannot be read, or from splitGltfContainer for a malformed file
 */
export function readGltfSources(path: string): { fileName: string; bytes: Uint8Array; resources: Record<string, Uint8Array> } {
  const fileName = basename(path);
  const bytes = new Uint8Array(readFileSync(path));
  const { json } = splitGltfContainer(fileName, bytes);
  const resources: Record<string, Uint8Array> = {};
  const folder = dirname(path);
  for (const list of [json.buffers, json.images]) {
    if (!Array.isArray(list)) continue;
    for (const item of list as { uri?: unknown }[]) {
      const uri = item?.uri;
      if (typeof uri !== 'string' || uri === '' || /^data:/i.test(uri) || uri in resources) continue;
      let relative = uri;
      try {
        relative = decodeURIComponent(uri);
      } catch {
        /* use the uri as written */
      }
      const file = resolve(folder, relative);
      if (existsSync(file)) resources[uri] = new Uint8Array(readFileSync(file));
    }
  }
  return { fileName, bytes, resources };
}

/**
 * Node only: reads a glTF / GLB file and its external resources from disk ({@link readGltfSources}) and
 * parses it with {@link parseGltf}.
 * @throws Error naming the file, from either step
 */
export async function readGltfFile(path: string): Promise<ModelAsset> {
  const { fileName, bytes, resources } = readGltfSources(path);
  return parseGltf(fileName, bytes, resources);
}
