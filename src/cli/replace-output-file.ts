import { statSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkOutputFolder } from './output-file.ts';

/**
 * Node only: checks, before a command does its work, that `path` can be replaced by an output file: its folder
 * exists ({@link checkOutputFolder}) and `path` is not a folder.
 * @throws Error `folder: no such folder`, `folder: not a folder` or `path: is a folder, not a file`
 */
export function checkReplaceableOutput(path: string): void {
  checkOutputFolder(path);
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // Absent (or unreadable): the write says what is wrong.
  }
  if (isFolder) throw new Error(`${path}: is a folder, not a file`);
}

/**
 * Node only: writes `data` to a temporary file beside `path` (same folder, so the rename cannot cross file
 * systems), then renames it over `path`: readers see the old file or the whole new one, and after any error
 * neither a partial `path` nor the temporary file remains.
 * @throws Error from {@link checkReplaceableOutput}, or node's error for a file that cannot be written or renamed
 *   (main's describeError words it `path: permission denied`, …)
 */
export async function replaceOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  checkReplaceableOutput(path);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    // The user named `path`, not the temporary file: node's message is worded from its `path` (main's describeError).
    const failure = error as NodeJS.ErrnoException;
    if (failure.path === temporary) failure.path = path;
    throw error;
  }
}
