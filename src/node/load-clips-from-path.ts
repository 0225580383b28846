import { basename } from 'node:path';
import { clipLibraryOf, loadClips, type ClipLibrary } from '../loaders/load-clips.ts';
import { requirePositiveBytes } from '../loaders/require-positive-bytes.ts';
import { DEFAULT_MAX_FILE_BYTES, loadModelFromPath, readGuardedFile } from './load-model-from-path.ts';

/**
 * Node only: {@link loadClips} for a file on disk. An `.md5anim` or a `.vrma` (a GLB, without companions) is read
 * under the model reader's rules (a regular file, at most `maxFileBytes`); a `.glb` / `.gltf` through {@link loadModelFromPath}, so its
 * companions are confined to its own folder by the same rules.
 * @param options.maxFileBytes largest file read (default: `memoryBudgetBytes`, else 512 MiB); options.memoryBudgetBytes as
 *   loadModel's (the memory budget, src/asset/memory-budget.ts)
 * @throws LoadError as loadClips (`UNSUPPORTED_FILE_TYPE` before reading anything) and loadModelFromPath
 * @throws RangeError when a limit is not a positive number
 */
export async function loadClipsFromPath(path: string, options: { maxFileBytes?: number; memoryBudgetBytes?: number } = {}): Promise<ClipLibrary> {
  const name = basename(path);
  const limit = options.maxFileBytes ?? options.memoryBudgetBytes ?? DEFAULT_MAX_FILE_BYTES;
  requirePositiveBytes('maxFileBytes', limit);
  if (!/\.(md5anim|vrma)$/i.test(name)) {
    // loadClips refuses any other extension before reading; glTF goes through the model reader.
    if (/\.(glb|gltf)$/i.test(name)) return clipLibraryOf(await loadModelFromPath(path, options));
    return loadClips({ name, bytes: new Uint8Array(0) }, async () => null);
  }
  return loadClips({ name, bytes: await readGuardedFile(path, limit) }, async () => null, { memoryBudgetBytes: options.memoryBudgetBytes });
}
