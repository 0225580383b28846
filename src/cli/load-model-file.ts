import { extname } from 'node:path';
import type { ModelAsset } from '../asset/model-asset.ts';
import { readGltfFile } from '../loaders/gltf/read-gltf-file.ts';
import { readMd5Files } from '../loaders/md5/read-md5-files.ts';

/**
 * Node only: reads a model file by its extension — `.glb` / `.gltf` (with external buffers and images next
 * to it) or `.md5mesh` (with `options.anim`, an `.md5anim`, and sibling images).
 * @throws Error naming the file for an unknown extension, an `--anim` given for a glTF model, or any
 *   loader error
 */
export async function loadModelFile(path: string, options: { anim?: string } = {}): Promise<ModelAsset> {
  const extension = extname(path).toLowerCase();
  if (extension === '.md5mesh') return readMd5Files(path, options.anim);
  if (options.anim !== undefined) throw new Error(`${path}: --anim applies to .md5mesh models only`);
  if (extension === '.glb' || extension === '.gltf') return readGltfFile(path);
  throw new Error(`${path}: unknown model type ${JSON.stringify(extension)} (expected .glb, .gltf or .md5mesh)`);
}
