import type { ModelAsset } from '../asset/model-asset.ts';
import { LoadError } from '../loaders/load-error.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { readModelFile } from './read-model-file.ts';

/**
 * Node only: reads a model file by its extension — `.glb` / `.gltf` (with external buffers and images next
 * to it) or `.md5mesh` (with `options.anim`, an `.md5anim`, by default `<name>.md5anim` next to it if present,
 * and sibling images) — through `loadModel`'s companion rules (read-model-file.ts).
 * @param options.maxMemoryBytes the largest file read and the most bytes a glTF's accessors may decode to
 *   (default 512 MiB each)
 * @param options.modelBytes the model file's bytes when the caller has read them already (readGuardedFile)
 * @throws LoadError naming the file for an unknown extension (`UNSUPPORTED_FILE_TYPE`), an `--anim` given for
 *   a glTF model (`ANIM_NOT_APPLICABLE`), a file that cannot be read, or any loader error
 */
export async function loadModelFile(path: string, options: { anim?: string; maxMemoryBytes?: number; modelBytes?: Uint8Array } = {}): Promise<ModelAsset> {
  const format = modelFormatOf(path);
  if (options.anim !== undefined && format !== null && format !== 'md5mesh') {
    throw new LoadError(path, null, 'ANIM_NOT_APPLICABLE', '--anim applies to .md5mesh models only');
  }
  return readModelFile(path, {
    anims: options.anim === undefined ? undefined : [options.anim],
    maxFileBytes: options.maxMemoryBytes,
    memoryBudgetBytes: options.maxMemoryBytes,
    modelBytes: options.modelBytes,
  });
}
