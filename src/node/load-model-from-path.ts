import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { ModelAsset } from '../asset/model-asset.ts';
import { isInsideFolder } from './is-inside-folder.ts';
import { LoadError, quoteUrl } from '../loaders/load-error.ts';
import { requirePositiveBytes } from '../loaders/require-positive-bytes.ts';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../asset/memory-budget.ts';
import { loadModel, requireModelFormat, type FetchCompanion, type LoadModelOptions } from '../loaders/load-model.ts';
import { messageOf } from '../errors/message-of.ts';

/** Options of {@link loadModelFromPath}. */
export interface LoadModelFromPathOptions {
  /**
   * For an `.md5mesh`: paths of the `.md5anim` files to apply, one clip each (default: `<name>.md5anim` next to
   * it, if present). For other formats they are ignored, with a warning (loadModel's rule).
   */
  readonly anims?: readonly string[];
  /**
   * Largest file read, bytes (the model, each companion, each anim); a larger one is refused before any byte
   * is read. Default: `memoryBudgetBytes` when given (a file's bytes are held in memory too), else
   * {@link DEFAULT_MAX_FILE_BYTES}.
   */
  readonly maxFileBytes?: number;
  /**
   * The memory budget (src/asset/memory-budget.ts; {@link LoadModelOptions.memoryBudgetBytes}): for glTF the
   * most bytes the accessors may decode to; default `DEFAULT_MEMORY_BUDGET_BYTES` (512 MiB).
   */
  readonly memoryBudgetBytes?: number;
  /** The model file's bytes when the caller has read them already (`sinew inspect`, through readGuardedFile): not read again. */
  readonly modelBytes?: Uint8Array;
}

/** Default {@link LoadModelFromPathOptions.maxFileBytes} without a budget given: the memory budget's default, 512 MiB. */
export const DEFAULT_MAX_FILE_BYTES = DEFAULT_MEMORY_BUDGET_BYTES;

/**
 * Node only (uses `node:fs`; keep out of browser imports; `sinew-gl/node`): reads a model file — `.glb`, `.gltf`
 * with its external buffers and images, or `.md5mesh` with its `.md5anim` files and images — and gives it to
 * {@link loadModel} with companions read from disk. Messages name files by their base names
 * (`Bob.md5mesh:212: …`), except a model that cannot be read at all, named by `path` as given.
 *
 * A model file may come from anyone, so a companion name (a glTF uri, percent-decoded, or a derived MD5 name)
 * is only ever read from inside the model's folder:
 *
 * - a name with a URI scheme (`http:`, `file:`, …) or an absolute path is refused (Sinew's node readers never
 *   touch the network, and never a path the model's author chose outside its folder);
 * - the resolved path must stay inside the folder, also after following symbolic links (`../secret.bin`, a
 *   link to `/etc`, are refused);
 * - only regular files are read (a folder, FIFO or device such as `/dev/zero` is refused before opening it),
 *   and none larger than `maxFileBytes`;
 * - when the exact name is absent, an entry of the same folder whose name differs only in case is used (MD5
 *   shaders rarely spell their image's case).
 *
 * `options.anims` are paths the caller chose (e.g. `sinew eval --anim`): read from where they point (regular
 * files within the size limit) and known to loadModel by their base names.
 *
 * @throws LoadError: `UNSUPPORTED_FILE_TYPE` before reading anything; `FILE_NOT_FOUND` (`no such file`) or
 *   `IO_ERROR` about `path` as given when the model itself cannot be read (also: not a regular file, too
 *   large); `INVALID_URI` about the model for a companion name that is refused as above; any of loadModel's
 * @throws RangeError when `maxFileBytes` or `memoryBudgetBytes` is not a positive number
 */
export async function loadModelFromPath(path: string, options: LoadModelFromPathOptions = {}): Promise<ModelAsset> {
  const name = basename(path);
  if (options.memoryBudgetBytes !== undefined) requirePositiveBytes('memoryBudgetBytes', options.memoryBudgetBytes);
  const limit = options.maxFileBytes ?? options.memoryBudgetBytes ?? DEFAULT_MAX_FILE_BYTES;
  requirePositiveBytes('maxFileBytes', limit);
  requireModelFormat(name);
  const bytes = options.modelBytes ?? await readGuardedFile(path, limit);
  const explicit = new Map<string, string>();
  for (const anim of options.anims ?? []) if (!explicit.has(basename(anim))) explicit.set(basename(anim), anim);
  const folder = resolve(dirname(path));
  let realFolder: string | null = null;

  const readCompanion = async (companion: string): Promise<Uint8Array | null> => {
    const animPath = explicit.get(companion);
    if (animPath !== undefined) return readIfPresent(animPath, limit);
    const target = resolve(folder, companionPath(name, companion));
    if (!isInsideFolder(folder, target)) throw refused(name, companion, "is outside the model's folder");
    realFolder ??= await realpath(folder);
    const file = await findCaseInsensitive(target);
    if (file === null) return null;
    const real = await realpath(file);
    if (!isInsideFolder(realFolder, real)) throw refused(name, companion, "links to a file outside the model's folder");
    return readIfPresent(real, limit);
  };
  // The companion's name comes from the file: its failures are about the model, the name quoted, never node's
  // message (which carries the absolute path).
  const fetchCompanion: FetchCompanion = async (companion) => {
    try {
      return await readCompanion(companion);
    } catch (error) {
      if (error instanceof LoadError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENAMETOOLONG') throw refused(name, companion, 'has a name too long for the file system');
      if (code === 'ELOOP') throw refused(name, companion, 'is a loop of symbolic links');
      throw new LoadError(name, null, 'IO_ERROR', `companion file ${quoteUrl(companion)} ${ioProblem(error)}`, { cause: error });
    }
  };
  return loadModel({ name, bytes }, fetchCompanion, { anims: [...explicit.keys()], memoryBudgetBytes: options.memoryBudgetBytes });
}

function refused(model: string, companion: string, why: string): LoadError {
  return new LoadError(model, null, 'INVALID_URI', `companion file ${quoteUrl(companion)} ${why}: it is not read`);
}


/** A read failure in words: Sinew's own reason, or node's error code said plainly (its message names absolute paths). */
function ioProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case undefined: return messageOf(error);
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ENAMETOOLONG': return 'has a name too long for the file system';
    case 'ELOOP': return 'is a loop of symbolic links';
    case 'EMFILE': case 'ENFILE': return 'cannot be opened: too many open files';
    case 'EISDIR': return 'is a folder, not a file';
    default: return `cannot be read (${code})`;
  }
}

/** The companion's path relative to the model's folder: percent-decoded; schemes and absolute paths refused. */
function companionPath(model: string, companion: string): string {
  let relative = companion;
  try {
    relative = decodeURIComponent(companion);
  } catch {
    /* not percent-encoded: use as written */
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(relative)) {
    const scheme = relative.slice(0, relative.indexOf(':') + 1).toLowerCase();
    throw refused(model, companion, scheme === 'http:' || scheme === 'https:' ? 'is a network URI (node readers do not fetch)' : `has the URI scheme ${scheme}`);
  }
  if (isAbsolute(relative) || relative.startsWith('\\')) throw refused(model, companion, 'is an absolute path');
  if (relative.includes('\0')) throw refused(model, companion, 'contains a NUL character');
  return relative;
}

/** `file` if it exists, else the one entry of its folder whose name differs only in case, else null. */
async function findCaseInsensitive(file: string): Promise<string | null> {
  try {
    await stat(file);
    return file;
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
  return match === undefined ? null : resolve(dirname(file), match);
}

/**
 * The bytes of a regular file of at most `limit` bytes, checked before it is opened.
 * @returns null when `file` does not exist
 * @throws Error (node's, or `not a regular file` / `is N bytes, over the limit of M`) for anything else
 */
async function readIfPresent(file: string, limit: number): Promise<Uint8Array | null> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  if (!info.isFile()) throw new Error(info.isDirectory() ? 'is a folder, not a file' : 'is not a regular file (a device, FIFO or socket)');
  if (info.size > limit) throw new Error(`is ${info.size} bytes, over the limit of ${limit}`);
  return new Uint8Array(await readFile(file));
}

/**
 * Node only: the bytes of the regular file `path`, at most `limit` bytes, checked before it is opened (the
 * model file's read; also `sinew inspect`'s, so both see the same bytes under the same rules).
 * @throws LoadError about `path` as given: `FILE_NOT_FOUND` (`no such file`), or `IO_ERROR` (not a regular
 *   file, over the limit, permission denied, …; never node's own message)
 */
export async function readGuardedFile(path: string, limit: number): Promise<Uint8Array> {
  let bytes: Uint8Array | null;
  try {
    bytes = await readIfPresent(path, limit);
  } catch (error) {
    throw new LoadError(path, null, 'IO_ERROR', ioProblem(error), { cause: error });
  }
  if (bytes === null) throw new LoadError(path, null, 'FILE_NOT_FOUND', 'no such file');
  return bytes;
}
