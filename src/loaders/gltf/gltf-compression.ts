import type { GLTF, WebIO } from '@gltf-transform/core';
import type { GltfResources } from './gltf-resources.ts';

/**
 * Compressed geometry — EXT_meshopt_compression buffer views, KHR_draco_mesh_compression primitives — found in
 * the JSON here, decoded by chunks imported on first need (meshopt-views.ts, draco-primitives.ts): their
 * decoders (WebAssembly) and Sinew's checks of what they decode load only for a file that has such data.
 */

/** Whether any buffer view of the file is EXT_meshopt_compression-compressed. */
export function usesMeshopt(json: GLTF.IGLTF): boolean {
  return Array.isArray(json.bufferViews) && json.bufferViews.some((view) => view?.extensions?.EXT_meshopt_compression !== undefined);
}

/**
 * The file with its EXT_meshopt_compression buffer views decoded (meshopt-views.ts `decodeMeshoptViews`: its
 * checks, budget and errors); `json` and `resources` as they are when it has none.
 */
export async function decodeMeshopt(fileName: string, json: GLTF.IGLTF, resources: GltfResources, memoryBudgetBytes: number): Promise<{ json: GLTF.IGLTF; resources: GltfResources }> {
  if (!usesMeshopt(json)) return { json, resources };
  const { decodeMeshoptViews } = await import('./meshopt-views.ts');
  return decodeMeshoptViews(fileName, json, resources, memoryBudgetBytes);
}

/**
 * `read()` (gltf-transform's `io.readJSON`), for a file with KHR_draco_mesh_compression primitives (after
 * validateGltfJson) with the Draco reader registered on `io` (draco-primitives.ts `readDracoDocument`: its
 * checks, order and errors); for a file without, `readWithoutMeshes()` (default `read`): the reader of a JSON
 * without what only Draco needs gltf-transform for (parse-gltf.ts, slim-for-reader.ts).
 */
export async function readWithDraco<T>(fileName: string, json: GLTF.IGLTF, io: WebIO, read: () => Promise<T>, readWithoutMeshes: () => Promise<T> = read): Promise<T> {
  const draco = (json.meshes ?? []).some((mesh) => mesh.primitives.some((primitive) => primitive.extensions?.KHR_draco_mesh_compression !== undefined));
  if (!draco) return readWithoutMeshes();
  const { readDracoDocument } = await import('./draco-primitives.ts');
  return readDracoDocument(fileName, json, io, read);
}
