import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ModelAsset } from '../../asset/model-asset.ts';
import { parseMd5Mesh } from './parse-md5-mesh.ts';
import { parseMd5Anim } from './parse-md5-anim.ts';
import { md5ToModelAsset } from './md5-to-model-asset.ts';
import { MD5_IMAGE_EXTENSIONS, resolveMd5ShaderImage } from './md5-shader-images.ts';

/**
 * Node only (uses `node:fs`): reads an `.md5mesh`, optionally an `.md5anim`, and the image files next to the
 * mesh that its shaders resolve to (`resolveMd5ShaderImage`, by base name, case-insensitive), and converts
 * them with {@link md5ToModelAsset}. Messages name files by their base names (`Bob.md5mesh:212: …`).
 *
 * @throws ParseError for malformed files or an anim that does not fit the mesh; the fs error when a file is
 *   missing
 */
export async function readMd5Files(meshPath: string, animPath?: string): Promise<ModelAsset> {
  const meshName = basename(meshPath);
  const mesh = parseMd5Mesh(meshName, await readFile(meshPath, 'utf8'));
  const anim = animPath ? parseMd5Anim(basename(animPath), await readFile(animPath, 'utf8')) : null;

  const directory = dirname(meshPath);
  const siblings = (await readdir(directory)).filter((name) => {
    const lower = name.toLowerCase();
    return MD5_IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext));
  });
  const images: Record<string, Uint8Array> = {};
  for (const part of mesh.meshes) {
    const name = resolveMd5ShaderImage(part.shader, siblings);
    if (name !== null && !(name in images)) images[name] = new Uint8Array(await readFile(join(directory, name)));
  }
  return md5ToModelAsset(mesh, anim, meshName, images);
}
