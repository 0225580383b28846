import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { fileNameOf, loadModelFromUrl } from '../../../src/loaders/fetch/load-model-from-url.ts';
import { extensionOf } from '../../../src/loaders/fetch/load-model-from-files.ts';

/**
 * Fetches an `.md5mesh` by URL, with its `.md5anim` and images, and converts it through the viewer's own
 * browser-side MD5 path (`loadModelFromUrl` → `loadModel` → `md5ToModelAsset`), so the parity harness
 * checks what the viewer draws.
 *
 * @param meshUrl URL of the `.md5mesh`
 * @param animUrl URL of the `.md5anim` to apply (one clip, named after its file); when omitted or null, the
 *   viewer's convention: `<name>.md5anim` next to the mesh when there, else no clip (bind pose only) and a
 *   warning saying so
 * @throws LoadError naming the file: HTTP failures, or the MD5 loader's (`Bob.md5mesh:212: …`)
 */
export async function loadMd5(meshUrl: string, animUrl: string | null = null): Promise<ModelAsset> {
  const name = fileNameOf(meshUrl);
  if (extensionOf(name) !== 'md5mesh') throw new Error(`${meshUrl}: loadMd5 expects an .md5mesh`);
  if (animUrl !== null && extensionOf(fileNameOf(animUrl)) !== 'md5anim') throw new Error(`${animUrl}: loadMd5 expects an .md5anim`);
  return loadModelFromUrl(meshUrl, { name, anim: animUrl });
}
