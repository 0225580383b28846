import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { ModelAsset } from '../asset/model-asset.ts';
import { LoadError } from './load-error.ts';
import { loadModel, requireModelFormat, type FetchCompanion } from './load-model.ts';

/** Options of {@link readModelFile}. */
export interface ReadModelFileOptions {
  /** For an `.md5mesh`: paths of the `.md5anim` files to apply (default: `<name>.md5anim` next to it, if present). */
  readonly anims?: readonly string[];
}

/**
 * Node only (uses `node:fs`; keep out of browser imports): reads a model file and gives it to
 * {@link loadModel} with companions read from disk: each companion name (a glTF uri, percent-decoded, or a
 * derived MD5 name) relative to the model's folder, matched case-insensitively when the exact name is absent
 * (MD5 shaders rarely spell their image's case); `options.anims` are read from where their paths point and
 * known to loadModel by their base names.
 *
 * @throws LoadError: `UNSUPPORTED_FILE_TYPE` before reading anything; `FILE_NOT_FOUND` (`no such file`) or
 *   `IO_ERROR` about `path` as given when the model itself cannot be read; any of loadModel's
 */
export async function readModelFile(path: string, options: ReadModelFileOptions = {}): Promise<ModelAsset> {
  const name = basename(path);
  requireModelFormat(name);
  const bytes = await readOrFail(path);
  const explicit = new Map<string, string>();
  for (const anim of options.anims ?? []) if (!explicit.has(basename(anim))) explicit.set(basename(anim), anim);
  const folder = dirname(path);

  const fetchCompanion: FetchCompanion = async (companion) => {
    const animPath = explicit.get(companion);
    if (animPath !== undefined) return readIfPresent(animPath);
    let relative = companion;
    try {
      relative = decodeURIComponent(companion);
    } catch {
      /* not percent-encoded: use as written */
    }
    return readIfPresent(resolve(folder, relative));
  };
  return loadModel({ name, bytes }, fetchCompanion, { anims: [...explicit.keys()] });
}

/** The file's bytes; LoadError about `path` as given when it cannot be read. */
async function readOrFail(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoadError(path, null, 'FILE_NOT_FOUND', 'no such file', { cause: error });
    const problem = code === 'EISDIR' ? 'is a folder, not a file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    throw new LoadError(path, null, 'IO_ERROR', problem, { cause: error });
  }
}

/**
 * The bytes of `file`, or of the one entry of its folder whose name differs only in case; null when neither
 * exists. Other failures (permissions, a folder) are thrown.
 */
async function readIfPresent(file: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  let entries: string[];
  try {
    entries = await readdir(dirname(file));
  } catch {
    return null;
  }
  const wanted = basename(file).toLowerCase();
  const match = entries.find((entry) => entry.toLowerCase() === wanted);
  return match === undefined ? null : new Uint8Array(await readFile(resolve(dirname(file), match)));
}
