import type { ModelAsset } from '../asset/model-asset.ts';
import { readModelFile } from './read-model-file.ts';

/**
 * Node only (uses node:fs; keep out of browser imports): reads a `.gltf` / `.glb` file and the external
 * buffers and images its JSON names (relative to the file's folder, uri percent-decoded) and parses it: the
 * node form of `loadModel` (read-model-file.ts).
 *
 * @throws LoadError naming the file: `no such file`, an unsupported extension, or any loader error
 */
export async function readGltfFile(path: string): Promise<ModelAsset> {
  return readModelFile(path);
}
