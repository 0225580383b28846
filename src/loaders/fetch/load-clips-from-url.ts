import { LoadError } from '../load-error.ts';
import { CLIP_EXTENSIONS, loadClips, type ClipLibrary } from '../load-clips.ts';
import type { FetchCompanion } from '../load-model.ts';
import { requirePositiveBytes } from '../require-positive-bytes.ts';
import { DownloadProgress, type ProgressCallback } from './download-progress.ts';
import { fetchableRequestUrl, fetchableUrl } from './fetchable-url.ts';
import { companionsOf, extensionOf } from './load-model-from-files.ts';
import { fetchFile, fileNameOf } from './load-model-from-url.ts';

/** Whether `name` has one of the extensions `loadClips` reads (`CLIP_EXTENSIONS`). */
export function isClipFileName(name: string): boolean {
  return CLIP_EXTENSIONS.includes(`.${extensionOf(name)}`);
}

/**
 * Checked before any fetch.
 * @throws LoadError `UNSUPPORTED_FILE_TYPE` naming `name` when it has none of `CLIP_EXTENSIONS`
 */
function requireClipFile(name: string): void {
  if (!isClipFileName(name)) throw new LoadError(name, null, 'UNSUPPORTED_FILE_TYPE', `not a clips file (expected ${CLIP_EXTENSIONS.join(', ')})`);
}

/** Options of {@link loadClipsFromUrl}; `memoryBudgetBytes` as `loadClips`'. */
export interface LoadClipsFromUrlOptions {
  /** File name used for the format and in messages; default: the URL's last segment (give one for data: and blob: URLs). */
  readonly name?: string;
  /** Told of the download's progress over the file and its companions ({@link ProgressCallback}). */
  readonly onProgress?: ProgressCallback;
  readonly memoryBudgetBytes?: number;
  /** Absolute URL that `url` is relative to, as {@link LoadModelFromUrlOptions.baseUrl}: a page passes `document.baseURI`. */
  readonly baseUrl?: string;
}

/**
 * Browser: fetches a clips file — an animation-only glTF/GLB, any glTF, an `.md5anim` or a `.vrma` — from a URL (resolved
 * against `options.baseUrl`) and reads its skeleton and clips with `loadClips`; a .gltf's buffers are fetched
 * relative to it. Only http(s), data: and blob: URLs are fetched (fetchable-url.ts). Retarget the result onto a
 * model with `retargetClipLibrary`.
 * @throws LoadError naming the file: an unsupported extension (before any fetch), the file not found
 *   (`FILE_NOT_FOUND`), HTTP or network failures (`IO_ERROR`), or the loader's own
 * @throws RangeError when `options.memoryBudgetBytes` is not a positive number
 */
export async function loadClipsFromUrl(url: string, options: LoadClipsFromUrlOptions = {}): Promise<ClipLibrary> {
  const { name = fileNameOf(url, 'clips.glb'), onProgress, memoryBudgetBytes, baseUrl } = options;
  requireClipFile(name);
  if (memoryBudgetBytes !== undefined) requirePositiveBytes('memoryBudgetBytes', memoryBudgetBytes); // before any download
  const base = fetchableRequestUrl(url, baseUrl, name);
  const progress = onProgress ? new DownloadProgress(onProgress) : null;
  const main = await fetchFile(base.href, name, progress);
  if ('missing' in main) throw new LoadError(name, null, 'FILE_NOT_FOUND', main.missing);
  const fetchCompanion: FetchCompanion = async (companion) => {
    const fetched = await fetchFile(fetchableUrl(companion, base.href, name).href, companion, progress);
    return 'bytes' in fetched ? fetched.bytes : null;
  };
  return loadClips({ name, bytes: main.bytes }, fetchCompanion, { memoryBudgetBytes });
}

/**
 * Browser: reads a clips file from dropped or picked files with `loadClips`: the first `.md5anim`, else the first
 * .glb or .gltf, is the clips file; the others are its companions, matched by file name (`companionsOf`).
 * @throws LoadError `UNSUPPORTED_FILE_TYPE` when none is a clips file, or the loader's own
 */
export async function loadClipsFromFiles(files: readonly File[], options: Pick<LoadClipsFromUrlOptions, 'memoryBudgetBytes'> = {}): Promise<ClipLibrary> {
  const main = files.find((f) => extensionOf(f.name) === 'md5anim') ?? files.find((f) => isClipFileName(f.name));
  if (!main) {
    const names = files.map((f) => f.name).join(', ') || 'nothing';
    throw new LoadError(names, null, 'UNSUPPORTED_FILE_TYPE', `no clips file (expected ${CLIP_EXTENSIONS.join(', ')})`);
  }
  const bytes = new Uint8Array(await main.arrayBuffer());
  return loadClips({ name: main.name, bytes }, companionsOf(files), { memoryBudgetBytes: options.memoryBudgetBytes });
}
