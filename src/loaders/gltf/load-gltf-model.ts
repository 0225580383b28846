import type { ModelAsset } from '../../asset/model-asset.ts';
import type { FetchCompanion, ModelFile } from '../model-file.ts';
import { splitGltfContainer } from './gltf-container.ts';
import { parseGltf, type GltfParseOptions } from './parse-gltf.ts';

/**
 * The glTF half of `loadModel`: fetches every external buffer and image its JSON names (each uri that is not
 * a `data:` URI, once, by the uri as written) and parses the model with {@link parseGltf}, which finds the
 * resources under the uri or its percent-decoded form. A uri `fetchCompanion` reports missing is left out, so
 * parseGltf names the JSON place that needs it (`FILE_NOT_FOUND`) for a buffer, or draws a missing image as a
 * neutral white texture (one warning).
 *
 * @throws LoadError from parseGltf (also for a malformed container, before anything is fetched), or from
 *   `fetchCompanion`
 */
export async function loadGltfModel(main: ModelFile, fetchCompanion: FetchCompanion, options: GltfParseOptions = {}): Promise<ModelAsset> {
  const { json } = splitGltfContainer(main.name, main.bytes);
  const uris = new Set<string>();
  for (const list of [json.buffers, json.images]) {
    if (!Array.isArray(list)) continue;
    for (const item of list as { uri?: unknown }[]) {
      const uri = item?.uri;
      if (typeof uri === 'string' && uri !== '' && !/^data:/i.test(uri)) uris.add(uri);
    }
  }
  const resources: Record<string, Uint8Array> = {};
  await Promise.all(
    [...uris].map(async (uri) => {
      const bytes = await fetchCompanion(uri);
      if (bytes !== null) resources[uri] = bytes;
    }),
  );
  return parseGltf(main.name, main.bytes, resources, options);
}
