import type { ModelAsset } from '../../../src/asset/model-asset.ts';
import { parseGltf } from '../../../src/loaders/gltf/parse-gltf.ts';

/**
 * Fetches a glTF/GLB by URL (and, for .gltf, the external buffers and images its JSON names, relative to
 * it) and parses it with the project's loader.
 * @throws Error naming the URL when a fetch fails
 */
export async function loadGltf(url: string): Promise<ModelAsset> {
  const bytes = await fetchBytes(url);
  const fileName = url.slice(url.lastIndexOf('/') + 1);
  const resources: Record<string, Uint8Array> = {};
  if (fileName.toLowerCase().endsWith('.gltf')) {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: string }[]; images?: { uri?: string }[] };
    const uris = [...(json.buffers ?? []), ...(json.images ?? [])].map((e) => e.uri).filter((u): u is string => !!u && !u.startsWith('data:'));
    const base = new URL(url, location.href);
    for (const uri of uris) resources[uri] = await fetchBytes(new URL(uri, base).href);
  }
  return parseGltf(fileName, bytes, resources);
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
