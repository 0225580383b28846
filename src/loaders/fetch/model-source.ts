import type { ModelAsset } from '../../asset/model-asset.ts';
import { LoadError, quoteValue } from '../load-error.ts';
import { loadModel, MODEL_EXTENSIONS, modelFormatOf, requireModelFormat, type FetchCompanion } from '../load-model.ts';
import { DownloadProgress, type ProgressCallback } from './download-progress.ts';
import { fetchableUrl } from './fetchable-url.ts';

/** The lower-case extension of a file name, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

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
type Fetched = { readonly bytes: Uint8Array } | { readonly missing: string };

/**
 * Fetches `url` (the file `name`), counting its bytes in `progress`.
 * @throws LoadError `IO_ERROR` about `name` for a network failure or an HTTP error other than "not there"
 */
async function fetchFile(url: string, name: string, progress: DownloadProgress | null): Promise<Fetched> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LoadError(name, null, 'IO_ERROR', `could not fetch ${quoteValue(url)} (${(e as Error).message})`, { cause: e });
  }
  if (!response.ok) {
    const problem = `HTTP ${response.status} ${response.statusText} for ${quoteValue(url)}`.replace(/ {2,}/g, ' ');
    if (response.status === 404 || response.status === 410) return { missing: problem };
    throw new LoadError(name, null, 'IO_ERROR', problem);
  }
  // Development servers answer unknown paths with the app's index.html (SPA fallback): that is a miss.
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/html') && !/\.html?$/i.test(name)) return { missing: `not found at ${quoteValue(url)} (the server answered with an HTML page)` };
  try {
    return { bytes: progress ? await progress.read(response) : new Uint8Array(await response.arrayBuffer()) };
  } catch (e) {
    throw new LoadError(name, null, 'IO_ERROR', `download of ${quoteValue(url)} failed (${(e as Error).message})`, { cause: e });
  }
}

/** Options of {@link loadModelFromUrl}. */
export interface UrlLoadOptions {
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
}

/**
 * Fetches a model from a URL and loads it with `loadModel`: companion files (a .gltf's buffers and images, an
 * .md5mesh's anim and images) are fetched relative to it; `options.anim` names an .md5anim elsewhere.
 * @param options a file name (as a string, for compatibility) or {@link UrlLoadOptions}
 * @throws LoadError naming the file: an unsupported extension (before any fetch), the model not found
 *   (`FILE_NOT_FOUND`), HTTP or network failures (`IO_ERROR`), or the loader's own
 */
export async function loadModelFromUrl(url: string, options: string | UrlLoadOptions = {}): Promise<ModelAsset> {
  const { name = fileNameOf(url), anim = null, onProgress } = typeof options === 'string' ? { name: options } as UrlLoadOptions : options;
  requireModelFormat(name);
  const base = fetchableUrl(url, document.baseURI, name);
  const animName = anim ? fileNameOf(anim, 'anim.md5anim') : null;
  const animUrl = anim && animName ? fetchableUrl(anim, document.baseURI, animName) : null;
  const progress = onProgress ? new DownloadProgress(onProgress) : null;
  const main = await fetchFile(base.href, name, progress);
  if ('missing' in main) throw new LoadError(name, null, 'FILE_NOT_FOUND', main.missing);
  const fetchCompanion: FetchCompanion = async (companion) => {
    const target = animUrl && companion === animName ? animUrl : fetchableUrl(companion, base.href, name);
    const fetched = await fetchFile(target.href, companion, progress);
    return 'bytes' in fetched ? fetched.bytes : null;
  };
  return loadModel({ name, bytes: main.bytes }, fetchCompanion, { anims: animName ? [animName] : undefined });
}

/**
 * Loads a model from a set of local files (a drop or a file input) with `loadModel`: the first file with a
 * model extension is the model, every `.md5anim` among the others is an anim to play on an `.md5mesh` (one
 * clip each; none: the default `<name>.md5anim` rule), and the others are companions matched to the names
 * the model asks for by file name (folders in a uri are ignored, since a drop flattens them; the case is
 * ignored when no name matches exactly).
 * @throws LoadError naming the file: no model file among them (`UNSUPPORTED_FILE_TYPE`), or the loader's
 */
export async function loadModelFromFiles(files: readonly File[]): Promise<ModelAsset> {
  const main = files.find((f) => modelFormatOf(f.name) !== null);
  if (!main) {
    const names = files.map((f) => f.name).join(', ') || 'nothing';
    throw new LoadError(names, null, 'UNSUPPORTED_FILE_TYPE', `no model file (expected ${MODEL_EXTENSIONS.join(', ')})`);
  }
  const byName = new Map<string, File>();
  const byLowerName = new Map<string, File>();
  for (const f of files) {
    byName.set(f.name, f);
    if (!byLowerName.has(f.name.toLowerCase())) byLowerName.set(f.name.toLowerCase(), f);
  }
  const fetchCompanion: FetchCompanion = async (companion) => {
    const path = companion.split(/[?#]/)[0];
    let base = path.slice(path.lastIndexOf('/') + 1);
    try {
      base = decodeURIComponent(base);
    } catch {
      /* use as written */
    }
    const file = byName.get(base) ?? byLowerName.get(base.toLowerCase());
    return file ? new Uint8Array(await file.arrayBuffer()) : null;
  };
  const anims = files.filter((f) => f !== main && extensionOf(f.name) === 'md5anim').map((f) => f.name);
  const bytes = new Uint8Array(await main.arrayBuffer());
  return loadModel({ name: main.name, bytes }, fetchCompanion, { anims: modelFormatOf(main.name) === 'md5mesh' ? anims : undefined });
}
