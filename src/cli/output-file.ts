import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Node only: checks that the folder an output file goes into exists, so a command fails before doing its work
 * rather than after, and with a message naming the folder, not the file (node's own says `ENOENT: …, open
 * 'missing/dir/x.json'`, which reads as if the file were expected to exist).
 * @param path the output file as the user gave it; its folder is named as written (`missing/dir`)
 * @throws Error `folder: no such folder` or `folder: not a folder`
 */
export function checkOutputFolder(path: string): void {
  const folder = dirname(path);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new Error(`${folder}: no such folder`);
    throw error;
  }
  if (!isFolder) throw new Error(`${folder}: not a folder`);
}

/**
 * Node only: writes `data` (a string as UTF-8, or bytes) to `path`, replacing the file, after
 * {@link checkOutputFolder}: into a new temporary file beside it (`.NAME.RANDOM.tmp`, in the same folder so the
 * rename stays on one file system), then renamed over it, so a reader never sees half a file and a failed write
 * leaves neither a partial file nor the temporary one (an existing file stays as it was).
 * @throws Error from checkOutputFolder, or node's error for a file that cannot be written (see describeError)
 */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  checkOutputFolder(path);
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    // node names the temporary file; the user asked for `path`.
    const e = error as NodeJS.ErrnoException;
    if (typeof e.path === 'string') e.path = path;
    throw error;
  }
}
