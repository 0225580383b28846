import type { ModelAsset } from '../../asset/model-asset.ts';
import { LoadError, quoteUrl } from '../load-error.ts';
import { loadModel, requireModelFormat, type FetchCompanion, type LoadModelOptions } from '../load-model.ts';
import { DownloadProgress, type ProgressCallback } from './download-progress.ts';
import { fetchableRequestUrl, fetchableUrl } from './fetchable-url.ts';
import { requirePositiveBytes } from '../require-positive-bytes.ts';

/** The last path segment of a URL or path, decoded; `fallback` for data: and blob: URLs without one. */
export function fileNameOf(url: string, fallback = 'model'): string {
  if (/^(data|blob):/i.test(url)) return fallback;
  const path = url.split(/[?#]/)[0];
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || fallback;
  } catch {
    return last || fallback;
  }
}

/** A fetched file's bytes, or why it is not there (a 404 or 410, or a development server's HTML fallback). */
export type Fetched = { readonly bytes: Uint8Array } | { readonly missing: string };

/**
 * Fetches `url` (the file `name`), counting its bytes in `progress` (the one fetch of the model and clip loaders).
 * @throws LoadError `IO_ERROR` about `name` for a network failure or an HTTP error other than "not there"
 */
export async function fetchFile(url: string, name: string, progress: DownloadProgress | null): Promise<Fetched> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LoadError(name, null, 'IO_ERROR', `could not fetch ${quoteUrl(url)} (${(e as Error).message})`, { cause: e });
  }
  if (!response.ok) {
    const problem = `HTTP ${response.status} ${response.statusText} for ${quoteUrl(url)}`.replace(/ {2,}/g, ' ');
    if (response.status === 404 || response.status === 410) return { missing: problem };
    throw new LoadError(name, null, 'IO_ERROR', problem);
  }
  // Development servers answer unknown paths with the app's index.html (SPA fallback): that is a miss.
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/html') && !/\.html?$/i.test(name)) return { missing: `not found at ${quoteUrl(url)} (the server answered with an HTML page)` };
  try {
    return { bytes: progress ? await progress.read(response) : new Uint8Array(await response.arrayBuffer()) };
  } catch (e) {
    throw new LoadError(name, null, 'IO_ERROR', `download of ${quoteUrl(url)} failed (${(e as Error).message})`, { cause: e });
  }
}

/** Options of {@link loadModelFromUrl}; `memoryBudgetBytes` as {@link loadModel}'s. */
export interface LoadModelFromUrlOptions extends Pick<LoadModelOptions, 'memoryBudgetBytes' | 'onParseProgress'> {
  /** File name used for the format and in messages; default: the URL's last segment (give one for data: and blob: URLs). */
  readonly name?: string;
  /**
   * URL of the `.md5anim` to play on an `.md5mesh` (default: `<name>.md5anim` next to the mesh, when there).
   * Ignored, with a warning, for other formats.
   */
  readonly anim?: string | null;
  /**
   * Told of the download's progress (see {@link ProgressCallback}): bytes over the model's file and the
   * companions it fetches, as each is requested; total null while any size is unknown.
   */
  readonly onProgress?: ProgressCallback;
  /**
   * Absolute URL that `url` and `anim` are relative to: a page passes `document.baseURI`. Default: the base URL
   * the page's `fetch` resolves against (the same in a window; `fetchBaseUrl` in fetchable-url.ts); in node, none (absolute URLs only).
   */
  readonly baseUrl?: string;
}

/**
 * Browser: fetches a model from a URL (resolved against `options.baseUrl`) and loads it with {@link loadModel}:
 * companion files (a .gltf's buffers and images, an .md5mesh's anim and images) are fetched relative to it;
 * `options.anim` names an .md5anim elsewhere. Only http(s), data: and blob: URLs are fetched (fetchable-url.ts).
 * @param options a file name (as a string, for compatibility) or {@link LoadModelFromUrlOptions}
 * @throws LoadError naming the file: an unsupported extension (before any fetch), the model not found
 *   (`FILE_NOT_FOUND`), HTTP or network failures (`IO_ERROR`), or the loader's own
 * @throws RangeError when `options.memoryBudgetBytes` is not a positive number
 */
export async function loadModelFromUrl(url: string, options: string | LoadModelFromUrlOptions = {}): Promise<ModelAsset> {
  const { name = fileNameOf(url), anim = null, onProgress, memoryBudgetBytes, onParseProgress, baseUrl } = typeof options === 'string' ? { name: options } as LoadModelFromUrlOptions : options;
  requireModelFormat(name);
  if (memoryBudgetBytes !== undefined) requirePositiveBytes('memoryBudgetBytes', memoryBudgetBytes); // before any download
  const base = fetchableRequestUrl(url, baseUrl, name);
  const animName = anim ? fileNameOf(anim, 'anim.md5anim') : null;
  const animUrl = anim && animName ? fetchableRequestUrl(anim, baseUrl, animName) : null;
  const progress = onProgress ? new DownloadProgress(onProgress) : null;
  const main = await fetchFile(base.href, name, progress);
  if ('missing' in main) throw new LoadError(name, null, 'FILE_NOT_FOUND', main.missing);
  const fetchCompanion: FetchCompanion = async (companion) => {
    const target = animUrl && companion === animName ? animUrl : fetchableUrl(companion, base.href, name);
    const fetched = await fetchFile(target.href, companion, progress);
    return 'bytes' in fetched ? fetched.bytes : null;
  };
  return loadModel({ name, bytes: main.bytes }, fetchCompanion, { anims: animName ? [animName] : undefined, memoryBudgetBytes, onParseProgress });
}
