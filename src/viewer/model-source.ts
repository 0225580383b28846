import type { ModelAsset } from '../asset/model-asset.ts';
import { MissingFileError } from './missing-file-error.ts';
import { parseGltf } from '../loaders/gltf/parse-gltf.ts';
import { parseMd5Source } from './md5-source.ts';
import { DownloadProgress, type ProgressCallback } from './download-progress.ts';

/** A named file's bytes, from a URL fetch, a drop or a file input. */
export interface SourceFile {
  /** File name without folders (e.g. `Fox.glb`), used in messages and to match relative URIs. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * Parses a main file plus companion files into a ModelAsset.
 * @param main the file that names the model (`.glb`, `.gltf`, `.md5mesh`)
 * @param fetchCompanion returns the bytes of a file the main file refers to (a URI relative to the main
 *   file, as written in it), or rejects with an Error naming it
 * @param companionNames names of the other files known to be available: for a drop or file pick, the
 *   other files chosen with it; for a URL, empty (the parser asks `fetchCompanion` by convention, e.g.
 *   `Bob.md5anim` next to `Bob.md5mesh`)
 */
export type ModelParser = (
  main: SourceFile,
  fetchCompanion: (uri: string) => Promise<Uint8Array>,
  companionNames: readonly string[],
) => Promise<ModelAsset>;

/**
 * Parsers by lower-case file extension: the hook for more formats (`modelExtensions()`, messages and the
 * file picker follow). `md5mesh` takes the `.md5anim` files among `companionNames` (a drop of mesh + anims),
 * or fetches `<name>.md5anim` through `fetchCompanion` for a URL (see md5-source.ts).
 */
export const modelParsers: Record<string, ModelParser> = {
  glb: (main) => parseGltf(main.name, main.bytes),
  gltf: parseGltfWithResources,
  md5mesh: parseMd5Source,
};

/** File extensions accepted as the main file of a model, for messages and the file picker. */
export function modelExtensions(): string[] {
  return Object.keys(modelParsers).map((e) => '.' + e);
}

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

async function parseGltfWithResources(main: SourceFile, fetchCompanion: (uri: string) => Promise<Uint8Array>): Promise<ModelAsset> {
  let json: { buffers?: { uri?: unknown }[]; images?: { uri?: unknown }[] };
  try {
    json = JSON.parse(new TextDecoder().decode(main.bytes));
  } catch {
    // Let the loader produce its own message for malformed JSON.
    return parseGltf(main.name, main.bytes);
  }
  const uris = new Set<string>();
  for (const list of [json?.buffers, json?.images]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const uri = item?.uri;
      if (typeof uri === 'string' && uri !== '' && !/^data:/i.test(uri)) uris.add(uri);
    }
  }
  const resources: Record<string, Uint8Array> = {};
  await Promise.all(
    [...uris].map(async (uri) => {
      const bytes = await fetchCompanion(uri);
      resources[uri] = bytes;
      // Also under the decoded form, whichever the loader looks up.
      try {
        resources[decodeURIComponent(uri)] = bytes;
      } catch {
        /* keep the raw key only */
      }
    }),
  );
  return parseGltf(main.name, main.bytes, resources);
}

function parserFor(name: string): ModelParser {
  const parser = modelParsers[extensionOf(name)];
  if (!parser) {
    throw new Error(`${name}: unsupported file type (expected ${modelExtensions().join(', ')})`);
  }
  return parser;
}

async function fetchBytes(url: string, name: string, progress: DownloadProgress | null): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`${name}: could not fetch ${url} (${(e as Error).message})`);
  }
  if (!response.ok) {
    const message = `${name}: HTTP ${response.status} ${response.statusText} for ${url}`.trim();
    throw response.status === 404 || response.status === 410 ? new MissingFileError(message) : new Error(message);
  }
  // Development servers answer unknown paths with the app's index.html (SPA fallback): that is a miss.
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/html') && !/\.html?$/i.test(name)) {
    throw new MissingFileError(`${name}: not found at ${url} (the server answered with an HTML page)`);
  }
  try {
    return progress ? await progress.read(response) : new Uint8Array(await response.arrayBuffer());
  } catch (e) {
    throw new Error(`${name}: download of ${url} failed (${(e as Error).message})`);
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
 * Fetches and parses a model from a URL. Companion files (a .gltf's buffers and images, an .md5mesh's anim
 * and images) are fetched relative to it; `options.anim` names an .md5anim elsewhere.
 * @param options a file name (as a string, for compatibility) or {@link UrlLoadOptions}
 * @throws Error naming the file: HTTP failures, unsupported extension, or the loader's own message
 */
export async function loadModelFromUrl(url: string, options: string | UrlLoadOptions = {}): Promise<ModelAsset> {
  const { name = fileNameOf(url), anim = null, onProgress } = typeof options === 'string' ? { name: options } as UrlLoadOptions : options;
  const parser = parserFor(name);
  const progress = onProgress ? new DownloadProgress(onProgress) : null;
  const bytes = await fetchBytes(url, name, progress);
  const base = new URL(url, document.baseURI);
  const animName = anim ? fileNameOf(anim, 'anim.md5anim') : null;
  const asset = await parser(
    { name, bytes },
    (uri) => fetchBytes(anim && uri === animName ? new URL(anim, document.baseURI).href : new URL(uri, base).href, uri, progress),
    animName ? [animName] : [],
  );
  if (animName && extensionOf(name) !== 'md5mesh') {
    return { ...asset, warnings: [...asset.warnings, `${name}: anim ${animName} ignored (only an .md5mesh takes an .md5anim)`] };
  }
  return asset;
}

/**
 * Parses a model from a set of local files (a drop or a file input): the first file with a model extension
 * is the model, the others are its companions, matched to the URIs it names by file name (folders in the
 * URI are ignored, since a drop flattens them).
 * @throws Error naming the file: no model file among them, a companion missing, or the loader's message
 */
export async function loadModelFromFiles(files: readonly File[]): Promise<ModelAsset> {
  const main = files.find((f) => extensionOf(f.name) in modelParsers);
  if (!main) {
    const names = files.map((f) => f.name).join(', ') || 'nothing';
    throw new Error(`${names}: no model file (expected ${modelExtensions().join(', ')})`);
  }
  const byName = new Map<string, File>();
  for (const f of files) byName.set(f.name, f);
  const bytes = new Uint8Array(await main.arrayBuffer());
  return parserFor(main.name)({ name: main.name, bytes }, async (uri) => {
    const path = uri.split(/[?#]/)[0];
    let base = path.slice(path.lastIndexOf('/') + 1);
    try {
      base = decodeURIComponent(base);
    } catch {
      /* use as written */
    }
    const file = byName.get(base);
    if (!file) throw new MissingFileError(`${main.name}: needs ${uri}; drop it together with ${main.name}`);
    return new Uint8Array(await file.arrayBuffer());
  }, files.filter((f) => f !== main).map((f) => f.name));
}
