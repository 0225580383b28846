import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkOutputFolder } from './output-file.ts';

/**
 * Node only: writes `data` to `path` through a temporary file beside it (`.<name>.<random>.tmp`, same folder, so
 * the rename stays on one file system), renamed over `path` once complete: a reader never sees a partial file, and
 * on any failure neither `path` nor the temporary file is left (an existing `path` stays as it was).
 * @throws Error from checkOutputFolder; node's error for a file that cannot be written or renamed, its `path` set to
 *   `path` (not the temporary file's)
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  checkOutputFolder(path);
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    // Node names the temporary file; the user named OUT (main.ts words the error by its `path`).
    if (typeof (error as NodeJS.ErrnoException).path === 'string') (error as NodeJS.ErrnoException).path = path;
    throw error;
  }
}
