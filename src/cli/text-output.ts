import { open, unlink, type FileHandle } from 'node:fs/promises';
import { checkOutputFolder } from './output-file.ts';
import { writeStandardOutput } from './standard-output.ts';
import type { TextSink } from './evaluate-model.ts';

/** Text written piece by piece to a file or standard output (`sinew eval`'s JSON, of any size). */
export interface TextOutput {
  /** Writes one piece; resolves once it is handed on (so one piece at most waits in memory). */
  readonly write: TextSink;
  /** Finishes the output: closes the file. */
  close(): Promise<void>;
  /** Gives up after a failure: closes and deletes the file, so no partial document is left behind. */
  discard(): Promise<void>;
}

/**
 * Node only: text output to the file `path` (replacing it; its folder checked now, by
 * {@link checkOutputFolder}), or to standard output when `path` is undefined (writeStandardOutput: a reader
 * that goes away ends the writing quietly). The file is opened at the first write, so a command that fails
 * before writing anything leaves an existing file as it was.
 * @throws Error from checkOutputFolder; `write` rejects with node's error for a file that cannot be opened or
 *   written (see describeError)
 */
export function openTextOutput(path: string | undefined): TextOutput {
  if (path === undefined) return { write: writeStandardOutput, close: async () => {}, discard: async () => {} };
  checkOutputFolder(path);
  let handle: Promise<FileHandle> | null = null;
  return {
    write: async (text) => {
      handle ??= open(path, 'w');
      await (await handle).write(text);
      return true;
    },
    close: async () => {
      if (handle) await (await handle).close();
    },
    discard: async () => {
      if (handle === null) return;
      await handle.then((file) => file.close()).catch(() => {});
      await unlink(path).catch(() => {});
    },
  };
}
