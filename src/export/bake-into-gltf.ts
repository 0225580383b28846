import type { AnimationClip } from '../asset/animation-clip.ts';
import type { ModelAsset } from '../asset/model-asset.ts';
import { splitGltfContainer } from '../loaders/gltf/gltf-container.ts';
import { resolveGltfResources } from '../loaders/gltf/gltf-resources.ts';
import { bakeClip, type BakedClip } from './baked-clip.ts';
import { animatedNodeRests } from './select-bake-clips.ts';
import { writeBakedGltf, type GltfFileParts } from './write-baked-gltf.ts';

/** Options of {@link bakeIntoGltf}. */
export interface BakeIntoGltfOptions {
  /** `'glb'` or `'gltf'` (writeBakedGltf's `container`). */
  readonly container: 'glb' | 'gltf';
  /** Keys per second (bakeClip's `fps`); absent: each clip's own key times. */
  readonly fps?: number;
}

/**
 * `clips` (clips of `asset`, e.g. retargeted onto it by retargetClipLibrary) baked into the model's own file `parts`
 * (`asset` is that file loaded): bakeClip per clip, then writeBakedGltf with the rest TRS of animated `matrix` nodes
 * (animatedNodeRests). Name the clips apart from the model's first (nameBakedClips).
 * @returns the file's bytes and the clips as written (their channels and keys, for a summary)
 * @throws as bakeClip and writeBakedGltf
 */
export async function bakeIntoGltf(parts: GltfFileParts, asset: ModelAsset, clips: readonly AnimationClip[], options: BakeIntoGltfOptions): Promise<{ bytes: Uint8Array; clips: BakedClip[] }> {
  const baked = clips.map((clip) => bakeClip(asset, clip, { fps: options.fps }));
  const bytes = await writeBakedGltf(parts, baked, { container: options.container, matrixNodes: animatedNodeRests(asset, baked) });
  return { bytes, clips: baked };
}

/**
 * A self-contained glTF file (a GLB, or a `.gltf` whose buffers are data: URIs) split for {@link bakeIntoGltf}; a
 * file with external buffers or images needs them: the CLI reads them from the model's folder.
 * @throws LoadError as splitGltfContainer and resolveGltfResources (`FILE_NOT_FOUND` for an external buffer)
 */
export function gltfFilePartsOf(name: string, bytes: Uint8Array, resources?: Record<string, Uint8Array>): GltfFileParts {
  const { json, binChunk } = splitGltfContainer(name, bytes);
  const resolved = resolveGltfResources(name, json, binChunk, resources);
  const missing = new Set(resolved.missingImages);
  const images = (json.images ?? []).map((image, i) => (image.uri !== undefined && !/^data:/i.test(image.uri) && !missing.has(i) ? resolved.byUri[image.uri] ?? null : null));
  return { name, json, buffers: resolved.buffers, images };
}
