import type { ModelAsset } from '../asset/model-asset.ts';
import { LoadError } from '../loaders/load-error.ts';
import { modelFormatOf } from '../loaders/load-model.ts';
import { loadModelFromPath } from '../node/load-model-from-path.ts';

/**
 * Node only: the model of `sinew eval` / `sinew inspect` through {@link loadModelFromPath}, with the command
 * line's rule on top: `--anim` for a model that is not an `.md5mesh` is an error (README "Command line:
 * `sinew`"), where the library only warns.
 * @param options.anim the `--anim` path; options.maxMemoryBytes `--max-memory`: the largest file read and the
 *   most bytes a glTF's accessors may decode to (default 512 MiB each); options.modelBytes the model file's
 *   bytes when the command has read them already
 * @throws LoadError about `path` as given, `ANIM_NOT_APPLICABLE`, before reading anything; any of
 *   loadModelFromPath's
 */
export async function loadCommandModel(path: string, options: { anim?: string; maxMemoryBytes?: number; modelBytes?: Uint8Array } = {}): Promise<ModelAsset> {
  const format = modelFormatOf(path);
  if (options.anim !== undefined && format !== null && format !== 'md5mesh') {
    throw new LoadError(path, null, 'ANIM_NOT_APPLICABLE', '--anim applies to .md5mesh models only');
  }
  return loadModelFromPath(path, {
    anims: options.anim === undefined ? undefined : [options.anim],
    maxFileBytes: options.maxMemoryBytes,
    memoryBudgetBytes: options.maxMemoryBytes,
    modelBytes: options.modelBytes,
  });
}
