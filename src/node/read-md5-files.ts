import type { ModelAsset } from '../asset/model-asset.ts';
import { readModelFile } from './read-model-file.ts';

/**
 * Node only (uses `node:fs`): reads an `.md5mesh`, its `.md5anim` (`animPath`, or by default `<name>.md5anim`
 * next to the mesh when it exists) and the images next to the mesh that its shaders resolve to, and converts
 * them: the node form of `loadModel` (read-model-file.ts). Messages name files by their base names
 * (`Bob.md5mesh:212: …`).
 *
 * @throws LoadError for malformed files, an anim that does not fit the mesh, or a file that cannot be read
 */
export async function readMd5Files(meshPath: string, animPath?: string): Promise<ModelAsset> {
  return readModelFile(meshPath, { anims: animPath === undefined ? undefined : [animPath] });
}
